"""A file queued before a deploy is still read after it: RQ stores the job's dotted path."""

from django.utils.module_loading import import_string

from clubs.events import uploads


def test_the_upload_jobs_old_dotted_path_still_names_the_job():
    assert import_string("clubs.uploads.upload_job") is uploads.upload_job
