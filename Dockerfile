# Web and worker from one image:
#   web:    the default command (gunicorn)
#   worker: python manage.py rqworker default --with-scheduler
#   cron:   python manage.py rqcron ladder.cron
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /app

RUN useradd --create-home --uid 10001 app

COPY requirements.lock ./
RUN pip install -r requirements.lock

COPY . .
# collectstatic needs settings but no secrets or database.
RUN DEBUG=false SECRET_KEY=build-only-not-secret python manage.py collectstatic --noinput \
    && chown -R app:app /app

USER app
EXPOSE 8000
# Ask as the first allowed host: Django answers 400 to a Host it does not serve.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD python -c "import os,sys,urllib.request as u; h=os.environ.get('ALLOWED_HOSTS','localhost').split(',')[0].strip().lstrip('.'); r=u.urlopen(u.Request('http://127.0.0.1:8000/healthz', headers={'Host': h}), timeout=4); sys.exit(0 if r.status == 200 else 1)"
CMD ["gunicorn", "config.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "3", "--access-logfile", "-"]
