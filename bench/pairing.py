"""Swiss pairing speed: directors.night.pairing.pair_swiss on large synthetic opens, in-process,
against the reference engine, plain py4swiss.

    .venv/bin/python bench/pairing.py                          # rounds 1 and 5 at 300 and 1,000
    .venv/bin/python bench/pairing.py --players 300 --repeat 5 --rounds 1,2,3,5,9
    .venv/bin/python bench/pairing.py --no-plain   # ours only (plain round 1 of 1,000: ~90 s)
    .venv/bin/python bench/pairing.py --pairing /tmp/old/pairing.py   # another night/pairing.py

Issue 34 asks for a Swiss round of 300 players in under 1 s and of 1,000 in under 5 s, every
round, with exactly the pairings of the plain library.

For each field size each round asked is timed: round 1 (everyone on 0, one score group:
fixed by the rules, so paired without the engine) and later rounds of 9 (mixed scores, colour
histories, floats, a few absentees, pairing-allocated byes and forfeits). The earlier rounds
are made up by a cheap greedy Swiss written here (the highest-ranked unpaired player meets the
next one he has not met and can take the colours with, results drawn with a fixed seed), so
the history costs nothing to build and is the same for every version of
directors/night/pairing.py; it is legal (no repeat games, no third colour in a row, one
pairing-allocated bye each at most), which is all pair_swiss asks.

"plain" is the same call with py4swiss's own methods put back and round 1 left to the engine
(directors.night.pairing.swiss.LIBRARY_METHODS, as tests/directors/night/test_pairing_speed.py
does):
the
reference engine available here, run once per round (it is slow), and checked to pair the same.

"bbp" is bbpPairings itself, when a `bbpPairings` binary is on PATH (build it from source; see
BENCHMARKS.md): the same field and history are written as a TRF-16 file (bench/kit/trf.py:
the starting numbers, ratings, round cells, byes and absentees pair_swiss hands py4swiss,
``XXR`` and ``XXC white1``), `bbpPairings --dutch FILE -p OUT` is run once per round and
timed (wall, and the child's CPU from getrusage), and its pairing is read back and compared
with ours: "same", or how many of our boards it did not pair alike (reported, never fatal).
Its CPU seconds beside ours make the comparison that a busy machine does not spoil.

`--pairing FILE` loads that file as directors.night.pairing instead of the project's (for "before"
figures: `git show main:directors/night/pairing.py > /tmp/old/pairing.py`). The load average is
printed before and after: the machine is shared, and the figures mean little when it is busy;
the CPU seconds tell a busy machine from slow code.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.kit.machine import load_average  # noqa: E402
from bench.kit.measure import repeat, row, table_head  # noqa: E402
from bench.kit.trf import boards_differing, read_pairing, write_trf  # noqa: E402
from clubs.results import Result  # noqa: E402

SIZES = (300, 1000)
ROUNDS = "1,5"
TOTAL_ROUNDS = 9
REPEAT = 3
TARGET_S = {300: 1.0, 1000: 5.0}


def load_pairing(path: str | None) -> ModuleType:
    if path is None:
        import directors.night.pairing

        return directors.night.pairing
    spec = importlib.util.spec_from_file_location("directors.night.pairing", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["directors.night.pairing"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def draw_result(rng: random.Random) -> Result:
    x = rng.random()
    if x < 0.37:
        return Result.WHITE_WIN
    if x < 0.62:
        return Result.DRAW
    if x < 0.97:
        return Result.BLACK_WIN
    return rng.choice([Result.WHITE_FORFEIT_WIN, Result.BLACK_FORFEIT_WIN])


def made_up_history(pairing: ModuleType, players: int, rounds: int, seed: int = 22):
    """`rounds` rounds of a greedy Swiss: (entrants, history, absent ids for the next round)."""
    rng = random.Random(seed)
    entrants = [
        pairing.Entrant(id=10_000 + s, seed=s, rating=2600 - s) for s in range(1, players + 1)
    ]
    score = {e.id: 0.0 for e in entrants}
    colours: dict[int, list[str]] = {e.id: [] for e in entrants}
    met: dict[int, set[int]] = {e.id: set() for e in entrants}
    had_bye: set[int] = set()
    history = []
    points = {
        Result.WHITE_WIN: (1, 0),
        Result.DRAW: (0.5, 0.5),
        Result.BLACK_WIN: (0, 1),
        Result.WHITE_FORFEIT_WIN: (1, 0),
        Result.BLACK_FORFEIT_WIN: (0, 1),
    }

    def may_have(pid: int, colour: str) -> bool:
        c = [*colours[pid], colour]
        return abs(c.count("W") - c.count("B")) <= 2 and c[-3:] not in (["W"] * 3, ["B"] * 3)

    for rnd in range(1, rounds + 1):
        away = set(rng.sample([e.id for e in entrants], players // 50)) if rnd > 1 else set()
        order = sorted(
            (e for e in entrants if e.id not in away), key=lambda e: (-score[e.id], e.seed)
        )
        ids = [e.id for e in order]
        if len(ids) % 2:
            bye = next(pid for pid in reversed(ids) if pid not in had_bye)
            ids.remove(bye)
            had_bye.add(bye)
            score[bye] += 1
            history.append(pairing.PastGame(rnd, bye, None, Result.BYE_PAIRING, allocated=True))
        for pid in away:
            history.append(pairing.PastGame(rnd, pid, None, Result.BYE_ZERO))
        while ids:
            a = ids.pop(0)
            for b in ids:
                if b in met[a]:
                    continue
                if may_have(a, "W") and may_have(b, "B"):
                    white, black = a, b
                elif may_have(a, "B") and may_have(b, "W"):
                    white, black = b, a
                else:
                    continue
                break
            else:  # nobody left for a: the made-up history stops being Swiss-like, not legal
                raise RuntimeError(f"greedy Swiss stuck in round {rnd}")
            ids.remove(b)
            result = draw_result(rng)
            history.append(pairing.PastGame(rnd, white, black, result))
            sw, sb = points[result]
            score[white] += sw
            score[black] += sb
            if not result.is_forfeit:
                colours[white].append("W")
                colours[black].append("B")
                met[white].add(black)
                met[black].add(white)
    absent = set(rng.sample([e.id for e in entrants], players // 50))
    return entrants, history, absent


def timed(pairing: ModuleType, entrants, history, rnd: int, absent, times: int):
    """Wall and CPU seconds of each run (CPU time tells a busy machine from slow code), and
    the last pairing."""
    runs = repeat(
        lambda: pairing.pair_swiss(entrants, history, rnd, TOTAL_ROUNDS, absent), times, keep=True
    )
    return runs.walls, runs.cpus, runs.value


def engine_module(pairing: ModuleType) -> ModuleType:
    """The module that speaks to py4swiss: directors.night.pairing.swiss since issue 34, the
    loaded file itself for an older single-file directors/night/pairing.py."""
    return sys.modules.get(f"{pairing.__name__}.swiss", pairing)


@contextmanager
def plain_library(module: ModuleType) -> Iterator[None]:
    """py4swiss as it comes, for the duration: its own methods back, round 1 to the engine."""
    pairing = engine_module(module)
    pairing._dutch_engine()  # adapts the library on first use
    saved = {key: getattr(*key) for key in pairing.LIBRARY_METHODS}
    fixed = pairing._round_one_fixed
    try:
        for (cls, name), method in pairing.LIBRARY_METHODS.items():
            setattr(cls, name, method)
        pairing._round_one_fixed = lambda *args: None
        yield
    finally:
        for (cls, name), method in saved.items():
            setattr(cls, name, method)
        pairing._round_one_fixed = fixed


def run_bbp(binary: str, entrants, history, rnd: int, absent, ours) -> tuple[float, float, str]:
    """bbpPairings on the same input, once: (wall s, the child's CPU s, "same" or how many
    of our boards differ). The TRF is written before the clock starts."""
    trf = write_trf(entrants, history, rnd, TOTAL_ROUNDS, absent)
    with tempfile.TemporaryDirectory(prefix="bench-bbp-") as folder:
        source, answer = Path(folder, "event.trf"), Path(folder, "pairing.txt")
        source.write_text(trf.text)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(
            [binary, "--dutch", str(source), "-p", str(answer)], capture_output=True, text=True
        )
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if done.returncode:
            return wall, cpu, f"exit {done.returncode}: {done.stderr.strip()[:120]}"
        boards, bye = read_pairing(answer.read_text(), trf.player_of)
    differing = boards_differing(ours.boards, boards) + (bye != ours.bye)
    return wall, cpu, "same" if not differing else f"{differing} boards differ"


def bbp_version(binary: str) -> str:
    done = subprocess.run([binary, "-r"], capture_output=True, text=True)
    return (done.stdout or done.stderr).strip().splitlines()[0] if done.returncode == 0 else "?"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, action="append", help="field size (300, 1000)")
    parser.add_argument("--rounds", default=ROUNDS, help=f"rounds to time, of 9 ({ROUNDS})")
    parser.add_argument("--repeat", type=int, default=REPEAT, help=f"runs per round ({REPEAT})")
    parser.add_argument("--no-plain", action="store_true", help="skip the plain py4swiss runs")
    parser.add_argument("--pairing", help="a directors/night/pairing.py to load instead of ours")
    args = parser.parse_args()
    pairing = load_pairing(args.pairing)
    plain = not args.no_plain and hasattr(engine_module(pairing), "LIBRARY_METHODS")

    print(f"Python {platform.python_version()}, nproc {os.cpu_count()}, {platform.machine()}")
    print(f"directors.night.pairing from {pairing.__file__}")
    bbp = shutil.which("bbpPairings")
    print(f"bbpPairings: {bbp or 'not on PATH, not timed'}")
    if bbp:
        print(f"bbpPairings -r: {bbp_version(bbp)}")
    print(f"load average before: {load_average()}")
    print()
    columns = ("players", "round", "ours min s", "median s", "CPU s", "plain s", "ratio", "target")
    columns += ("bbp s", "bbp CPU s", "CPU ours/bbp", "bbp pairing")
    print(table_head(*columns, align="rrrrrrrlrrrl"))
    for players in args.players or SIZES:
        for rnd in (int(r) for r in args.rounds.split(",")):
            try:
                entrants, history, absent = made_up_history(pairing, players, rnd - 1)
            except RuntimeError as stuck:  # the greedy history, not the pairing under test
                print(row(f"{players:,}", rnd, *"-----", str(stuck), *"----"), flush=True)
                continue
            if rnd == 1:
                absent = set()
            times, cpus, ours = timed(pairing, entrants, history, rnd, absent, args.repeat)
            plain_s = ratio = "-"
            if plain:
                with plain_library(pairing):
                    walls, _, theirs = timed(pairing, entrants, history, rnd, absent, 1)
                if theirs != ours:
                    raise SystemExit(f"{players} players, round {rnd}: the pairings differ")
                plain_s, ratio = f"{walls[0]:.2f}", f"{min(times) / walls[0]:.2f}"
            target = TARGET_S.get(players)
            verdict = (
                ""
                if target is None
                else f"< {target:g} s: " + ("met" if min(times) < target else "missed")
            )
            figures = (f"{min(times):.2f}", f"{statistics.median(times):.2f}", f"{min(cpus):.2f}")
            versus: tuple[str, ...] = ("-", "-", "-", "-")
            if bbp:
                bbp_wall, bbp_cpu, same = run_bbp(bbp, entrants, history, rnd, absent, ours)
                share = f"{min(cpus) / bbp_cpu:.2f}" if bbp_cpu else "-"
                versus = (f"{bbp_wall:.2f}", f"{bbp_cpu:.2f}", share, same)
            print(row(f"{players:,}", rnd, *figures, plain_s, ratio, verdict, *versus), flush=True)
    print()
    print(f"load average after: {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
