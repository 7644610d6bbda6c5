#!/bin/sh
# Starts the service as `npm start` does (package.json's `start` runs this file; so does the
# bench, bench/lib/server.ts): builds build/ when stale, then replaces this shell with node
# (`exec`: one process, the service's own pid), with memory settings that must be in place
# before the process starts (issue 22; README, Configuration and Memory). Each is a default:
# a value already in the environment wins.
#
# - MALLOC_ARENA_MAX (glibc): at most 2 C allocator arenas instead of 8 per core; memory freed
#   by the service's threads (V8's compiler and GC helpers, libuv's pool, SQLite's checkpoint
#   thread, job threads) is reused instead of kept per thread.
# - NODE_OPTIONS gets --max-semi-space-size=8 first (V8's young generation: two semi-spaces of
#   at most 8 MB instead of 16); a --max-semi-space-size of your own in NODE_OPTIONS comes later
#   and wins.
set -e
cd "$(dirname "$0")/.."
node scripts/build-server.mjs --if-stale
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
export NODE_OPTIONS="--max-semi-space-size=8${NODE_OPTIONS:+ $NODE_OPTIONS}"
exec node build/server.js "$@"
