#!/bin/sh
# Every service of the image runs its command through this (Dockerfile, ENTRYPOINT).
# uvicorn takes its worker processes from WEB_CONCURRENCY and fails on an empty one:
# unset or empty, the web runs one ASGI process per core this container may use, at
# most three: each process may hold its pool (DATABASE_POOL_SIZE, 20) plus the move
# path's 8 connections, and three stay under PostgreSQL's max_connections (100) with
# the workers' (README, admin section). Set it to run more, with a bigger max_connections
# or PgBouncer in front.
if [ -z "${WEB_CONCURRENCY:-}" ]; then
  WEB_CONCURRENCY=$(nproc)
  [ "$WEB_CONCURRENCY" -le 3 ] || WEB_CONCURRENCY=3
  export WEB_CONCURRENCY
fi
exec "$@"
