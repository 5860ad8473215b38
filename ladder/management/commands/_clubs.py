"""Shared argument handling for commands that take `SLUG... | --all`, and `--ladder`."""

from __future__ import annotations

from django.core.management.base import CommandError, CommandParser

from clubs.models import Club, Ladder


def add_club_arguments(parser: CommandParser) -> None:
    parser.add_argument("slugs", nargs="*", metavar="SLUG")
    parser.add_argument("--all", action="store_true", help="every club")


def selected_clubs(slugs: list[str], all_clubs: bool) -> list[Club]:
    if all_clubs == bool(slugs):
        raise CommandError("Give one or more club slugs, or --all (not both).")
    if all_clubs:
        return list(Club.objects.order_by("slug"))
    clubs = {c.slug: c for c in Club.objects.filter(slug__in=slugs)}
    unknown = [s for s in slugs if s not in clubs]
    if unknown:
        raise CommandError(f"No club with slug {', '.join(unknown)}")
    return [clubs[s] for s in slugs]


def add_ladder_argument(parser: CommandParser) -> None:
    parser.add_argument(
        "--ladder", metavar="LADDER", help="the ladder's short name (default: the first)"
    )


def selected_ladder(club: Club, slug: str | None) -> Ladder:
    """The club's ladder named by --ladder; without it the first, so every call made before
    a club could have several keeps its meaning."""
    ladders = Ladder.objects.for_club(club.pk)
    found = ladders.first() if slug is None else ladders.filter(slug=slug).first()
    if found is None:
        known = ", ".join(ladders.values_list("slug", flat=True))
        raise CommandError(f"No ladder {slug!r} in club {club.slug!r} (it has: {known})")
    return found
