"""The RQ worker and job classes `rqworker` uses (settings.RQ): a work horse that dies with its
worker, and a job whose function moved since it was queued.

rq forks a work horse per job and puts it in a process group of its own, so a `kill -9` on
the worker (the OOM killer, a supervisor that signals one PID) would leave the horse
running: a replay nobody watches any more, which may still commit. On Linux the horse asks
the kernel for SIGKILL when its parent dies (PR_SET_PDEATHSIG), so it is killed mid-replay,
its transaction rolls back and the club stays out of date until the sweep queues it again.
Elsewhere the horse runs to the end as rq ships it: its replay commits or rolls back whole.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import os
import signal
import sys
from typing import Any

from rq import Queue, Worker
from rq.job import Job
from rq.utils import import_attribute

logger = logging.getLogger(__name__)

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def die_with_parent(parent_pid: int) -> bool:
    """Ask for SIGKILL when the parent dies; False where the kernel offers no such thing."""
    if not sys.platform.startswith("linux"):
        return False
    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        logger.warning("prctl(PR_SET_PDEATHSIG) failed: errno %s", ctypes.get_errno())
        return False
    if os.getppid() != parent_pid:  # the worker died between fork() and prctl()
        os._exit(1)
    return True


class HorseDiesWithWorker(Worker):
    def main_work_horse(self, job: Job, queue: Queue) -> None:
        # Runs in the forked child; the worker is its parent.
        die_with_parent(self.pid or os.getppid())
        super().main_work_horse(job, queue)


# RQ stores a queued job's function by its dotted path, so a file queued before a deploy that
# moved the function would fail in the new worker: its old path is read as the new one.
MOVED_JOB_FUNCTIONS = {
    "clubs.uploads.upload_job": "directors.events.flow.upload_job",  # moved in issue 25
    "clubs.events.uploads.upload_job": "directors.events.flow.upload_job",  # issue 35
}


class JobOfMovedFunction(Job):
    @property
    def func(self) -> Any:
        moved = MOVED_JOB_FUNCTIONS.get(self.func_name or "")
        if moved is not None and self.instance is None:
            return import_attribute(moved)
        return super().func
