#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Core conversion against other libraries: TransformBench (MapperCore, no HTTP) and, doing the same work — parse the
# JSON into typed models with the same mapping and serialise them back — Swift Codable (Benchmarks/Codable),
# pydantic v2 and msgspec (Benchmarks/python/peers.py); orjson loads+dumps as an untyped floor and pysimdjson
# parse-only as the parse limit.
#   1. workloads  Benchmarks/workloads/generate.py into OUT (github-user, timeline, users-1000)
#   2. python     the pinned peers and matplotlib in the virtual environment .build/venv/bench
#                 (scripts/python-env.sh; valgrind comes from scripts/provision.sh)
#   3. build      TransformBench and CodableBench (release; debug with --smoke)
#   4. verify     every peer's output against ours on every workload (orjson's and simdjson's against the input);
#                 a difference fails the run, naming its first JSON Pointer
#   5. time       ours and each peer on each workload, one process each, in three passes taken in turn (1 s each;
#                 one pass of 0.05 s with --smoke); the report keeps each peer's median pass, so a burst of other
#                 load on this shared machine spoils one pass of one peer rather than its only measurement
#   6. instructions  ours under valgrind --tool=callgrind: instructions per conversion, stable from run to run
#                 (N conversions minus none, divided by N), so a regression shows even on a noisy machine
#   7. report     OUT/results-core.json, the markdown tables (µs per op, peer ÷ ours), OUT/bench-core.png;
#                 --publish also writes docs/bench-core-results.md and docs/images/bench-core.png
# Each stage prints how long it took.
#
#   scripts/bench-core.sh [--smoke] [--out DIR] [--publish]      (OUT defaults to .build/bench)
set -euo pipefail

usage="usage: scripts/bench-core.sh [--smoke] [--out DIR] [--publish]"
smoke=false
publish=false
out=""
while [ $# -gt 0 ]; do
  case $1 in
    --smoke) smoke=true ;;
    --publish) publish=true ;;
    --out) [ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }; out=$2; shift ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
  shift
done
# --out is relative to the caller's directory; everything else to the repository's.
if [ -n "$out" ]; then
  mkdir -p "$out"
  out=$(cd "$out" && pwd)
fi
cd "$(dirname "$0")/.."
out=${out:-$PWD/.build/bench}

if $smoke; then configuration=debug; seconds=0.05; passes=1; else configuration=release; seconds=1; passes=3; fi
python=python3  # until the stage "python" sets the virtual environment's
export PYTHONDONTWRITEBYTECODE=1

ours=.build/$configuration/TransformBench
codable=.build-codable/$configuration/CodableBench
# Each workload: name, model, schema directory, input file name, --array for a batch, and the batch workers ours
# may use (the peers convert on one thread; the server's default is one worker per usable core).
workloads=(
  "github-user GithubUser config/schemas github-user.json"
  "timeline WeiboTimeline Benchmarks/schemas timeline.json"
  "users-1000 GithubUser config/schemas users-1000.json --array 1"
  "users-1000-2w GithubUser config/schemas users-1000.json --array 2"
)
peers=(codable pydantic msgspec orjson simdjson)

# shellcheck source=scripts/stage.sh
source scripts/stage.sh  # (the working directory is the repository)

# Sets `command` to the command line that runs $1 (ours or a peer) on workload $2 (a `workloads` entry), without
# --print or --seconds.
command_for() {
  local peer=$1 name model schemas file array workers
  read -r name model schemas file array workers <<<"$2"
  local common=(--model "$model" --input "$out/$file" ${array:+"$array"})
  case $peer in
    ours) command=("$ours" convert --schemas "$schemas" "${common[@]}" ${workers:+--workers "$workers"}) ;;
    codable) command=("$codable" convert "${common[@]}") ;;
    *) command=("$python" Benchmarks/python/peers.py convert --peer "$peer" "${common[@]}") ;;
  esac
}

workloads() {
  "$python" Benchmarks/workloads/generate.py "$out"
  wc -c "$out/github-user.json" "$out/timeline.json" "$out/users-1000.json" | sed '$d; s/^ */  /'
}

python_packages() {
  # The pinned peers live in the virtual environment .build/venv/bench (scripts/requirements/bench.txt).
  python_env bench || exit 1
  python=$PYTHON_ENV/bin/python
  echo "  $python: $(grep -v '^#' scripts/requirements/bench.txt | tr '\n' ' ')"
}

build() {
  swift build -c "$configuration" --product TransformBench
  swift build -c "$configuration" --package-path Benchmarks/Codable --scratch-path .build-codable
}

verify() {
  mkdir -p "$out/verify"
  local workload name peer expected
  for workload in "${workloads[@]}"; do
    read -r name _ <<<"$workload"
    command_for ours "$workload"
    "${command[@]}" --print >"$out/verify/$name.ours.json"
    for peer in "${peers[@]}"; do
      command_for "$peer" "$workload"
      "${command[@]}" --print >"$out/verify/$name.$peer.json"
      # orjson has no model and simdjson only parses: each must give back the input itself.
      case $peer in
        orjson | simdjson) read -r _ _ _ expected _ <<<"$workload"; expected=$out/$expected ;;
        *) expected=$out/verify/$name.ours.json ;;
      esac
      "$python" Benchmarks/report_core.py verify --label "$name $peer" \
        --expected "$expected" --actual "$out/verify/$name.$peer.json"
    done
  done
}

measure() {
  rm -rf "$out/raw"
  mkdir -p "$out/raw"
  # Other work on the machine skews the times: the load averages and the host's pace (Benchmarks/pace.py)
  # before and after go into the results.
  cut -d' ' -f1-3 /proc/loadavg >"$out/raw/loadavg.before"
  "$python" Benchmarks/pace.py >"$out/raw/pace.before"
  local pass workload name peer
  for pass in $(seq 1 "$passes"); do
    for workload in "${workloads[@]}"; do
      read -r name _ <<<"$workload"
      for peer in ours "${peers[@]}"; do
        command_for "$peer" "$workload"
        "${command[@]}" --seconds "$seconds" >"$out/raw/$name.$peer.$pass.json"
        echo "  pass $pass, $name $peer: $(cat "$out/raw/$name.$peer.$pass.json")"
      done
    done
  done
  cut -d' ' -f1-3 /proc/loadavg >"$out/raw/loadavg.after"
  "$python" Benchmarks/pace.py >"$out/raw/pace.after"
  echo "host pace (Benchmarks/pace.py): $(cat "$out/raw/pace.before") ms before timing, $(cat "$out/raw/pace.after") ms after"
}

# Instructions per conversion of ours on each workload, from callgrind's total for N conversions minus its total
# for none (loading the schemas and the input), divided by N.
instructions() {
  command -v valgrind >/dev/null 2>&1 \
    || { echo "bench-core: valgrind is needed for instruction counts (bash scripts/provision.sh)" >&2; exit 1; }
  local workload name iterations none some
  for workload in "${workloads[@]}"; do
    read -r name _ <<<"$workload"
    command_for ours "$workload"
    case $name in github-user) iterations=200 ;; timeline) iterations=10 ;; *-2w) continue ;; *) iterations=2 ;; esac
    # A smoke run counts the smallest workload once: the debug build under callgrind is slow.
    if $smoke; then [ "$name" = github-user ] || continue; iterations=1; fi
    none=$(callgrind_total 0)
    some=$(callgrind_total "$iterations")
    echo $(((some - none) / iterations)) >"$out/raw/$name.instructions"
    echo "  $name: $(cat "$out/raw/$name.instructions") instructions per conversion"
  done
}

# Callgrind's instruction total for `command` with --iterations $1. Swift seeds its hash function randomly per
# process, which moves dictionary and set work by a hundred instructions or so from run to run; a fixed seed makes
# the count repeat to within a few instructions.
callgrind_total() {
  SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "${command[@]}" --iterations "$1" 2>&1 \
    | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

report() {
  local options=(--raw "$out/raw" --out "$out" --seconds "$seconds" --passes "$passes" --configuration "$configuration")
  if $smoke; then options+=(--smoke); fi
  if $publish; then options+=(--publish docs); fi
  "$python" Benchmarks/report_core.py report "${options[@]}"
}

start=$SECONDS
mkdir -p "$out"
stage "workloads" workloads
stage "python" python_packages
stage "build ($configuration)" build
stage "verify" verify
stage "time ($passes passes, ${seconds} s each)" measure
stage "instructions (callgrind)" instructions
stage "report" report
echo "==> bench-core: $((SECONDS - start)) s"
