# SPDX-License-Identifier: Apache-2.0
# Sourced by fuzz-parser.sh and test-sanitized.sh (the working directory is the repository):
# `build_fuzz_target NAME` builds the libFuzzer target for CHTTPParser (Tests/CHTTPParserTests/Fuzz/fuzz_request.c)
# under ASan + UBSan into .build-fuzz/fuzz_request; NAME is the calling script's, for its error message.
build_fuzz_target() {
  local clang=${CLANG:-$(command -v clang || true)}
  if [[ -z "$clang" ]]; then
    echo "$1: clang not found (set CLANG; the Swift toolchain ships one beside swift)" >&2
    exit 2
  fi
  # lld, when present, links the sanitizer runtimes without gold's "cannot export local symbol" noise.
  local linker=()
  if [[ -x "$(dirname "$clang")/ld.lld" ]] || command -v ld.lld > /dev/null; then
    linker=(-fuse-ld=lld)
  fi
  mkdir -p .build-fuzz
  "$clang" "${linker[@]}" -std=c11 -g -O1 -Wall -Wextra -Werror \
    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
    -I Sources/CHTTPParser/include \
    Sources/CHTTPParser/chttp_parser.c Tests/CHTTPParserTests/Fuzz/fuzz_request.c \
    -o .build-fuzz/fuzz_request
}
