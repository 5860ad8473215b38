import re

import pytest
from django.apps import apps
from django.core import mail
from django.db import models
from django.urls import reverse

from clubs.models import AuditEntry, Entry, PlayerAlias
from clubs.results import Result
from directors.events.names import review_names
from ladder.replay import verify_ladder
from tests.factories import make_event, make_players, make_user, rated_players, standing

pytestmark = pytest.mark.django_db

CANARY = "Zebedee Quixotic-Canary"


def text_columns_containing(needle: str) -> list[str]:
    """Every text or JSON column of every table that still holds the needle."""
    found = []
    for model in apps.get_models():
        for field in model._meta.concrete_fields:
            if isinstance(field, models.JSONField):
                rows = model.objects.values_list(field.attname, flat=True)
                if any(needle in repr(value) for value in rows):
                    found.append(f"{model._meta.label}.{field.name}")
            elif isinstance(field, (models.CharField, models.TextField)) and (
                model.objects.filter(**{f"{field.attname}__contains": needle}).exists()
            ):
                found.append(f"{model._meta.label}.{field.name}")
    return found


def test_erasing_a_player_removes_the_name_from_every_table_and_keeps_the_ladder(
    client, club, director, django_capture_on_commit_callbacks
):
    from django.db import transaction

    from clubs import audit
    from ladder.changes import LadderInput, club_changed

    canary, other = make_players(club, [CANARY, "Other Player"])
    PlayerAlias.objects.create(player=canary, name="Z. Quixotic-Canary")
    make_event(club, [(1, canary, other, Result.WHITE_WIN)])
    # Drafts whose names are not linked yet, typed as on the roster and in another order.
    draft = make_event(club, published=False, name="Next week")
    Entry.objects.create(event=draft, typed_name=CANARY)
    Entry.objects.create(event=draft, typed_name="Quixotic-Canary, Zebedee")
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        club_changed(club.pk, LadderInput())
        audit.record(club, director, "entry.repointed", typed=CANARY)
    canary = standing(canary)
    rating_before = canary.rating
    assert text_columns_containing("Quixotic-Canary")

    client.force_login(director)
    response = client.post(reverse("player_erase", args=[club.slug, canary.pk]))
    assert response.status_code == 302
    assert text_columns_containing("Quixotic-Canary") == []
    canary = standing(canary)
    assert canary.rating == rating_before
    assert verify_ladder(club) == []
    assert AuditEntry.objects.filter(club=club, action="player.erased").exists()


def test_after_an_erasure_no_draft_offers_the_erased_name_again(client, club, director):
    canary, other = make_players(club, [CANARY, "Other Player"])
    make_event(club, [(1, canary, other, Result.WHITE_WIN)])
    draft = make_event(club, published=False, name="Next week")
    Entry.objects.create(event=draft, typed_name="Zebedee Quixotic-Canery")  # a typo
    Entry.objects.create(event=draft, typed_name=CANARY)
    client.force_login(director)
    names_url = reverse("event_names", args=[club.slug, draft.pk])
    # The names screen reads the prepared roster, which is now kept for this club.
    assert CANARY in client.get(names_url).content.decode()

    assert client.post(reverse("player_erase", args=[club.slug, canary.pk])).status_code == 302
    screen = client.get(names_url).content.decode()
    assert "Quixotic-Canary" not in screen  # neither as a new player nor as a roster match
    matched = {c.matched for review in review_names(draft) for c in review.candidates}
    assert not any("Quixotic-Canary" in name for name in matched)


def test_erasure_asks_for_confirmation_first(client, club, director):
    (canary,) = make_players(club, [CANARY])
    client.force_login(director)
    response = client.get(reverse("player_erase", args=[club.slug, canary.pk]))
    assert response.status_code == 200
    assert rated_players().get(pk=canary.pk).name == CANARY


def test_director_changes_are_in_the_audit_log_which_directors_can_read(client, club, owner):
    helper = make_user("helper@example.org")
    client.force_login(owner)
    client.post(reverse("director_add", args=[club.slug]), {"email": "helper@example.org"})
    link = re.search(r"https?://[^/\s]+(/invitations/\S+)", mail.outbox[0].body).group(1)
    client.force_login(helper)
    client.post(link)
    client.force_login(owner)
    assert AuditEntry.objects.get(club=club, action="director.invited").user == owner
    entry = AuditEntry.objects.get(club=club, action="director.added")
    assert entry.user == owner
    page = client.get(reverse("audit_log", args=[club.slug])).content.decode()
    assert "added helper@example.org as a director." in page


@pytest.mark.django_db(transaction=True)
def test_the_audit_log_refuses_to_record_outside_a_transaction(club, owner):
    from clubs import audit

    with pytest.raises(RuntimeError):
        audit.record(club, owner, "club.created")
