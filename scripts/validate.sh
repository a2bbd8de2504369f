#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# The habits the tools hold, checked in seconds before anything is built (the first stage of scripts/test.sh):
#   1. .editorconfig: every tracked text file is UTF-8 with LF line ends, no tabs, no trailing whitespace and a
#      final newline (the raw HTTP bytes that .gitattributes marks -text are exempt).
#   2. SPDX: every source file, script and benchmark (.swift .c .h .sh .py .lua, .ci/run, the Dockerfile) names
#      its licence in an `SPDX-License-Identifier:` line among its first five.
#   3. Swift: `swift format lint` (the toolchain's swift-format) with .swift-format, over Sources, Tests,
#      Benchmarks and Package.swift: its rules and its layout (indentation, line breaks, line length, spacing,
#      trailing commas, blank lines). `swift format -i -r Sources Tests Benchmarks Package.swift` fixes the layout;
#      an end-of-line comment past the line length has to be moved by hand.
#   4. C: `clang-format --dry-run -Werror` with .clang-format on every .c and .h (clang-format comes from
#      scripts/provision.sh; without it this check is skipped with the reason, except under CI=true).
# Prints each finding as file:line: reason and exits 1 if there is any.
#
#   bash scripts/validate.sh
set -euo pipefail
cd "$(dirname "$0")/.."

failed=0
fail() { echo "validate: $*" >&2; failed=1; }

# Tracked files, minus those that .gitattributes keeps byte for byte (-text) and binaries (grep -I skips those).
mapfile -t text_files < <(git ls-files -z | git check-attr -z --stdin text \
  | tr '\0' '\n' | paste - - - | awk -F'\t' '$3 != "unset" { print $1 }')

echo "validate: .editorconfig habits (${#text_files[@]} files)"
for check in $'\t|a tab' '[[:space:]]$|trailing whitespace' $'\r|a carriage return'; do
  pattern=${check%%|*} reason=${check#*|}
  while IFS= read -r hit; do fail "${hit%%:*}:$(cut -d: -f2 <<<"$hit"): $reason"; done \
    < <(printf '%s\0' "${text_files[@]}" | xargs -0 grep -InE -- "$pattern" 2>/dev/null || true)
done
for file in "${text_files[@]}"; do
  if [ -s "$file" ] && [ "$(tail -c 1 "$file" | od -An -c | tr -d ' ')" != '\n' ] && grep -Iq . "$file"; then
    fail "$file: no newline at the end"
  fi
done

echo "validate: SPDX headers"
for file in "${text_files[@]}"; do
  case $file in
    *.swift | *.c | *.h | *.sh | *.py | *.lua | .ci/run | Dockerfile) ;;
    *) continue ;;
  esac
  head -n 5 "$file" | grep -q 'SPDX-License-Identifier: ' || fail "$file: no SPDX-License-Identifier line in its first five"
done

echo "validate: swift format lint (.swift-format)"
paths=()
for path in Sources Tests Benchmarks Package.swift; do [ -e "$path" ] && paths+=("$path"); done
lint=$(swift format lint --configuration .swift-format --recursive --parallel "${paths[@]}" 2>&1 || true)
lint=$(grep -E ': (warning|error):' <<<"$lint" || true)
if [ -n "$lint" ]; then
  while IFS= read -r line; do fail "$line"; done <<<"$lint"
fi

echo "validate: clang-format (.clang-format)"
if bash scripts/provision.sh --has clang-format; then
  while IFS= read -r file; do
    clang-format --dry-run -Werror "$file" >/dev/null 2>&1 \
      || fail "$file: not laid out as .clang-format says (clang-format -i $file)"
  done < <(git ls-files '*.c' '*.h')
elif [ "${CI:-}" = true ]; then
  fail "clang-format is missing under CI=true (bash scripts/provision.sh installs it)"
else
  echo "validate: clang-format SKIPPED (missing; bash scripts/provision.sh installs it)"
fi

if [ "$failed" != 0 ]; then
  echo "validate: FAILED" >&2
  exit 1
fi
echo "validate: ok"
