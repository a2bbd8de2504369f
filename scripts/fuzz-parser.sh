#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Fuzzes CHTTPParser with libFuzzer under ASan and UBSan: request heads, their prefixes, and chunked bodies
# (Tests/CHTTPParserTests/Fuzz/fuzz_request.c states the invariants checked).
#   scripts/fuzz-parser.sh [SECONDS]     default 30
# Starts from the committed seeds in Tests/CHTTPParserTests/Fuzz/corpus (never modified) plus the inputs kept by
# earlier runs in .build-fuzz/corpus. Exits non-zero when libFuzzer finds a crash, a leak or a broken invariant;
# the reproducer is written to .build-fuzz/ (replay: .build-fuzz/fuzz_request .build-fuzz/crash-…).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-30}
clang=${CLANG:-$(command -v clang || true)}
if [[ -z "$clang" ]]; then
  echo "fuzz-parser: clang not found (set CLANG, or install it: apt-get install clang)" >&2
  exit 2
fi

# lld, when present, links the sanitizer runtimes without gold's "cannot export local symbol" noise.
linker=()
if [[ -x "$(dirname "$clang")/ld.lld" ]] || command -v ld.lld > /dev/null; then
  linker=(-fuse-ld=lld)
fi

out=.build-fuzz
mkdir -p "$out/corpus"
"$clang" "${linker[@]}" -std=c11 -g -O1 -Wall -Wextra -Werror \
  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
  -I Sources/CHTTPParser/include \
  Sources/CHTTPParser/chttp_parser.c Tests/CHTTPParserTests/Fuzz/fuzz_request.c \
  -o "$out/fuzz_request"

echo "==> fuzzing CHTTPParser for ${seconds} s"
"$out/fuzz_request" -max_total_time="$seconds" -max_len=4096 -timeout=10 -print_final_stats=1 \
  -dict=Tests/CHTTPParserTests/Fuzz/http.dict -artifact_prefix="$out/" "$out/corpus" Tests/CHTTPParserTests/Fuzz/corpus
