#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# The HTTP parser's tests under sanitizers (picohttpparser's `-fsanitize=address,undefined` job):
#   1. clang: the libFuzzer target (Tests/CHTTPParserTests/Fuzz/fuzz_request.c) replays the committed seed corpus,
#      then runs 100,000 mutations from a fixed seed, under ASan + UBSan + LeakSanitizer.
#   2. swift test: CHTTPParserTests (the C API, every case split at every byte) and the Swift wrapper's suites under
#      ASan, with the C target also built with UBSan. `swift test` accepts --sanitize=address or thread on Linux but
#      rejects `undefined` for Swift code, so UBSan reaches the C code through -Xcc. LeakSanitizer ignores
#      XCTest's own harness allocations (the C parser allocates nothing).
# About 3 minutes from a cold .build-asan, seconds when warm. Exits non-zero on any failure or sanitizer report.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/stage.sh
source scripts/stage.sh  # (the working directory is the repository)
# shellcheck source=scripts/fuzz-target.sh
source scripts/fuzz-target.sh

fuzz_replay() {
  local out=.build-fuzz
  build_fuzz_target test-sanitized
  "$out/fuzz_request" -artifact_prefix="$out/" Tests/CHTTPParserTests/Fuzz/corpus/*
  rm -rf "$out/replay-corpus" && mkdir "$out/replay-corpus"
  "$out/fuzz_request" -seed=1 -runs=100000 -max_len=4096 -dict=Tests/CHTTPParserTests/Fuzz/http.dict \
    -artifact_prefix="$out/" "$out/replay-corpus" Tests/CHTTPParserTests/Fuzz/corpus
}

swift_asan() {
  local scratch=.build-asan
  mkdir -p "$scratch"
  printf 'leak:libXCTest.so\n' > "$scratch/lsan.supp"
  local flags=(--sanitize=address -Xcc -fsanitize=undefined -Xcc -fno-sanitize-recover=undefined --scratch-path "$scratch")
  swift build --build-tests "${flags[@]}"
  LSAN_OPTIONS="suppressions=$PWD/$scratch/lsan.supp" \
    swift test --skip-build "${flags[@]}" --filter 'CHTTPParserTests|HTTPRequestParserTests|HTTPParseErrorTests'
}

stage "C parser under clang ASan+UBSan (fuzz target: seeds, then 100k fixed-seed runs)" fuzz_replay
stage "parser tests under swift test ASan (+ UBSan for the C target)" swift_asan
