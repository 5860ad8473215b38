"""What the club-night commands share: finding the club and its club night."""

from __future__ import annotations

from django.core.management.base import CommandError

from clubs.models import Club, Event


def club_named(slug: str) -> Club:
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        raise CommandError(f"No club with slug {slug!r}")
    return club


def night_of(slug: str, event_id: int) -> Event:
    club = club_named(slug)
    event = Event.objects.select_related("club").filter(club=club, pk=event_id).first()
    if event is None:
        raise CommandError(f"No event {event_id} in club {club.slug!r}")
    if not event.pairing_system:
        raise CommandError(f"Event {event_id} was not run here as a club night")
    return event
