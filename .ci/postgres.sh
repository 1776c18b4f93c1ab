#!/usr/bin/env bash
# Make sure a PostgreSQL server runs on loopback with a test role and database, installing
# Debian's postgresql when missing. Prints the SQLAlchemy URL on stdout (all else on stderr).
# Idempotent: a second run only checks that the server is up.
#
# The caller reads our stdout through a pipe (`$(bash .ci/postgres.sh)`) and waits for it to close.
# A server we start must therefore inherit no descriptor but /dev/null: a daemon holding that pipe
# (or any other pipe of the caller's, such as CI's log) keeps the caller waiting for ever.
set -euo pipefail
exec 3>&1 1>&2

# Run "$@" with stdin from /dev/null and every descriptor above stderr closed.
detached() {
  (
    for fd in /proc/$BASHPID/fd/*; do
      fd=${fd##*/}
      if [ "$fd" -gt 2 ]; then eval "exec $fd>&-"; fi
    done
    exec "$@"
  ) </dev/null
}

if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  echo "installing Debian's postgresql for the storage tests"
  detached apt-get update -qq
  DEBIAN_FRONTEND=noninteractive detached apt-get install -y -qq postgresql >/dev/null
fi
version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
if ! pg_lsclusters -h | awk '{print $1" "$2}' | grep -qx "$version main"; then
  detached pg_createcluster "$version" main >/dev/null
fi
port=$(pg_lsclusters -h | awk -v v="$version" '$1==v && $2=="main" {print $3}')
detached pg_ctlcluster "$version" main start || true
for _ in $(seq 1 30); do
  pg_isready -q -h 127.0.0.1 -p "$port" && break
  sleep 1
done
pg_isready -q -h 127.0.0.1 -p "$port"

as_postgres() { su postgres -c "psql -p $port -v ON_ERROR_STOP=1 -tAc \"$1\""; }
[ "$(as_postgres "SELECT 1 FROM pg_roles WHERE rolname='adjudicator'")" = 1 ] ||
  as_postgres "CREATE ROLE adjudicator LOGIN PASSWORD 'adjudicator'" >/dev/null
[ "$(as_postgres "SELECT 1 FROM pg_database WHERE datname='adjudicator_test'")" = 1 ] ||
  su postgres -c "createdb -p $port -O adjudicator adjudicator_test"

echo "postgresql+psycopg://adjudicator:adjudicator@127.0.0.1:$port/adjudicator_test" >&3
