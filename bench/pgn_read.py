"""Reading PGN files: directors.importers.parse_file on two generated files, with the event limits.

    DEBUG=true .venv/bin/python bench/pgn_read.py [--checkout PATH] [--repeat 3]

- header-only: 30,000 games of 2,000 players, 1,000 boards a round over 30 rounds, each a
  header block and its result (the largest event allowed, as bench/uploads.py posts it);
- with moves: 2,000 games of 400 players over 10 rounds, each with lichess's tags and 40
  moves with a clock comment after each (about 4.6 MB).

--checkout PATH times another checkout's importers (the "before" figure: extract main with
`git archive main clubs ladder matching | tar -x -C /tmp/before`, so that nothing is written
into a working copy). The best of --repeat runs is reported in CPU seconds of this process
(time.process_time), as the machine is shared and wall-clock times vary with its load.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def header_only(games: int = 30_000) -> bytes:
    blocks = []
    for n in range(games):
        white = (n % 1000) * 2 + 1
        blocks.append(
            f'[Event "Open"]\n[Round "{n // 1000 + 1}"]\n[White "P{white:04d}"]\n'
            f'[Black "P{white + 1:04d}"]\n[Result "1-0"]\n\n1-0\n\n'
        )
    return "".join(blocks).encode()


MOVES = " ".join(
    f"{n}. e4 {{ [%clk 0:03:00] }} {n}... e5 {{ [%clk 0:02:59] }}" for n in range(1, 41)
)


def with_moves(games: int = 2_000) -> bytes:
    blocks = []
    for n in range(games):
        white = (n % 200) * 2 + 1
        blocks.append(
            f'[Event "Open"]\n[Site "https://lichess.org/g{n}"]\n[Date "2024.05.02"]\n'
            f'[Round "{n // 200 + 1}"]\n[White "P{white:04d}"]\n[Black "P{white + 1:04d}"]\n'
            f'[Result "1-0"]\n[WhiteElo "1500"]\n[BlackElo "1500"]\n[TimeControl "180+0"]\n\n'
            f"{MOVES} 1-0\n\n"
        )
    return "".join(blocks).encode()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checkout", type=Path, default=ROOT, help="importers to time")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each file (3)")
    options = parser.parse_args()
    sys.path.insert(0, str(options.checkout))
    from directors.importers import Limits, parse_file

    # settings.EVENT_MAX_*, with no byte cap (import_event's limits).
    limits = Limits(entrants=2000, rounds=30, games=32000, file_bytes=2**62)
    for label, data in (("header-only", header_only()), ("with moves", with_moves())):
        times = []
        for _ in range(options.repeat):
            start = time.process_time()
            event = parse_file(data, "pgn", limits=limits)
            times.append(time.process_time() - start)
        print(
            f"{label}: {len(data):,} bytes, {len(event.games):,} games, "
            f"best of {options.repeat} {min(times):.2f} CPU s"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
