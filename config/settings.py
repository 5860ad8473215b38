"""The one settings module. Every deployment difference is an environment variable.

Defaults let a fresh checkout run on SQLite with jobs run in-process; docs/operations.md
lists every variable.
"""

from __future__ import annotations

from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from config.env import env_bool, env_float, env_int, env_list, env_networks, env_str, env_url
from config.redis_client import url_with_timeouts

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

DEBUG = env_bool("DEBUG", False)

SECRET_KEY = env_str("SECRET_KEY") or ""  # env_str answers None, never "", when unset
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "insecure-development-key-only-for-debug-mode-" + "x" * 20

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
SITE_URL = env_str("SITE_URL", "http://127.0.0.1:8000")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_rq",
    "csp",
    "clubs",
    "ladder",
    "billing",
    "members",
    "directors",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "config.middleware.CleanInput",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "config.middleware.private_pages",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last: a page whose kept database connection was lost is built again (config/middleware.py).
    "config.middleware.RetryLostConnection",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

# Database: PostgreSQL in production and CI, a SQLite file under var/ otherwise.
DATABASE_URL = env_url("DATABASE_URL", ("postgres", "postgresql", "sqlite"))
if DATABASE_URL:
    # A connection is kept for a minute between requests, and tested (SELECT 1) before the
    # first query of a request that reuses it: after a PostgreSQL restart each web process
    # held a dead connection and answered its next request 500. A test that fails costs a
    # new connection; config.middleware.RetryLostConnection covers a loss the test misses.
    DATABASES = {
        "default": dj_database_url.parse(DATABASE_URL, conn_max_age=60, conn_health_checks=True)
    }
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool(
        "DATABASE_PREPARED_STATEMENTS", True
    ):
        # Parameters travel apart from the SQL, so psycopg prepares a statement a connection
        # has run five times: PostgreSQL then plans a page's queries once per connection
        # instead of on every request (planning was half of a player page's query time).
        # Turn off behind a connection pooler in transaction mode.
        DATABASES["default"].setdefault("OPTIONS", {}).update(
            server_side_binding=True, prepare_threshold=5
        )
else:
    VAR_DIR.mkdir(exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(VAR_DIR / "db.sqlite3"),
            "OPTIONS": {"timeout": 20},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Club pages as visitors without a session see them, kept whole in each process's memory
# (members/web/page_cache.py) and, with REDIS_URL, in Redis too, so every process and host
# finds a page one of them built. Keys carry every version a change bumps, so no process has
# to tell another to forget a page. The Redis client is made there, from REDIS_URL and the
# REDIS_* timeouts, with this TIMEOUT: pages never wait on a Redis that is down or hung.
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "pages": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "club-pages",
        "TIMEOUT": env_int("PAGE_CACHE_SECONDS", 600, minimum=0),
        "OPTIONS": {"MAX_ENTRIES": env_int("PAGE_CACHE_ENTRIES", 2000, minimum=1)},
    },
}
# Pages are kept gzip-compressed (about a tenth of their size); larger ones are built afresh.
PAGE_CACHE_MAX_BYTES = env_int("PAGE_CACHE_MAX_BYTES", 4 * 1024 * 1024, minimum=0)

# Jobs: with REDIS_URL a real RQ queue, without it jobs run in-process right after commit.
REDIS_URL = env_url("REDIS_URL", ("redis", "rediss", "unix"))
# Every Redis client connects and reads within these (config/redis_client.py): pages never
# wait on Redis, so a hung one costs a request at most one timeout, and after a failure each
# process leaves it alone for REDIS_RETRY_AFTER_SECONDS (the sweep re-queues what was missed).
REDIS_CONNECT_TIMEOUT_SECONDS = env_float("REDIS_CONNECT_TIMEOUT_SECONDS", 0.25, minimum=0.01)
REDIS_READ_TIMEOUT_SECONDS = env_float("REDIS_READ_TIMEOUT_SECONDS", 0.5, minimum=0.01)
REDIS_RETRY_AFTER_SECONDS = env_float("REDIS_RETRY_AFTER_SECONDS", 5.0, minimum=0)
_RQ_URL = url_with_timeouts(
    # The worker lengthens its own read timeout for its blocking wait on the queue.
    REDIS_URL or "redis://127.0.0.1:6379/0",
    REDIS_CONNECT_TIMEOUT_SECONDS,
    REDIS_READ_TIMEOUT_SECONDS,
)
# The replays ("default", ladder.jobs.REPLAY_QUEUE) and the large files being read
# ("uploads", UPLOAD_QUEUE) on queues of their own, so a file never holds up a replay
# (docs/operations.md, "Workers": which worker serves which).
RQ_QUEUES = {
    "default": {"URL": _RQ_URL, "DEFAULT_TIMEOUT": 900},
    "uploads": {"URL": _RQ_URL, "DEFAULT_TIMEOUT": 900},
}
# The worker's work horse dies with it, and a job queued before its function moved still runs
# (config/rq_worker.py).
RQ = {
    "WORKER_CLASS": "config.rq_worker.HorseDiesWithWorker",
    "JOB_CLASS": "config.rq_worker.JobOfMovedFunction",
}
# A ladder out of date for longer than this is replayed again by the sweep.
LADDER_SWEEP_AFTER_SECONDS = env_int("LADDER_SWEEP_AFTER_SECONDS", 60, minimum=1)

AUTH_USER_MODEL = "clubs.User"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
# The old dotted path on purpose: every signed-in session stores it, and Django drops a
# session whose backend is no longer listed. The code is clubs/accounts/auth.py.
AUTHENTICATION_BACKENDS = ["clubs.auth.ThrottledModelBackend"]
# Argon2 first: hashes made with the others are upgraded at the next sign-in.
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
]
# Abuse limits (clubs/accounts/throttle.py). Wrong passwords count per account and browser (a
# browser that signed in before) or network address, so nobody can lock a director out of
# their own browser; per account from browsers it never signed in from the limit is higher.
LOGIN_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5, minimum=1)
LOGIN_LOCKOUT_SECONDS = env_int("LOGIN_LOCKOUT_SECONDS", 900, minimum=1)
LOGIN_ACCOUNT_FAILURE_LIMIT = env_int("LOGIN_ACCOUNT_FAILURE_LIMIT", 50, minimum=1)
# Sign-in, sign-up, password-reset and club-creation requests per network address and window,
# each counted apart; and mails (reset, sign-up) to one e-mail address per window.
ADDRESS_RATE_LIMIT = env_int("ADDRESS_RATE_LIMIT", 20, minimum=1)
ADDRESS_RATE_WINDOW_SECONDS = env_int("ADDRESS_RATE_WINDOW_SECONDS", 900, minimum=1)
ACCOUNT_MAIL_LIMIT = env_int("ACCOUNT_MAIL_LIMIT", 3, minimum=1)
# Requests per API token and minute (read and publish alike), then 429 until the minute ends.
API_TOKEN_RATE_LIMIT = env_int("API_TOKEN_RATE_LIMIT", 120, minimum=1)
# Requests to the board codes' page (/b/<code>/, results reported at the board) per network
# address and per code in each window, then 429 until the window ends. A whole club behind
# one venue's Wi-Fi shares an address; the guessing bound is tests/directors/night/
# test_board_codes.py's.
BOARD_REPORT_ADDRESS_LIMIT = env_int("BOARD_REPORT_ADDRESS_LIMIT", 300, minimum=1)
BOARD_REPORT_CODE_LIMIT = env_int("BOARD_REPORT_CODE_LIMIT", 40, minimum=1)
BOARD_REPORT_WINDOW_SECONDS = env_int("BOARD_REPORT_WINDOW_SECONDS", 600, minimum=1)
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("nl", _("Dutch")), ("de", _("German")), ("hi", _("Hindi"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
# One written-month date format per language (config/formats/<language>/formats.py).
FORMAT_MODULE_PATH = ["config.formats"]
TIME_ZONE = env_str("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# collectstatic writes here; web processes serve it (WhiteNoise). A volume shared across a
# rolling deploy keeps the previous version's hashed files next to the new ones.
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(VAR_DIR / "static")))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# The most one event may hold, so that no upload can make a page (names, grid, preview, the
# public event page) or a replay run for minutes. The largest real opens have about 1,000
# entrants and 11 rounds (about 6,000 games and byes); the defaults leave twice the field and
# almost three times the rounds. Games count games and byes: 2,000 entrants over 30 rounds
# make at most 30,000 boards, and 2,000 more leave room for byes.
EVENT_MAX_ENTRANTS = env_int("EVENT_MAX_ENTRANTS", 2000, minimum=2)
EVENT_MAX_ROUNDS = env_int("EVENT_MAX_ROUNDS", 30, minimum=1)
EVENT_MAX_GAMES = env_int("EVENT_MAX_GAMES", 32000, minimum=1)
# A results file is read by one request or job at a time per account and per club
# (directors/events/flow.py); one left in progress longer than this (a crashed worker) no longer
# counts, and a finished one nobody came back for is deleted.
UPLOAD_STALE_SECONDS = env_int("UPLOAD_STALE_SECONDS", 600, minimum=60)

# Uploads are parsed in memory and never written to disk. A results file may be 4 MiB
# (directors.events.results.MAX_UPLOAD_BYTES): a TRF of the largest allowed event is under 1 MiB,
# its
# CSV about 2.4 MiB even with 33-character names. The handler keeps a little more than that
# in memory so that the form, not the handler, answers a file just over the limit.
FILE_UPLOAD_HANDLERS = ["django.core.files.uploadhandler.MemoryFileUploadHandler"]
FILE_UPLOAD_MAX_MEMORY_SIZE = 4 * 1024 * 1024 + 64 * 1024
# Form fields (not files) of one request: a pasted CSV of up to 2 MiB characters, URL-encoded.
DATA_UPLOAD_MAX_MEMORY_SIZE = 3 * 1024 * 1024
# One results file per request: anything more is not one of our forms.
DATA_UPLOAD_MAX_NUMBER_FILES = 2
# The largest forms: the names screen (three fields an entrant) and one round of the results
# grid (four fields a row; a round has at most one row an entrant, and up to 200 blank rows).
# Bounded by the event limits, so a request still cannot send millions of fields.
DATA_UPLOAD_MAX_NUMBER_FIELDS = 4 * (EVENT_MAX_ENTRANTS + 200) + 100

# E-mail: the console locally; SMTP when EMAIL_HOST is set.
EMAIL_HOST = env_str("EMAIL_HOST")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = env_int("EMAIL_PORT", 587, minimum=1)
    EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Club pages <noreply@localhost>")

# Billing: off (every club active) unless a Stripe secret key is configured.
STRIPE_SECRET_KEY = env_str("STRIPE_SECRET_KEY")
STRIPE_PUBLISHABLE_KEY = env_str("STRIPE_PUBLISHABLE_KEY")
STRIPE_WEBHOOK_SECRET = env_str("STRIPE_WEBHOOK_SECRET")
STRIPE_PRICE_MONTHLY = env_str("STRIPE_PRICE_MONTHLY")
STRIPE_PRICE_YEARLY = env_str("STRIPE_PRICE_YEARLY")
BILLING_ENABLED = STRIPE_SECRET_KEY is not None
if BILLING_ENABLED and not (STRIPE_WEBHOOK_SECRET and STRIPE_PRICE_MONTHLY and STRIPE_PRICE_YEARLY):
    raise ImproperlyConfigured(
        "With STRIPE_SECRET_KEY set, STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_MONTHLY and "
        "STRIPE_PRICE_YEARLY must be set too"
    )

# Security: safe by default, relaxed only in DEBUG.
SESSION_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SECURE = not DEBUG
LANGUAGE_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
# Probes ask over plain HTTP from inside the container or the proxy's network.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^livez$", r"^readyz$"]
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", not DEBUG)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# No inline scripts anywhere; forms may end in a redirect to Stripe's pages.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "frame-ancestors": [NONE],
        "form-action": [SELF, "https://checkout.stripe.com", "https://billing.stripe.com"],
    }
}
BEHIND_TLS_PROXY = env_bool("BEHIND_TLS_PROXY", False)
if BEHIND_TLS_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Behind the proxy, a client's address is the right-most X-Forwarded-For entry not in these
# (further proxies of our own, e.g. a CDN's ranges); without BEHIND_TLS_PROXY, REMOTE_ADDR.
TRUSTED_PROXIES = env_networks("TRUSTED_PROXIES", [])

# Staff use the Django admin under a path of its own, away from /admin/.
ADMIN_PATH = env_str("ADMIN_PATH", "staff-admin/")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}
