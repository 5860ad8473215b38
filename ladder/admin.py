from django.contrib import admin

from ladder.models import LadderReplay, PlayerEventResult, RatedEvent


@admin.register(RatedEvent)
class RatedEventAdmin(admin.ModelAdmin):
    list_display = ("event", "club", "position")
    list_filter = ("club",)
    readonly_fields = ("event", "club", "position", "chain_hash", "game_outcomes")


@admin.register(PlayerEventResult)
class PlayerEventResultAdmin(admin.ModelAdmin):
    list_display = ("player", "event", "pre_rating", "change", "post_rating")
    raw_id_fields = ("player", "event", "club")


@admin.register(LadderReplay)
class LadderReplayAdmin(admin.ModelAdmin):
    list_display = ("club", "version", "from_position", "events_rated", "finished_at")
    list_filter = ("club",)
