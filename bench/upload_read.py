"""How long the worker reads the largest files an upload may be: the job's whole unit of work
(`directors.events.flow.read_upload`: parse within the event limits, then store the draft's
entrants and games), timed per file, in-process.

    DEBUG=true .venv/bin/python bench/upload_read.py [--repeat 3]      # a throwaway SQLite file
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/clubpages_x DEBUG=true \\
        .venv/bin/python bench/upload_read.py                         # that PostgreSQL database

The files, all of the largest allowed event (2,000 entrants, 30 rounds of 1,000 boards, so
30,000 games) and all under the 4 MiB cap:
  pgn         headers only, every game with its Round tag ("Surname, Given" names)
  pgn-untagged the same with one Round tag (the first game's): the others are numbered from
              the games around them in the file (directors/importers/pgn_rounds.py)
  csv         round,white,black,result
  trf         a FIDE TRF of the event
Each run reads a file into a new draft of a club `bench-upload-read` (made and deleted; the
script refuses to run if it exists). Reported: bytes, the median seconds and MB/s.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.kit.clubs import directed_club  # noqa: E402
from bench.kit.django_env import in_process  # noqa: E402
from bench.kit.machine import print_software  # noqa: E402
from bench.kit.names import trf_file  # noqa: E402

ENTRANTS, ROUNDS = 2000, 30
SLUG = "bench-upload-read"
GIVEN = [
    "Anna", "Bram", "Carla", "Daan", "Emma", "Finn", "Greta", "Hugo", "Iris", "Jonas", "Kira",
    "Lars", "Mila", "Noah", "Olga", "Piet", "Quinn", "Rosa", "Sven", "Tess", "Umar", "Vera",
    "Wout", "Xena", "Yara", "Zeno", "Ada", "Bert", "Cor", "Dirk", "Eva", "Fleur", "Gijs",
    "Hanna", "Ivo", "Jet", "Koen", "Lotte", "Maud", "Nina",
]  # fmt: skip
SURNAMES = [
    "Jansen", "Bakker", "Visser", "Smit", "Meijer", "Mulder", "Bos", "Vos", "Peters",
    "Hendriks", "Dekker", "Brouwer", "Dijkstra", "Kok", "Jacobs", "Vermeulen", "Schouten",
    "Willems", "Hoekstra", "Koster", "Prins", "Huisman", "Kuipers", "Veenstra", "Kramer",
    "Postma", "Scholten", "Molenaar", "Evers", "Blom", "Groen", "Lammers", "Wolters", "Boer",
    "Hermans", "Dam", "Wit", "Graaf", "Berg", "Dijk", "Linden", "Beek", "Ven", "Heuvel",
    "Brink", "Bosch", "Leeuw", "Meer", "Veen", "Wal",
]  # fmt: skip
RESULTS = ("1-0", "0-1", "1/2-1/2")


def field() -> list[str]:
    names = [f"{s}, {g}" for s in SURNAMES for g in GIVEN]
    assert len(names) >= ENTRANTS
    return names[:ENTRANTS]


def pairings(rng: random.Random) -> list[tuple[int, str, str, str]]:
    """(round, white, black, result) of every board."""
    names = field()
    boards = []
    for round_no in range(1, ROUNDS + 1):
        order = names[:]
        rng.shuffle(order)
        for white, black in zip(order[::2], order[1::2], strict=True):
            boards.append((round_no, white, black, rng.choice(RESULTS)))
    return boards


def pgn(boards: list[tuple[int, str, str, str]], *, tagged: bool) -> bytes:
    games = []
    for index, (round_no, white, black, result) in enumerate(boards):
        shown = round_no if tagged or index == 0 else "?"
        games.append(
            f'[Event "Bench Open"]\n[Round "{shown}"]\n[White "{white}"]\n[Black "{black}"]\n'
            f'[Result "{result}"]\n\n{result}\n\n'
        )
    return "".join(games).encode()


def csv(boards: list[tuple[int, str, str, str]]) -> bytes:
    rows = (f'{r},"{w}","{b}",{res}' for r, w, b, res in boards)
    return ("round,white,black,result\n" + "\n".join(rows) + "\n").encode()


def files(seed: int) -> dict[str, tuple[bytes, str]]:
    rng = random.Random(seed)
    boards = pairings(rng)
    return {
        "pgn": (pgn(boards, tagged=True), "bench.pgn"),
        "pgn-untagged": (pgn(boards, tagged=False), "bench.pgn"),
        "csv": (csv(boards), "bench.csv"),
        "trf": (trf_file(field(), rng, ROUNDS), "bench.trf"),
    }


def read_once(data: bytes, filename: str) -> float:
    import datetime as dt

    from clubs.models import Event, Upload
    from directors.events import flow

    with directed_club(SLUG, "Bench upload read", "upload-read@example.org") as (club, user):
        draft = Event.objects.create(club=club, name="Bench Open", date=dt.date(2030, 6, 1))
        received = flow.Received(data, filename, "auto", None, draft.edit_version, None, "file")
        upload = Upload.objects.create(
            club=club,
            event=draft,
            user=user,
            status=Upload.Status.WAITING,
            data=data,
            options={**received.to_json(), "language": "en"},
        )
        started = time.perf_counter()
        flow.read_upload(upload.pk)
        seconds = time.perf_counter() - started
        outcome = Upload.objects.get(pk=upload.pk).outcome
        if outcome.get("error") or not outcome.get("applied"):
            raise SystemExit(f"{filename}: not read: {outcome.get('error')}")
        stored = draft.games.count()
        if stored != ENTRANTS // 2 * ROUNDS:
            raise SystemExit(f"{filename}: {stored} games stored")
        Upload.objects.filter(pk=upload.pk).delete()
        return seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per file (3)")
    args = parser.parse_args()
    with in_process("bench-upload-read-") as connection:
        from directors.events.results import MAX_UPLOAD_BYTES

        print_software(connection)
        made = files(seed=0)
        print(f"{'file':<13} {'bytes':>10} {'median':>8} {'MB/s':>6}   runs")
        for name, (data, filename) in made.items():
            assert len(data) <= MAX_UPLOAD_BYTES, f"{name} is over the cap"
            runs = [read_once(data, filename) for _ in range(args.repeat)]
            median = statistics.median(runs)
            shown = ", ".join(f"{run:.2f}" for run in runs)
            rate = len(data) / 1e6 / median
            print(f"{name:<13} {len(data):>10,} {median:>7.2f}s {rate:>6.2f}   ({shown} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
