"""RQ cron configuration: `python manage.py rqcron ladder.cron` (see `make cron`).

The sweep is what repairs a lost job, a dead worker or a Redis outage, so it
runs every minute whatever else happens.
"""

from rq import cron

from ladder.jobs import sweep_job

cron.register(sweep_job, queue_name="default", interval=60, name="sweep_ladders")
