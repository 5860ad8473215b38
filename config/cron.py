"""RQ cron configuration: `python manage.py rqcron config.cron` (see `make cron`).

The sweep is what repairs a lost job, a dead worker or a Redis outage, so it
runs every minute whatever else happens.
"""

from rq import cron

from directors.events.flow import forget_stale
from ladder.jobs import REPLAY_QUEUE, sweep_job

cron.register(sweep_job, queue_name=REPLAY_QUEUE, interval=60, name="sweep_ladders")
# Uploads left by a crash, or read and never looked at, hold a file's names: not for long.
cron.register(forget_stale, queue_name=REPLAY_QUEUE, interval=300, name="forget_stale_uploads")
