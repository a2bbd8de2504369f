#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The whole test suite: what the README's test command and CI run.
#   provisioning, before any stage (one step, the only one that installs anything): under CI=true,
#      scripts/provision.sh installs the system packages it lists (apt-get); elsewhere it installs only what the
#      build needs (libcurl's headers) and says what else is missing, and the stages that need a missing tool are
#      skipped with the reason (under CI=true a missing tool fails the run). Then every Python virtual environment
#      under .build/venv is made (pip; scripts/python-env.sh, pins in scripts/requirements/): nothing else on the
#      machine changes, and no stage below installs anything.
#   1. validate (scripts/validate.sh): .editorconfig habits, SPDX headers, swift-format rules, clang-format
#   2. debug build of every target and test
#   3. the concurrency tests under ThreadSanitizer (only those: a TSan build is slow)
#   4. the C request parser's tests under AddressSanitizer + UBSan, and a fixed-seed fuzz replay
#   5. a smoke run of the benchmark scripts, core, HTTP and cluster (every code path, seconds per measurement,
#      debug builds, no thresholds: they prove the scripts and their peers still work, not how fast anything is)
#   6. the release build converting the deepest nesting allowed within a 4 MiB stack (scripts/stack-check.sh), and
#      the same portable (--static-swift-stdlib) binary running with the toolchain's runtime hidden
#      (scripts/static-check.sh)
#   7. outside tools against the debug server, bounded and seeded: schemathesis over docs/openapi.yaml, the JSON
#      Schema differential (hypothesis-jsonschema + jsonschema against strict /validate), REDbot
#   8. what ships beside the binary (scripts/check-deploy.sh): hadolint on the Dockerfile; the Kubernetes manifests
#      rendered and validated against a named Kubernetes version's API schemas (its Python tools in a virtualenv
#      .build/venv/ship, pins in scripts/requirements/ship.txt). The image itself is proven by scripts/verify-image.sh,
#      which needs a container engine and runs outside this suite (docs/operations.md).
#   9. every test (Swift Testing; CLI tests run the real binary; docs/api.md's examples are re-run and compared;
#      the cluster tests run a real etcd, as a step of their own after the rest)
#      — last, so its summary closes the log
# Each stage prints how long it took.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/stage.sh
source scripts/stage.sh  # (the working directory is the repository)

provision() {
  if [ "${CI:-}" = true ]; then bash scripts/provision.sh; return; fi
  # The build itself needs libcurl's headers (Sources/CCurl): installed here when missing (as root; it says so),
  # else the run stops with what to install. Every other tool only gates its own stage.
  bash scripts/provision.sh --install libcurl-dev
  bash scripts/provision.sh --check
}

# Every virtual environment of scripts/requirements/, made now so that no stage installs anything (an environment
# that cannot be made is reported here; the stages that need it skip themselves, or fail under CI=true).
python_envs() {
  local requirements name
  for requirements in scripts/requirements/*.txt; do
    name=$(basename "$requirements" .txt)
    python_env "$name" || echo "(.build/venv/$name could not be made)"
  done
}

# The Swift tests call `python3` (openapi-spec-validator, jsonschema): the environment .build/venv/tests when it
# can be had; otherwise those tests skip themselves with a note.
# The cluster tests (a real etcd and several replicas, docs/cluster.md) run on their own after the others: run at
# the same time, their load can starve the tests that bound a wait at a second or so.
swift_tests() {
  if needs venv:tests; then
    PATH=$PYTHON_ENV/bin:$PATH swift test --skip-build --skip '^TransformServerTests\.Cluster'
  else
    echo "(.build/venv/tests could not be made: the openapi-spec-validator and jsonschema checks will skip)"
    swift test --skip-build --skip '^TransformServerTests\.Cluster'
  fi
  swift test --skip-build --filter '^TransformServerTests\.Cluster'
}

stage "provision: system packages (scripts/provision.sh)" provision
stage "provision: Python environments (.build/venv)" python_envs
stage "validate (scripts/validate.sh)" bash scripts/validate.sh
stage "build" swift build --build-tests
stage "thread sanitizer" swift test --sanitize=thread --scratch-path .build-tsan --filter 'RegistryConcurrencyTests|BatchWorkerTests'
stage "sanitizers (parser)" bash scripts/test-sanitized.sh
stage_needing "valgrind venv:bench" "benchmark smoke (core)" bash scripts/bench-core.sh --smoke --out .build/bench-smoke/core
stage_needing "wrk nginx curl gcc taskset venv:bench" "benchmark smoke (http)" \
  bash scripts/bench-http.sh --smoke --out .build/bench-smoke/http
stage_needing "etcd python3" "benchmark smoke (cluster)" \
  bash scripts/bench-cluster.sh --smoke --out .build/bench-smoke/cluster
stage "release stack" bash scripts/stack-check.sh
stage_needing "unshare" "static binary" bash scripts/static-check.sh
stage_needing "venv:schemathesis" "schemathesis (docs/openapi.yaml)" bash scripts/check-schemathesis.sh
stage_needing "venv:jsonschema-differential" "JSON Schema differential" bash scripts/check-jsonschema-differential.sh
stage_needing "venv:redbot" "REDbot" bash scripts/check-redbot.sh
stage_needing "venv:ship" "shipping (hadolint, Kubernetes manifests)" bash scripts/check-deploy.sh
stage "test" swift_tests
