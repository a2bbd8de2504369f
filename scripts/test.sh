#!/usr/bin/env bash
# The whole test suite: what the README's test command and CI run.
#   1. debug build of every target and test
#   2. the concurrency tests under ThreadSanitizer (only those: a TSan build is slow)
#   3. every test (Swift Testing; CLI tests run the real binary) — last, so its summary closes the log
# Each stage prints how long it took.
set -euo pipefail
cd "$(dirname "$0")/.."

stage() {
  local name=$1; shift
  local start=$SECONDS
  echo "==> $name"
  "$@"
  echo "==> $name: $((SECONDS - start)) s"
}

stage "build" swift build --build-tests
stage "thread sanitizer" swift test --sanitize=thread --scratch-path .build-tsan --filter 'RegistryConcurrencyTests'
stage "test" swift test --skip-build
