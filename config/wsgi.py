import logging
import os

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()

# Without collectstatic's manifest every page would be a 500 behind a live process: refuse
# to start instead (gunicorn then exits non-zero). DEBUG serves files by name, needing none.
if not settings.DEBUG:
    from config.health import static_status

    if (problem := static_status()) != "ok":
        message = (
            f"Refusing to start: static files {problem} in STATIC_ROOT {settings.STATIC_ROOT}; "
            "run `python manage.py collectstatic --noinput` first"
        )
        logging.getLogger("config.wsgi").critical(message)
        raise ImproperlyConfigured(message)
