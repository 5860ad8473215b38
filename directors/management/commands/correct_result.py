from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from directors.edits import PublishingError
from directors.management.commands._night import night_of
from directors.night.corrections import correct_result
from directors.night.pairs import Shown
from directors.night.rounds import BOARD_RESULTS, BoardChange

CODES = {result.value: result for result in BOARD_RESULTS}
# "-+" and "--" would read as options (or the end of them); as arguments here they are codes.
_DASH_CODES = {code for code in CODES if code.startswith("-")}
_AS_CODE = "code:"


def change_line(round_number: int, change: BoardChange) -> str:
    old = change.old.value if change.old is not None else "*"
    board = change.board
    black = board.black.typed_name if board.black is not None else ""
    return (
        f"Round {round_number} board {board.number}: {board.white.typed_name} – {black} "
        f"{old} → {change.new.value}"
    )


class _CodeParser(CommandParser):
    """Reads "-+" and "--" as the result codes they are, not as an option or the end of the
    options, on the command line and through call_command alike (both parse here); "code:"
    before any code is read the same way."""

    def parse_args(self, args: Sequence[str] | None = None, namespace: Any = None) -> Any:
        given = [_AS_CODE + a if a in _DASH_CODES else a for a in (args or [])]
        return super().parse_args(given, namespace)


class Command(BaseCommand):
    help = (
        "Correct one board's result of a club night, in any paired round (codes 1-0, 0-1, "
        "1/2, +-, -+, --): in place before publishing, as a correction (the ladder replays) "
        "after. Prints the board, both names and old → new result."
    )

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        # Django builds a plain CommandParser; argparse's `parents` copies all of its arguments
        # (Django's own and add_arguments') into one that reads a dash code as a code.
        built = super().create_parser(prog_name, subcommand, **kwargs)
        return _CodeParser(
            parents=[built],
            add_help=False,  # -h is among the copied arguments
            prog=built.prog,
            description=built.description,
            formatter_class=built.formatter_class,
            missing_args_message=built.missing_args_message,
            called_from_command_line=built.called_from_command_line,
        )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("event_id", type=int)
        parser.add_argument("round", type=int)
        parser.add_argument("board", type=int)
        parser.add_argument("code", metavar="CODE")
        parser.add_argument(
            "--pairing", type=int, default=None, metavar="N",
            help="refuse, storing nothing, unless the round is still at pairing version N",
        )  # fmt: skip

    def handle(self, *args: Any, **options: Any) -> None:
        event = night_of(options["slug"], options["event_id"])
        code = options["code"].strip().removeprefix(_AS_CODE)
        if code not in CODES:
            raise CommandError(f"Unknown result code {code!r}: use " + ", ".join(CODES))
        shown = Shown(options["pairing"]) if options["pairing"] is not None else None
        try:
            change = correct_result(
                event.pk, options["round"], options["board"], CODES[code], None, shown=shown
            )
        except PublishingError as error:
            raise CommandError(error.message) from None
        self.stdout.write(change_line(options["round"], change))
