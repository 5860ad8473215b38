#!/usr/bin/env bash
# What a 304 Not Modified costs beside the whole page: gunicorn + wrk on loopback.
#
#   DATABASE_URL=postgres://postgres@127.0.0.1:5432/clubpages_g bench/not_modified.sh
#
# The large public club of bench/sample_clubs.py (created once in DATABASE_URL's database):
# its ladder and busiest player's page as a browser taking gzip gets them from the page
# cache, then the same requests with the page's ETag in If-None-Match, as a CDN
# revalidating its copy sends them. DEBUG off, sync workers, one per core unless WORKERS.
set -euo pipefail
cd "$(dirname "$0")/.."

: "${DATABASE_URL:?set DATABASE_URL to a PostgreSQL database the bench may add a club to}"
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }

WORKERS=${WORKERS:-$(nproc)}
CONNECTIONS=${CONNECTIONS:-8}
DURATION=${DURATION:-10}
PORT=${PORT:-18182}
export DEBUG=false SECRET_KEY=bench-only-not-secret ALLOWED_HOSTS=127.0.0.1 \
  SECURE_SSL_REDIRECT=false LOG_LEVEL=WARNING
unset REDIS_URL

.venv/bin/python manage.py migrate --noinput -v0
.venv/bin/python manage.py collectstatic --noinput -v0
mapfile -t paths < <(DEBUG=true .venv/bin/python bench/sample_clubs.py)

.venv/bin/gunicorn config.wsgi:application --bind "127.0.0.1:$PORT" --workers "$WORKERS" \
  --log-level warning &
server_pid=$!
trap 'kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true' EXIT
for _ in $(seq 50); do curl -fso /dev/null "http://127.0.0.1:$PORT/" && break; sleep 0.2; done

measure() {  # name url status [header]
  local url="http://127.0.0.1:$PORT$2" args=(-H "Accept-Encoding: gzip") out
  [ -n "${4:-}" ] && args+=(-H "$4")
  [ "$(curl -so /dev/null -w '%{http_code}' "${args[@]}" "$url")" = "$3" ] ||
    { echo "$2 did not answer $3" >&2; exit 1; }
  wrk -t2 -c"$CONNECTIONS" -d3s "${args[@]}" "$url" >/dev/null
  out=$(wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency "${args[@]}" "$url")
  printf '%-12s %10s req/s   p50 %-9s p99 %-9s %s/s\n' "$1" \
    "$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")" "$(awk '$1 == "50%" {print $2}' <<<"$out")" \
    "$(awk '$1 == "99%" {print $2}' <<<"$out")" "$(awk '/^Transfer\/sec:/ {print $2}' <<<"$out")"
}
etag() { curl -sD - -o /dev/null -H "Accept-Encoding: gzip" "http://127.0.0.1:$PORT$1" |
  awk 'tolower($1) == "etag:" {sub(/\r$/, ""); print $2}'; }

echo "machine: nproc=$(nproc), load $(cut -d' ' -f1-3 /proc/loadavg); workers=$WORKERS, wrk -t2 -c$CONNECTIONS -d${DURATION}s"
for i in 0 1; do
  name=$([ "$i" = 0 ] && echo ladder || echo player)
  measure "$name" "${paths[$i]}" 200
  measure "$name-304" "${paths[$i]}" 304 "If-None-Match: $(etag "${paths[$i]}")"
done
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
