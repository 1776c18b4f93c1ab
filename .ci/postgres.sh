#!/usr/bin/env bash
# Make sure this clone's own PostgreSQL cluster runs on loopback with a test role and database,
# installing Debian's postgresql when missing. Prints the SQLAlchemy URL on stdout (all else on
# stderr). Idempotent: a second run only checks that the server is up.
#
# Each clone gets a cluster of its own (Debian's pg_createcluster, on the next free port), named
# after the clone's path, so two clones running `make test` at once never share a database, and
# the suite never stops or restarts a server it did not start for itself (the "main" cluster, or
# another clone's, is never touched). ADJUDICATOR_PG_CLUSTER names another cluster (the CI-script
# test starts a throwaway one). Clusters of clones that no longer exist are dropped here.
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

clone=$(cd "$(dirname "$0")/.." && pwd -P)
name=${ADJUDICATOR_PG_CLUSTER:-adj_$(printf '%s' "$clone" | sha1sum | cut -c1-12)}
marker=adjudicator-clone  # a file in the cluster's configuration folder: the clone it belongs to

if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  echo "installing Debian's postgresql for the storage tests"
  detached apt-get update -qq
  DEBIAN_FRONTEND=noninteractive detached apt-get install -y -qq postgresql >/dev/null
fi
version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)

# One clone at a time creates or drops clusters: pg_createcluster picks "the next free port" from
# the clusters configured, and two creating at once could pick the same one.
exec 4>/tmp/adjudicator-postgres.lock
flock 4
for conf in /etc/postgresql/"$version"/adj_*; do
  [ -f "$conf/$marker" ] || continue
  owner=$(cat "$conf/$marker")
  if [ ! -d "$owner" ]; then
    echo "dropping PostgreSQL cluster ${conf##*/}: its clone $owner is gone"
    detached pg_dropcluster --stop "$version" "${conf##*/}" || true
  fi
done
if [ ! -d "/etc/postgresql/$version/$name" ]; then
  detached pg_createcluster "$version" "$name" >/dev/null
  echo "$clone" >"/etc/postgresql/$version/$name/$marker"
fi
flock -u 4
exec 4>&-

port=$(pg_lsclusters -h | awk -v v="$version" -v n="$name" '$1==v && $2==n {print $3}')
detached pg_ctlcluster "$version" "$name" start || true
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
