# Web and worker from one image:
#   web:    the default command (gunicorn)
#   worker: python manage.py rqworker default            (replays; at least one)
#   upload-worker: nice -n 10 python manage.py rqworker uploads default   (large files)
#   cron:   python manage.py rqcron config.cron
#   once per deploy, before the others: python manage.py migrate --noinput
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /app

RUN useradd --create-home --uid 10001 app

COPY requirements.lock ./
RUN pip install -r requirements.lock

COPY . .
# collectstatic needs settings but no secrets or database. Web refuses to start without its
# manifest. compose.yaml mounts a shared volume over var/static and runs collectstatic again in
# its migrate service, adding this version's hashed files beside the last one's.
RUN DEBUG=false SECRET_KEY=build-only-not-secret python manage.py collectstatic --noinput \
    && chown -R app:app /app

USER app
EXPOSE 8000
# Liveness only (/livez): a process that serves pages while Redis or the
# database is away must not be restarted for it. /healthz is for monitors.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["python", "-m", "config.probe"]
CMD ["gunicorn", "config.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "3", "--access-logfile", "-"]
