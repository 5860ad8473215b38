from __future__ import annotations

from clubs.models import Club


def ladder_rows(club: Club) -> list[dict[str, object]]:
    """The ladder in order as plain rows (full names: for directors and support staff)."""
    players = (
        club.players.on_ladder()
        .in_ladder_order()
        .values_list("name", "rating", "rated_games", "provisional")
    )
    return [
        {"rank": rank, "name": name, "rating": rating, "games": games, "provisional": provisional}
        for rank, (name, rating, games, provisional) in enumerate(players, start=1)
    ]
