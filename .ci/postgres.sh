#!/usr/bin/env bash
# Make sure this clone's own PostgreSQL cluster runs on loopback with a test role and database,
# installing Debian's postgresql when missing. Prints the SQLAlchemy URL on stdout (all else on
# stderr). Idempotent: a second run only checks that the server is up.
#
# Each clone gets a cluster of its own (Debian's pg_createcluster, on the next free port), named
# after the clone's path, so two clones running `make test` at once never share a database, and
# the suite never stops or restarts a server it did not start for itself (the "main" cluster, or
# another clone's, is never touched). ADJUDICATOR_PG_CLUSTER names another cluster (the CI-script
# test starts a throwaway one). Clusters of clones that no longer exist are dropped here, and so is
# what a drop or create cut short left behind. `bash .ci/postgres.sh --drop` drops this clone's.
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
# Which clone each cluster belongs to: one file per cluster, named after it, holding the clone's
# path. It lives outside the cluster's configuration folder: pg_dropcluster deletes only the files it
# knows, so a marker in that folder kept the folder alive after a drop, and the next run took the
# empty folder for a cluster and never created one (CI found no server that way).
markers=/var/lib/postgresql/adjudicator-clones
legacy_marker=adjudicator-clone  # the marker's old place, inside the configuration folder

if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  echo "installing Debian's postgresql for the storage tests"
  detached apt-get update -qq
  DEBIAN_FRONTEND=noninteractive detached apt-get install -y -qq postgresql >/dev/null
fi
version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
conf_root=/etc/postgresql/$version

port_of() { pg_lsclusters -h | awk -v v="$version" -v n="$1" '$1==v && $2==n {print $3}'; }

# Drop one of our clusters with everything it left: the cluster, a configuration or data folder
# that outlived a half-finished drop or create, and its marker. Only names starting adj_ are ours.
drop() {
  case "$1" in adj_*) ;; *) echo "refusing to drop $1: not one of ours"; return 1 ;; esac
  if [ -n "$(port_of "$1")" ]; then detached pg_dropcluster --stop "$version" "$1" || true; fi
  rm -rf "${conf_root:?}/$1" "/var/lib/postgresql/$version/$1" "$markers/$1"
}

exec 4>/tmp/adjudicator-postgres.lock
flock 4  # one clone at a time creates or drops clusters: two creating at once could pick one port

if [ "${1:-}" = --drop ]; then
  drop "$name"
  exit 0
fi

mkdir -p "$markers"
for conf in "$conf_root"/adj_*; do  # the old layout: move the marker out
  [ -f "$conf/$legacy_marker" ] || continue
  cluster=${conf##*/}
  [ -f "$markers/$cluster" ] || cp "$conf/$legacy_marker" "$markers/$cluster"
  rm -f "$conf/$legacy_marker"
done
for marker in "$markers"/adj_*; do  # clusters of clones that no longer exist
  [ -f "$marker" ] || continue
  owner=$(cat "$marker")
  if [ ! -d "$owner" ]; then
    echo "dropping PostgreSQL cluster ${marker##*/}: its clone $owner is gone"
    drop "${marker##*/}"
  fi
done
for conf in "$conf_root"/adj_*; do  # folders that are no cluster (a drop or create cut short)
  if [ -d "$conf" ] && [ -z "$(port_of "${conf##*/}")" ]; then drop "${conf##*/}"; fi
done

create() {
  detached pg_createcluster "$version" "$name" >/dev/null
  echo "$clone" >"$markers/$name"
}
[ -n "$(port_of "$name")" ] || create

# Start the cluster and wait until it answers. A cluster that will not start (its data folder
# damaged, say) is made again once: it holds nothing but test data.
started() {
  local port=$1
  detached pg_ctlcluster "$version" "$name" start || true
  for _ in $(seq 1 60); do
    pg_isready -q -h 127.0.0.1 -p "$port" && return 0
    sleep 1
  done
  return 1
}
port=$(port_of "$name")
if ! started "$port"; then
  echo "PostgreSQL cluster $version/$name did not start on port $port; its log ends:"
  tail -n 20 "/var/log/postgresql/postgresql-$version-$name.log" || true
  echo "making the cluster again"
  drop "$name"
  create
  port=$(port_of "$name")
  if ! started "$port"; then
    echo "PostgreSQL cluster $version/$name did not start on port $port again; its log ends:"
    tail -n 20 "/var/log/postgresql/postgresql-$version-$name.log" || true
    exit 1
  fi
fi
flock -u 4
exec 4>&-

as_postgres() { su postgres -c "psql -p $port -v ON_ERROR_STOP=1 -tAc \"$1\""; }
[ "$(as_postgres "SELECT 1 FROM pg_roles WHERE rolname='adjudicator'")" = 1 ] ||
  as_postgres "CREATE ROLE adjudicator LOGIN PASSWORD 'adjudicator'" >/dev/null
[ "$(as_postgres "SELECT 1 FROM pg_database WHERE datname='adjudicator_test'")" = 1 ] ||
  su postgres -c "createdb -p $port -O adjudicator adjudicator_test"

echo "postgresql+psycopg://adjudicator:adjudicator@127.0.0.1:$port/adjudicator_test" >&3
