#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# REDbot (lint for HTTP) over the server's GET routes, against a real server on 127.0.0.1 (a fresh copy of config/):
# REDbot sends each request, then its own conditional, ranged and compressed variants, and notes what it finds.
# Fails on any BAD or WARN note, and when a route lacks the notes its design promises: the registry's reads
# that have an ETag revalidate with it (If-None-Match answered 304), the rest are never stored (no-store).
#   bash scripts/check-redbot.sh [BINARY]      (default .build/debug/TransformServer)
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/python-env.sh
source scripts/python-env.sh
# shellcheck source=scripts/test-server.sh
source scripts/test-server.sh

binary=${1:-.build/debug/TransformServer}
python_env redbot
start_test_server "$binary"

# path and the note ids it must carry
routes=(
  "/health STORE_NO_STORE"
  "/ready STORE_NO_STORE"
  "/metrics STORE_NO_STORE"
  "/schemas STORE_NO_STORE"
  "/schemas/User FRESHNESS_NO_CACHE INM_304"
  "/schemas/Repo/jsonschema FRESHNESS_NO_CACHE INM_304"
)
status=0
for route in "${routes[@]}"; do
  read -r path expected <<<"$route"
  "$PYTHON_ENV/bin/redbot" -o har "http://127.0.0.1:$TEST_SERVER_PORT$path" >"$TEST_SERVER_SCRATCH/redbot.har"
  "$PYTHON_ENV/bin/python" - "$path" "$TEST_SERVER_SCRATCH/redbot.har" $expected <<'PY' || status=1
import json, sys
path, har, expected = sys.argv[1], sys.argv[2], set(sys.argv[3:])
notes = json.load(open(har))["log"]["entries"][0]["_red_messages"]
found = {note["note_id"] for note in notes}
problems = [f"{note['level']} {note['note_id']}: {note['summary']}" for note in notes if note["level"] in ("BAD", "WARN")]
problems += [f"missing {note_id}" for note_id in sorted(expected - found)]
print(f"REDbot {path}: {len(notes)} notes, " + ("ok" if not problems else "PROBLEMS"))
for problem in problems:
    print("  " + problem)
sys.exit(1 if problems else 0)
PY
done
exit $status
