"""Build correctly aligned TRF lines for tests (columns as in FIDE TRF16)."""

from __future__ import annotations

# (opponent, colour, result), opponent 0 written as 0000 and None as blanks; None: empty cell
Cell = tuple[int | None, str, str] | None


def cell(opponent: int | None, colour: str, result: str) -> str:
    shown = "" if opponent is None else f"{opponent:04d}" if opponent == 0 else str(opponent)
    return f"{shown:>4} {colour} {result}  "


def player(
    rank: int,
    name: str,
    *cells: Cell,
    rating: str = "",
    birth: str = "",
    points: str = "",
    sex: str = " ",
    title: str = "",
    federation: str = "",
    fide_id: str = "",
    place: str = "",
) -> str:
    text = (
        f"001 {rank:>4} {sex}{title:>3} {name:<33.33} {rating:>4} {federation:<3} {fide_id:>11} "
        f"{birth:<10} {points:>4} {place:>4}  "
    )
    for item in cells:
        text += " " * 10 if item is None else cell(*item)
    return text.rstrip()
