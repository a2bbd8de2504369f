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

# shellcheck source=scripts/fuzz-target.sh
source scripts/fuzz-target.sh

seconds=${1:-30}
out=.build-fuzz
build_fuzz_target fuzz-parser
mkdir -p "$out/corpus"

echo "==> fuzzing CHTTPParser for ${seconds} s"
"$out/fuzz_request" -max_total_time="$seconds" -max_len=4096 -timeout=10 -print_final_stats=1 \
  -dict=Tests/CHTTPParserTests/Fuzz/http.dict -artifact_prefix="$out/" "$out/corpus" Tests/CHTTPParserTests/Fuzz/corpus
