#!/bin/sh
# The local stand-in for postgres:15's entrypoint (deploy/local-base/build): the same contract
# for compose.yaml. An empty PGDATA gets a cluster with POSTGRES_USER (password
# POSTGRES_PASSWORD) and POSTGRES_DB; connections over the network need that password, local
# ones (pg_isready, pg_dump in the container) are trusted; then postgres runs as "postgres".
set -eu
PGDATA=${PGDATA:-/var/lib/postgresql/data}
if [ "${1:-}" = postgres ] && [ "$(id -u)" = 0 ]; then
    mkdir -p "$PGDATA" /run/postgresql
    chown postgres:postgres "$PGDATA" /run/postgresql
    chmod 700 "$PGDATA"
    exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi
if [ "${1:-}" = postgres ] && [ ! -s "$PGDATA/PG_VERSION" ]; then
    : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD must be set}"
    user=${POSTGRES_USER:-postgres}
    database=${POSTGRES_DB:-$user}
    pwfile=$(mktemp)
    printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
    initdb --username="$user" --pwfile="$pwfile" --auth-local=trust \
        --auth-host=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8 -D "$PGDATA" >/dev/null
    rm -f "$pwfile"
    echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
    echo "listen_addresses = '*'" >> "$PGDATA/postgresql.conf"
    echo "jit = off" >> "$PGDATA/postgresql.conf"  # this image has no JIT compiler
    if [ "$database" != postgres ]; then
        echo "CREATE DATABASE \"$database\" OWNER \"$user\"" \
            | postgres --single -D "$PGDATA" postgres >/dev/null
    fi
    echo "postgres-entrypoint: made a new cluster in $PGDATA"
fi
exec "$@"
