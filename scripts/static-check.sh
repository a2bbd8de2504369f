#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# The portable binary (README): `swift build -c release --static-swift-stdlib` links the Swift runtime and
# Foundation into .build/release/TransformServer, so it needs no Swift toolchain where it runs — only the C and C++
# runtime libraries (glibc, libstdc++, libgcc_s), zlib and libcurl. This checks it for real:
#   1. no libswift*, libFoundation* or libdispatch is among its needed libraries (readelf -d);
#   2. it runs with the toolchain's runtime folder hidden: in a mount namespace of its own (unshare -m, root), an
#      empty tmpfs is mounted over the folder the runtime libraries live in, LD_LIBRARY_PATH is empty, and from a
#      folder without config/ (the embedded configuration) it prints its version, checks its schemas and converts.
# A plain `swift build -c release` binary fails step 2 ("libswiftCore.so: cannot open shared object file").
set -euo pipefail
cd "$(dirname "$0")/.."

swift build -c release --static-swift-stdlib --product TransformServer
binary=$PWD/.build/release/TransformServer

needed=$(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
echo "needed libraries: $(echo $needed)"
if grep -E '^lib(swift|Foundation|dispatch|BlocksRuntime)' <<<"$needed"; then
  echo "FAIL: the release binary still needs the Swift runtime libraries above" >&2
  exit 1
fi

# The folder that holds the toolchain's libswiftCore.so (what a dynamically linked binary's RUNPATH names).
runtime=$(cd "$(dirname "$(readlink -f "$(command -v swift)")")/../lib/swift/linux" && pwd)
[ -e "$runtime/libswiftCore.so" ] || { echo "FAIL: no libswiftCore.so in $runtime" >&2; exit 1; }

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cat >"$scratch/run.sh" <<'EOF'
set -euo pipefail
mount -t tmpfs hidden "$1"
if [ -e "$1/libswiftCore.so" ]; then echo "FAIL: the runtime folder is still visible" >&2; exit 1; fi
cd "$3"
"$2" --version
"$2" check
echo '{"uid":"7","name":"Ada"}' | "$2" convert User
EOF
output=$(LD_LIBRARY_PATH= unshare --mount --propagation private bash "$scratch/run.sh" "$runtime" "$binary" "$scratch" 2>&1) || {
  echo "FAIL: the release binary did not run with $runtime hidden:" >&2
  echo "$output" >&2
  exit 1
}
echo "$output"
grep -q '^TransformServer .* (Swift ' <<<"$output" || { echo "FAIL: no version line" >&2; exit 1; }
grep -q '^(embedded): .* models, no problems$' <<<"$output" || { echo "FAIL: check did not pass" >&2; exit 1; }
grep -qx '{"uid":7,"name":"Ada"}' <<<"$output" || { echo "FAIL: the conversion's output is wrong" >&2; exit 1; }
echo "ok: the release binary runs with the toolchain's runtime ($runtime) hidden"
