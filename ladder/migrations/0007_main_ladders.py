"""Every club's `main` ladder, with the club's policy, settings, replay state and ratings
(see 0006). Its own migration: on PostgreSQL the rows it updates must be committed before
0008 alters their tables."""

from django.apps.registry import Apps
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor

KINDS = ["standard", "rapid", "blitz", "other"]
CLUB_FIELDS = (
    "rating_policy", "rating_settings", "data_version", "built_version", "out_of_date_since",
    "full_rebuild_requested",
)  # fmt: skip
PLAYER_FIELDS = (
    "rating", "rated_games", "provisional", "last_played", "last_change", "start_rating",
    "start_games",
)  # fmt: skip


def main_ladders(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Club = apps.get_model("clubs", "Club")
    Player = apps.get_model("clubs", "Player")
    Ladder = apps.get_model("ladder", "Ladder")
    LadderRating = apps.get_model("ladder", "LadderRating")
    RatedEvent = apps.get_model("ladder", "RatedEvent")
    PlayerEventResult = apps.get_model("ladder", "PlayerEventResult")
    LadderReplay = apps.get_model("ladder", "LadderReplay")
    ladders = Ladder.objects.bulk_create(
        Ladder(
            club_id=club["id"],
            slug="main",
            name="Ladder",
            position=0,
            kinds=KINDS,
            **{name: club[name] for name in CLUB_FIELDS},
        )  # fmt: skip
        for club in Club.objects.values("id", *CLUB_FIELDS)
    )
    for ladder in ladders:
        club = ladder.club_id
        RatedEvent.objects.filter(club_id=club).update(ladder=ladder)
        PlayerEventResult.objects.filter(club_id=club).update(ladder=ladder)
        LadderReplay.objects.filter(club_id=club).update(ladder=ladder)
    by_club = {ladder.club_id: ladder.pk for ladder in ladders}
    LadderRating.objects.bulk_create(
        (
            LadderRating(
                ladder_id=by_club[player["club_id"]],
                player_id=player["id"],
                **{name: player[name] for name in PLAYER_FIELDS},
            )
            for player in Player.objects.values("id", "club_id", *PLAYER_FIELDS).iterator()
        ),
        batch_size=2000,
    )


def back_to_clubs(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    """Back to one ladder per club: the first ladder's policy, settings and ratings."""
    Club = apps.get_model("clubs", "Club")
    Player = apps.get_model("clubs", "Player")
    Ladder = apps.get_model("ladder", "Ladder")
    LadderRating = apps.get_model("ladder", "LadderRating")
    first: dict[int, object] = {}
    for ladder in Ladder.objects.order_by("club_id", "-position"):
        first[ladder.club_id] = ladder
    for club_id, ladder in first.items():
        Club.objects.filter(pk=club_id).update(
            **{name: getattr(ladder, name) for name in CLUB_FIELDS}
        )
        for row in LadderRating.objects.filter(ladder=ladder).values("player_id", *PLAYER_FIELDS):
            Player.objects.filter(pk=row.pop("player_id")).update(**row)


class Migration(migrations.Migration):
    dependencies = [("ladder", "0006_several_ladders")]

    operations = [migrations.RunPython(main_ladders, back_to_clubs)]
