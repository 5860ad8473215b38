#!/usr/bin/env bash
# Club page throughput and latency: gunicorn + wrk on loopback.
#
#   DATABASE_URL=postgres://postgres@127.0.0.1:5432/clubpages_g bench/pages.sh
#
# Serves the ladder, the busiest player's page and the last event's page of a large public
# club (bench/sample_clubs.py creates it in DATABASE_URL's database once), the demo club's
# ladder (30 players, manage.py load_demo) and, beside them, a minimal page of the same
# project settings that lists 60 rows from the database (bench/minimal_wsgi.py). The large
# club's pages are measured from the page cache, as visitors without a session get them,
# and again with the cache off (-nc), as directors and the first visitor after a change do.
# Each runs alone under gunicorn (sync workers, one per core unless WORKERS is set), DEBUG
# off as in production; wrk warms up, then measures DURATION seconds at CONNECTIONS
# connections. Targets: ladder >= 70 % of the minimal page's rate, p99 < 100 ms.
set -euo pipefail
cd "$(dirname "$0")/.."

: "${DATABASE_URL:?set DATABASE_URL to a PostgreSQL database the bench may add a club to}"
case "$DATABASE_URL" in postgres://* | postgresql://*) ;; *)
  echo "bench/pages.sh needs PostgreSQL" >&2; exit 1 ;;
esac
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }

WORKERS=${WORKERS:-$(nproc)}
CONNECTIONS=${CONNECTIONS:-8}
DURATION=${DURATION:-20}
PORT=${PORT:-18181}
export DEBUG=false SECRET_KEY=bench-only-not-secret ALLOWED_HOSTS=127.0.0.1 \
  SECURE_SSL_REDIRECT=false LOG_LEVEL=WARNING
unset REDIS_URL

.venv/bin/python manage.py migrate --noinput -v0
.venv/bin/python manage.py collectstatic --noinput -v0
.venv/bin/python manage.py load_demo >/dev/null  # the 30-player demo club, for scale
mapfile -t paths < <(.venv/bin/python bench/sample_clubs.py)

server_pid=""
stop_server() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  server_pid=""
}
trap stop_server EXIT

start_server() {  # app [environment assignments...]
  local app=$1; shift
  env "$@" .venv/bin/gunicorn "$app" --bind "127.0.0.1:$PORT" --workers "$WORKERS" --log-level warning &
  server_pid=$!
  for _ in $(seq 50); do curl -fso /dev/null "http://127.0.0.1:$PORT/" && return; sleep 0.2; done
}

declare -A rps p99
measure() {  # name url
  local url="http://127.0.0.1:$PORT$2" out
  [ "$(curl -so /dev/null -w '%{http_code}' "$url")" = 200 ] || { echo "$2 did not answer 200" >&2; exit 1; }
  wrk -t2 -c"$CONNECTIONS" -d3s "$url" >/dev/null
  out=$(wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency "$url")
  rps[$1]=$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")
  p99[$1]=$(awk '$1 == "99%" {print $2}' <<<"$out")
  printf '%-8s %-36s %10s req/s   p99 %s\n' "$1" "$2" "${rps[$1]}" "${p99[$1]}"
}

echo "machine: nproc=$(nproc), load $(cut -d' ' -f1-3 /proc/loadavg); gunicorn workers=$WORKERS, wrk -t2 -c$CONNECTIONS -d${DURATION}s"
start_server bench.minimal_wsgi:application
measure minimal /
stop_server
start_server config.wsgi:application
measure ladder "${paths[0]}"
measure demo /c/demo/
measure player "${paths[1]}"
measure event "${paths[2]}"
stop_server
# The same pages built on every request, as for a visitor the page cache cannot serve
# (a signed-in director, or the first visitor after a change).
start_server config.wsgi:application PAGE_CACHE_SECONDS=0
measure ladder-nc "${paths[0]}"
measure player-nc "${paths[1]}"
measure event-nc "${paths[2]}"
stop_server
awk -v l="${rps[ladder]}" -v d="${rps[demo]}" -v m="${rps[minimal]}" -v n="${rps[ladder-nc]}" 'BEGIN {
  printf "ladder / minimal: %.0f %% (500-player ladder; target >= 70 %%)\n", 100 * l / m
  printf "demo ladder / minimal: %.0f %% (30-player ladder)\n", 100 * d / m
  printf "ladder built on every request / minimal: %.0f %%\n", 100 * n / m }'
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
