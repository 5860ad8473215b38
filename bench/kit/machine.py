"""The machine a bench ran on and how busy it was (the figures mean little on a busy one), and
what a process of the run holds in memory."""

from __future__ import annotations

import os
import platform
import sys
from pathlib import Path


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def nproc() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


def load_average(separator: str = " ", digits: int = 2) -> str:
    """The 1, 5 and 15 minute load averages."""
    return separator.join(f"{load:.{digits}f}" for load in os.getloadavg())


def print_command_and_machine() -> None:
    """The `command:` and `machine:` lines the deployment benches open with."""
    load = load_average()
    print(f"command:    {' '.join(['python', *sys.argv])}")
    print(f"machine:    nproc={nproc()}, {cpu_model()}, load {load}")


def print_software(connection) -> None:
    """The `machine:` and `software:` lines of the in-process benches."""
    import django

    print(f"machine:  nproc={nproc()}, CPU {cpu_model()}, load average {load_average(', ')}")
    print(
        f"software: {connection.vendor} {connection.Database.__name__}, "
        f"Python {platform.python_version()}, Django {django.get_version()}"
    )


def rss_kb(pid: int) -> int:
    """VmRSS of one process in kB; 0 once it has gone."""
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return 0
    return next((int(line.split()[1]) for line in lines if line.startswith("VmRSS:")), 0)
