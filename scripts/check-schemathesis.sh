#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# schemathesis against docs/openapi.yaml: requests generated from the document (examples, coverage, fuzzing, then
# stateful sequences) are sent to a real server on 127.0.0.1 (a fresh copy of config/, writes enabled), and every
# answer is checked: no 5xx, and status code, content type, headers and body as the document declares them.
# (schemathesis's positive/negative data checks are left out: the document cannot say which model names exist,
# and the server answers some out-of-pattern inputs by design, e.g. an odd X-Request-Id is replaced, not refused.)
# NDJSON bodies go through scripts/schemathesis_hooks.py. Bounded and repeatable: deterministic generation,
# MAX_EXAMPLES examples per operation (default 25) and MAX_TIME seconds at most (default 150).
#   bash scripts/check-schemathesis.sh [BINARY]      (default .build/debug/TransformServer)
# The tool comes from .build/venv/schemathesis (scripts/requirements/schemathesis.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/python-env.sh
source scripts/python-env.sh
# shellcheck source=scripts/test-server.sh
source scripts/test-server.sh

binary=${1:-.build/debug/TransformServer}
python_env schemathesis
start_test_server "$binary"

checks=not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance
checks+=,response_schema_conformance
# Run from the scratch folder: schemathesis keeps a cache (.schemathesis/) in its working directory.
cd "$TEST_SERVER_SCRATCH"
SCHEMATHESIS_HOOKS=schemathesis_hooks PYTHONPATH=$OLDPWD/scripts PYTHONDONTWRITEBYTECODE=1 \
  "$PYTHON_ENV/bin/schemathesis" run "$OLDPWD/docs/openapi.yaml" --url "http://127.0.0.1:$TEST_SERVER_PORT" \
  --checks "$checks" --generation-deterministic --max-examples "${MAX_EXAMPLES:-25}" --max-time "${MAX_TIME:-150}" \
  --request-timeout 10 --workers 1 --no-color \
  -H "Authorization: Bearer $TEST_SERVER_TOKEN"
