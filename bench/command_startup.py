"""Start-up time of the data commands: `manage.py export_ladder / standings / pair_round`.

    DEBUG=true .venv/bin/python bench/command_startup.py [--repeat 10] [--slug demo --event 1]

Each command is run `--repeat` times as its own process (python manage.py ...), the way an
administrator or a cron job runs it, and the wall time of the whole process is reported
(min and median). By default the club slug is one that does not exist, so each run is the
start-up (interpreter, Django set-up, the command's imports, any system checks) plus one
query and the "No club" error; `--slug`/`--event` time a real run instead (pair_round is
left out then: it would pair a round). `DATABASE_URL` is passed through as set, so run
`manage.py migrate` on it first. Python's bytecode cache is on, as on a server (the runs drop
PYTHONDONTWRITEBYTECODE if the shell sets it), and each command runs once untimed first to
fill it: otherwise every run compiles the project's modules again. The load average is
printed before and after: the machine is shared, and the figures mean little when it is busy.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.kit.machine import load_average  # noqa: E402
from bench.kit.measure import row, table_head  # noqa: E402

REPEAT = 10
MISSING = "no-such-club-bench"


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_times(argv: list[str], repeat: int) -> tuple[list[float], list[float], int]:
    """Wall and CPU seconds of each run (CPU time tells a busy machine from slow code)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, check=False)  # warm-up
    walls, cpus, code = [], [], 0
    for _ in range(repeat):
        start, cpu = time.perf_counter(), child_cpu()
        done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, check=False)
        walls.append(time.perf_counter() - start)
        cpus.append(child_cpu() - cpu)
        code = done.returncode
    return walls, cpus, code


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=REPEAT, help=f"runs per command ({REPEAT})")
    parser.add_argument("--slug", default=MISSING, help="a club to run the commands on")
    parser.add_argument("--event", default="1", help="an event id of that club")
    args = parser.parse_args()

    python = sys.executable
    commands = {
        "export_ladder": ["export_ladder", args.slug],
        "standings": ["standings", args.slug, args.event],
        "pair_round": ["pair_round", args.slug, args.event],
    }
    if args.slug != MISSING:
        del commands["pair_round"]
    baseline = [python, "-c", "pass"]
    print(f"load average before: {load_average()}")
    print()
    print(table_head("command", "min s", "median s", "min CPU s", "exit code", align="lrrrr"))
    runs = {"python -c pass": baseline}
    runs.update({name: [python, "manage.py", *rest] for name, rest in commands.items()})
    for name, argv in runs.items():
        walls, cpus, code = run_times(argv, args.repeat)
        figures = (f"{min(walls):.3f}", f"{statistics.median(walls):.3f}", f"{min(cpus):.3f}")
        print(row(name, *figures, code), flush=True)
    print()
    print(f"load average after: {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
