#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The release build converts the deepest nesting `maxNestingDepth` allows (1,024 nested objects) within the stack
# that operations.md asks operators to keep (`ulimit -s` of 4 MiB; it needs about 2.3 MiB). A conversion recurses
# once per nesting level, and the tests run a debug build, whose frames are many times larger, on a thread with a
# 64 MiB stack, so this is what checks the stack use of the build that ships. The CLI converts on its main thread,
# whose stack `ulimit -s` sets, as it sets a server worker thread's.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build -c release --static-swift-stdlib --product TransformServer  # the portable binary (scripts/static-check.sh)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/schemas"
echo '{"models":[{"name":"Node","properties":{"a":"Node","b":"int32"}}]}' > "$dir/schemas/node.json"
levels=1024
stack_kib=4096
{
  for ((i = 1; i < levels; i++)); do printf '{"a":'; done
  printf '{"b":"1"}'
  for ((i = 1; i < levels; i++)); do printf '}'; done
} > "$dir/body.json"
{
  for ((i = 1; i < levels; i++)); do printf '{"a":'; done
  printf '{"b":1}'
  for ((i = 1; i < levels; i++)); do printf ',"b":0}'; done
} > "$dir/expected.json"

status=0
(ulimit -s "$stack_kib" && TRANSFORM_MAX_NESTING_DEPTH=$levels \
  .build/release/TransformServer convert Node --schemas "$dir/schemas" < "$dir/body.json" > "$dir/out.json") || status=$?
if [ "$status" -ne 0 ]; then
  echo "FAIL: converting $levels nested objects under ulimit -s $stack_kib exited with $status (139: out of stack)" >&2
  exit 1
fi
if ! cmp -s <(tr -d '\n' < "$dir/out.json") "$dir/expected.json"; then
  echo "FAIL: converting $levels nested objects gave other bytes than expected" >&2
  head -c 300 "$dir/out.json" >&2
  exit 1
fi
echo "ok: $levels nested objects converted by the release build within a $stack_kib KiB stack"
