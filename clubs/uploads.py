"""The upload job's old dotted path, kept on purpose (issue 25 moved the code to
clubs/events/uploads.py): RQ stores a queued job's function as "clubs.uploads.upload_job",
so a file queued before a deploy is read by the new worker only if that path still imports.
"""

from clubs.events.uploads import upload_job as upload_job
