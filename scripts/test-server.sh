# SPDX-License-Identifier: Apache-2.0
#
# Sourced by the outside tools' checks (the working directory is the repository): `start_test_server BINARY` starts
# `BINARY serve` on a fresh copy of config/ with writes enabled, on 127.0.0.1 and a free port, and sets
# TEST_SERVER_PORT, TEST_SERVER_TOKEN and TEST_SERVER_SCRATCH (a scratch folder); the server is stopped and the
# folder removed when the script exits.

start_test_server() {
  local binary=$1
  [ -x "$binary" ] || { echo "no server binary at $binary (swift build first)" >&2; exit 1; }
  TEST_SERVER_SCRATCH=$(mktemp -d)
  TEST_SERVER_TOKEN=check-token
  cp -r config "$TEST_SERVER_SCRATCH/config"
  mkfifo "$TEST_SERVER_SCRATCH/out"
  env $(compgen -e | grep '^TRANSFORM_' | sed 's/^/-u /') TRANSFORM_ADMIN_TOKEN=$TEST_SERVER_TOKEN TRANSFORM_ACCESS_LOG=false \
    "$binary" serve --config "$TEST_SERVER_SCRATCH/config" --host 127.0.0.1 --port 0 \
    >"$TEST_SERVER_SCRATCH/out" 2>"$TEST_SERVER_SCRATCH/server.log" &
  TEST_SERVER_PID=$!
  trap stop_test_server EXIT
  local line
  read -r line <"$TEST_SERVER_SCRATCH/out" || true
  TEST_SERVER_PORT=${line##*:}
  [[ $line == "listening on http://127.0.0.1:"* ]] || { echo "the server did not start: $line" >&2; exit 1; }
}

stop_test_server() {
  kill "$TEST_SERVER_PID" 2>/dev/null && wait "$TEST_SERVER_PID" 2>/dev/null || true
  rm -rf "$TEST_SERVER_SCRATCH"
}
