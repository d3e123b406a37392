#!/bin/sh
# Every service of the image runs its command through this (Dockerfile, ENTRYPOINT).
# uvicorn takes its worker processes from WEB_CONCURRENCY and fails on an empty one:
# unset or empty, the web runs one ASGI process per core this container may use.
if [ -z "${WEB_CONCURRENCY:-}" ]; then
  WEB_CONCURRENCY=$(nproc)
  export WEB_CONCURRENCY
fi
exec "$@"
