from __future__ import annotations

from django import forms
from django.contrib import admin
from django.http import HttpRequest

from clubs import audit
from clubs.models import Ladder
from ladder.changes import LadderInput, club_changed
from ladder.models import LadderRating, LadderReplay, PlayerEventResult, RatedEvent


@admin.register(Ladder)
class LadderAdmin(admin.ModelAdmin):
    list_display = ("club", "slug", "name", "position", "rating_policy", "data_version")
    list_filter = ("club",)
    # Policy, settings and kinds change on the directors' settings screen (and the club's
    # admin page for its first ladder), which preview and replay them.
    readonly_fields = (
        "club", "slug", "rating_policy", "rating_settings", "kinds", "data_version",
        "built_version", "out_of_date_since", "full_rebuild_requested",
    )  # fmt: skip


@admin.register(LadderRating)
class LadderRatingAdmin(admin.ModelAdmin):
    """A player's standing on a ladder; staff may set the starting estimate, which replays
    that ladder. The rest is the replay's."""

    list_display = ("player", "ladder", "rating", "rated_games", "provisional", "start_rating")
    list_filter = ("ladder__club",)
    raw_id_fields = ("player", "ladder")
    fields = (
        "ladder", "player", "start_rating", "start_games", "rating", "rated_games",
        "provisional", "last_played", "last_change",
    )  # fmt: skip
    readonly_fields = ("rating", "rated_games", "provisional", "last_played", "last_change")

    def save_model(
        self, request: HttpRequest, obj: LadderRating, form: forms.ModelForm, change: bool
    ) -> None:
        super().save_model(request, obj, form, change)
        if {"start_rating", "start_games", "ladder", "player"} & set(form.changed_data):
            club_id = obj.ladder.club_id
            club_changed(club_id, LadderInput.of_ladders([obj.ladder_id]))
            audit.record(club_id, request.user, "player.edited", player_id=obj.player_id,
                         changed=sorted(form.changed_data), by="staff")  # fmt: skip


@admin.register(RatedEvent)
class RatedEventAdmin(admin.ModelAdmin):
    list_display = ("event", "ladder", "position")
    list_filter = ("club",)
    readonly_fields = ("event", "club", "ladder", "position", "chain_hash", "game_outcomes")


@admin.register(PlayerEventResult)
class PlayerEventResultAdmin(admin.ModelAdmin):
    list_display = ("player", "event", "pre_rating", "change", "post_rating")
    raw_id_fields = ("player", "event", "club", "ladder")


@admin.register(LadderReplay)
class LadderReplayAdmin(admin.ModelAdmin):
    list_display = ("ladder", "version", "from_position", "events_rated", "finished_at")
    list_filter = ("club",)
