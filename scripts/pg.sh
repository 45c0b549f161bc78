#!/usr/bin/env bash
# Makes the local PostgreSQL 15 ready for aivet's tests and prints the settings
# the tests read. Starts the cluster when it is down and creates two roles:
#   aivet_owner  owns the test databases and runs migrations (CREATEDB)
#   aivet_app    what the application connects as: not owner, not superuser,
#                no BYPASSRLS, so row-level security applies to it
# Each test creates its own database and drops it; `scripts/pg.sh clean`
# drops any left behind by a killed run.
#
#   eval "$(scripts/pg.sh env)"   start, create roles, export the test settings
#   scripts/pg.sh clean           drop leftover test databases
set -euo pipefail

PG_PASSWORD=${AIVET_TEST_PG_PASSWORD:-aivet-test-only}

as_postgres() {
  if [ "$(id -un)" = postgres ]; then "$@"; elif [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$(printf '%q ' "$@")"; else sudo -u postgres "$@"; fi
}
psql_admin() { as_postgres psql -v ON_ERROR_STOP=1 -qAt -d postgres "$@"; }

start() {
  if ! command -v pg_lsclusters >/dev/null; then
    echo "PostgreSQL is not installed (expected version 15 with pg_lsclusters)" >&2
    return 1
  fi
  local line
  line=$(pg_lsclusters --no-header | awk '$1 == "15" && $2 == "main"' | head -n 1)
  if [ -z "$line" ]; then
    echo "no PostgreSQL 15 'main' cluster found (pg_lsclusters)" >&2
    return 1
  fi
  if ! echo "$line" | grep -q online; then
    echo "[pg] starting PostgreSQL 15" >&2
    pg_ctlcluster 15 main start
  fi
  for _ in $(seq 1 50); do
    psql_admin -c 'SELECT 1' >/dev/null 2>&1 && break
    sleep 0.2
  done
  psql_admin <<SQL >/dev/null
DO \$\$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'aivet_owner') THEN
    CREATE ROLE aivet_owner LOGIN CREATEDB PASSWORD '$PG_PASSWORD';
  END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'aivet_app') THEN
    CREATE ROLE aivet_app LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE PASSWORD '$PG_PASSWORD';
  END IF;
END \$\$;
SQL
}

clean() {
  psql_admin -c "SELECT datname FROM pg_database WHERE datname LIKE 'aivet\_t\_%'" | while read -r db; do
    [ -n "$db" ] && psql_admin -c "DROP DATABASE IF EXISTS \"$db\" WITH (FORCE)" >/dev/null
  done
}

case "${1:-env}" in
  env)
    # Only the export lines go to stdout (they are eval'd): whatever the start
    # prints, e.g. pg_ctlcluster's "Removed stale pid file", goes to stderr.
    start >&2
    echo "export AIVET_TEST_PG_ADMIN_URL=postgres://aivet_owner:$PG_PASSWORD@127.0.0.1:5432/postgres"
    echo "export AIVET_TEST_PG_APP_URL=postgres://aivet_app:$PG_PASSWORD@127.0.0.1:5432"
    ;;
  clean) clean ;;
  *) echo "usage: scripts/pg.sh [env|clean]" >&2; exit 2 ;;
esac
