from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest

from clubs import audit
from clubs.models import (
    AuditEntry,
    Club,
    ClubRole,
    DuplicateDismissal,
    Entry,
    Event,
    Game,
    Merge,
    Player,
    PlayerAlias,
    User,
    policy_choices,
)
from ladder.changes import LadderInput, OnPages, club_changed, request_full_rebuild
from ladder.policies import get_policy


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    ordering = ("email",)
    list_display = ("email", "name", "is_staff", "is_active", "date_joined")
    search_fields = ("email", "name")
    fieldsets = (
        (None, {"fields": ("email", "password", "name")}),
        ("Permissions", {"fields": ("is_active", "is_staff", "is_superuser", "groups")}),
        ("Dates", {"fields": ("last_login", "date_joined")}),
    )
    add_fieldsets = ((None, {"classes": ("wide",), "fields": ("email", "password1", "password2")}),)


class ClubRoleInline(admin.TabularInline):
    model = ClubRole
    extra = 0
    raw_id_fields = ("user",)


class ClubAdminForm(forms.ModelForm):
    # The first ladder's policy and settings (a club's other ladders: the settings screen).
    rating_policy = forms.ChoiceField(choices=policy_choices)
    rating_settings = forms.JSONField(required=False)

    class Meta:
        model = Club
        fields = ("slug", "name", "newcomer_start", "visibility", "name_display", "language")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        ladder = self.instance.first_ladder() if self.instance.pk else None
        if ladder is not None:
            self.fields["rating_policy"].initial = ladder.rating_policy
            self.fields["rating_settings"].initial = ladder.rating_settings
        else:
            self.fields["rating_policy"].initial = "ladder"
            self.fields["rating_settings"].initial = {}

    def clean(self) -> dict[str, object]:
        super().clean()
        data = self.cleaned_data
        policy_name = data.get("rating_policy")
        if policy_name:
            try:
                policy = get_policy(policy_name)
                data["rating_settings"] = policy.settings_to_dict(
                    policy.parse_settings(data.get("rating_settings") or {})
                )
            except (ValueError, TypeError) as error:
                # A policy's messages name the field and the allowed range.
                self.add_error("rating_settings", str(error))
        return data


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    form = ClubAdminForm
    list_display = ("name", "slug", "visibility")
    search_fields = ("name", "slug")
    readonly_fields = ("secret",)
    inlines = (ClubRoleInline,)
    actions = ("rebuild_ladders",)

    def save_model(
        self, request: HttpRequest, obj: Club, form: forms.ModelForm, change: bool
    ) -> None:
        super().save_model(request, obj, form, change)
        ladder = obj.first_ladder()
        ladder.rating_policy = form.cleaned_data["rating_policy"]
        ladder.rating_settings = form.cleaned_data.get("rating_settings") or {}
        ladder.save(update_fields=["rating_policy", "rating_settings"])
        # The admin saves inside a transaction, so the mark commits with the change.
        if change and {"rating_policy", "rating_settings"} & set(form.changed_data):
            club_changed(obj.pk, LadderInput.of_ladders([ladder.pk]))
            audit.record(obj, request.user, "rating_settings.changed", by="staff")

    @admin.action(description="Rebuild the ladder of the selected clubs from the first event")
    def rebuild_ladders(self, request: HttpRequest, queryset: QuerySet[Club]) -> None:
        for club_id in queryset.values_list("id", flat=True):
            with transaction.atomic():
                request_full_rebuild(club_id)
                audit.record(club_id, request.user, "ladder.rebuilt", by="staff")
        self.message_user(request, "Rebuild queued.", messages.SUCCESS)


class RetiresCachedPages(admin.ModelAdmin):
    """Staff edits can change what a club's pages show (a name, a consent): every save or
    delete retires the club's cached pages, whatever the field."""

    def club_id_of(self, obj: Any) -> int:
        club_id: int = obj.club_id
        return club_id

    def save_model(
        self, request: HttpRequest, obj: Any, form: forms.ModelForm, change: bool
    ) -> None:
        super().save_model(request, obj, form, change)
        club_changed(self.club_id_of(obj), OnPages())

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        club_id = self.club_id_of(obj)
        super().delete_model(request, obj)
        club_changed(club_id, OnPages())

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet) -> None:
        club_ids = {self.club_id_of(obj) for obj in queryset}
        super().delete_queryset(request, queryset)
        for club_id in club_ids:
            club_changed(club_id, OnPages())


@admin.register(Player)
class PlayerAdmin(RetiresCachedPages):
    list_display = ("name", "club", "merged_into")
    list_filter = ("club",)
    search_fields = ("name",)
    # Merges happen on the directors' screens, which record them so they can be undone; a
    # held player is added to the club's pages there too (an unticked box must not do it).
    readonly_fields = ("club", "merged_into", "held")

    def save_model(
        self, request: HttpRequest, obj: Player, form: forms.ModelForm, change: bool
    ) -> None:
        super().save_model(request, obj, form, change)
        if change and "junior" in form.changed_data:
            club_changed(obj.club_id, LadderInput())
        if change and form.changed_data:
            audit.record(obj.club_id, request.user, "player.edited", player_id=obj.pk,
                         changed=sorted(form.changed_data), by="staff")  # fmt: skip


@admin.register(PlayerAlias)
class PlayerAliasAdmin(admin.ModelAdmin):
    list_display = ("name", "player")
    raw_id_fields = ("player",)


@admin.register(Event)
class EventAdmin(RetiresCachedPages):
    list_display = ("name", "club", "date", "order_in_day", "kind", "rated", "status", "deleted_at")
    list_filter = ("status", "kind", "club")
    search_fields = ("name",)
    # Ladder inputs change only through the directors' screens, which replay the ladder.
    readonly_fields = ("club", "date", "order_in_day", "kind", "rated", "status", "deleted_at")


@admin.register(Entry)
class EntryAdmin(RetiresCachedPages):
    list_display = ("typed_name", "event", "player")
    raw_id_fields = ("event", "player")
    readonly_fields = ("event", "player")

    def club_id_of(self, obj: Any) -> int:
        club_id: int = obj.event.club_id
        return club_id


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("event", "round", "white", "black", "result")
    raw_id_fields = ("event", "white", "black")
    readonly_fields = ("event", "round", "white", "black", "result")


@admin.register(Merge)
class MergeAdmin(admin.ModelAdmin):
    list_display = ("merged", "kept", "club", "created_at", "undone_at")
    list_filter = ("club",)
    readonly_fields = [f.name for f in Merge._meta.fields]


@admin.register(DuplicateDismissal)
class DuplicateDismissalAdmin(admin.ModelAdmin):
    list_display = ("first", "second", "club", "created_at")
    raw_id_fields = ("first", "second", "dismissed_by")


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ("created_at", "club", "user", "action")
    list_filter = ("action", "club")
    readonly_fields = ("club", "user", "action", "details", "created_at")
