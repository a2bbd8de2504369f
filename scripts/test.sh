#!/usr/bin/env bash
# The whole test suite: what the README's test command and CI run.
#   1. debug build of every target and test
#   2. the concurrency tests under ThreadSanitizer (only those: a TSan build is slow)
#   3. the C request parser's tests under AddressSanitizer + UBSan, and a fixed-seed fuzz replay
#   4. a smoke run of both benchmark scripts (every code path, seconds per measurement, debug builds, no
#      thresholds: they prove the scripts and their peers still work, not how fast anything is)
#   5. the release build converting the deepest nesting allowed within a 4 MiB stack (scripts/stack-check.sh)
#   6. what ships beside the binary (scripts/check-deploy.sh): hadolint on the Dockerfile; the Kubernetes manifests
#      rendered and validated against a named Kubernetes version's API schemas (its Python tools in a virtualenv
#      inside the build folder, scripts/ship-tools.sh). The image itself is proven by scripts/verify-image.sh,
#      which needs a container engine and runs outside this suite (docs/operations.md).
#   7. every test (Swift Testing; CLI tests run the real binary) — last, so its summary closes the log
# Each stage prints how long it took.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/stage.sh
source scripts/stage.sh  # (the working directory is the repository)

# Tools the tests use that a fresh machine lacks (the tests skip, with a note, where a tool is missing).
tools() {
  if ! command -v promtool >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq prometheus >/dev/null) \
      || echo "promtool could not be installed; the exposition check will be skipped"
  fi
  if command -v python3 >/dev/null 2>&1 && ! python3 -c 'import openapi_spec_validator' >/dev/null 2>&1; then
    python3 -m pip install -q 'openapi-spec-validator==0.9.0' \
      || echo "openapi-spec-validator could not be installed; the OpenAPI check will be skipped"
  fi
}

stage "tools" tools
stage "build" swift build --build-tests
stage "thread sanitizer" swift test --sanitize=thread --scratch-path .build-tsan --filter 'RegistryConcurrencyTests|BatchWorkerTests'
stage "sanitizers (parser)" bash scripts/test-sanitized.sh
stage "benchmark smoke (core)" bash scripts/bench-core.sh --smoke --out .build/bench-smoke/core
stage "benchmark smoke (http)" bash scripts/bench-http.sh --smoke --out .build/bench-smoke/http
stage "release stack" bash scripts/stack-check.sh
# --- issue 22: shipping checks (self-provisioning: scripts/ship-tools.sh makes .build/ship-venv) ---
stage "shipping (hadolint, Kubernetes manifests)" bash scripts/check-deploy.sh
stage "test" swift test --skip-build
