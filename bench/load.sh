#!/usr/bin/env bash
# Load test of the production entry (`make serve`: gunicorn, gevent workers) on loopback with wrk.
# Drives three endpoints for a fixed time each and prints requests/s, latency percentiles and
# errors. Targets on a 2-core machine: /api/v1/battle >= 500 req/s, p99 < 50 ms at 32
# connections, 0 errors. Traffic goes to 127.0.0.1 only; every run is bounded in time.
set -euo pipefail
cd "$(dirname "$0")/.."

PORT=${PORT:-5055}
CONNECTIONS=${CONNECTIONS:-32}
DURATION=${DURATION:-15s}
THREADS=${THREADS:-2}
WORKERS=${WORKERS:-$(( $(nproc) * 2 + 1 ))}
BASE="http://127.0.0.1:$PORT"

command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
make --no-print-directory build >/dev/null

# One client sending thousands of requests is what the rate limits stop: measure the engine, not them.
RATELIMIT_ENABLED=0 .venv/bin/gunicorn --workers "$WORKERS" --worker-class "${WORKER_CLASS:-gevent}" --threads "${GTHREADS:-1}" --bind "127.0.0.1:$PORT" --log-level warning 'adjudicator:create_app()' &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
  curl -fsS -o /dev/null "$BASE/" 2>/dev/null && break
  sleep 0.2
done
curl -fsS -o /dev/null "$BASE/" || { echo "server did not start" >&2; exit 1; }

run() {  # name, url, [wrk script]
  local name=$1 url=$2 script=${3:-}
  local args=(-t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency)
  [ -n "$script" ] && args+=(-s "$script")
  local out
  out=$(wrk "${args[@]}" "$url")
  local rps p50 p90 p99 errors
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  p50=$(awk '$1=="50%" {print $2}' <<<"$out")
  p90=$(awk '$1=="90%" {print $2}' <<<"$out")
  p99=$(awk '$1=="99%" {print $2}' <<<"$out")
  errors=$(awk '/Non-2xx|Socket errors/ {print}' <<<"$out" | tr '\n' ' ')
  printf '%-22s %10s req/s   p50 %-9s p90 %-9s p99 %-9s errors: %s\n' \
    "$name" "$rps" "$p50" "$p90" "$p99" "${errors:-none}"
}

echo "gunicorn: $WORKERS workers; wrk: $THREADS threads, $CONNECTIONS connections, $DURATION per endpoint"
run "search (100 questions)" "$BASE/search" bench/search.lua
run "entry page (forest)" "$BASE/rules/terrain/forest"
run "POST /api/v1/battle" "$BASE/api/v1/battle" bench/battle.lua
