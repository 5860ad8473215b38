"""A file queued before a deploy is still read after it: RQ stores the job's dotted path, and
the worker's job class (settings.RQ) reads a moved function's old path as its new one."""

import pytest
from django_rq.jobs import get_job_class
from redis import Redis

from config.rq_worker import MOVED_JOB_FUNCTIONS, JobOfMovedFunction
from directors.events import flow


def _queued(func_name: str) -> JobOfMovedFunction:
    # Never sent: a job is made and read here, so no Redis server is needed.
    job = get_job_class().create(func_name, args=(1,), connection=Redis())
    assert isinstance(job, JobOfMovedFunction)
    return job


@pytest.mark.parametrize("old", sorted(MOVED_JOB_FUNCTIONS))
def test_a_job_queued_under_an_old_path_runs_the_function_where_it_lives_now(old):
    job = _queued(old)
    assert job.func_name == old  # as RQ stored it
    assert job.func is flow.upload_job


def test_a_job_under_its_own_path_is_untouched():
    assert _queued("directors.events.flow.upload_job").func is flow.upload_job
    with pytest.raises((ImportError, AttributeError, ValueError)):
        _queued("clubs.nowhere.job").func  # noqa: B018
