#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# HTTP benchmark: TransformServer's POST /convert/GithubUser against nginx (the HTTP ceiling: a static file holding
# our exact answer) and a FastAPI + pydantic peer on uvicorn, all on 127.0.0.1.
#
#   bash scripts/bench-http.sh [--smoke] [--out DIR] [--publish]
#
#   1. tools: checks for wrk, nginx, curl, gcc and taskset (scripts/provision.sh installs them) and makes the
#      virtual environment .build/venv/bench of the pinned Python packages (scripts/python-env.sh)
#   2. build: release TransformServer (--smoke: the debug build), Benchmarks/http/idle_clients.c (gcc -O2)
#   3. workload: Benchmarks/workloads/generate.py -> github-user.json, the body of every POST
#   4. one server at a time: start it, check its answer (status 200; nginx byte-identical to ours, FastAPI
#      semantically equal), warm it up, then `wrk -t1 -cN -d10s --latency -s Benchmarks/http/post.lua` at 1, 64
#      and 256 connections, recording req/s, p50/p99, the server's CPU time per request (utime+stime from
#      /proc/PID/stat over its process tree, before and after the run) and its memory (VmRSS after the run,
#      peak VmHWM); then stop it. Servers: TransformServer (as shipped: ./config, access log on, written to a
#      file in OUT), TransformServer with ?hash=true (64 connections), nginx with 1 and 2 workers (reuseport),
#      FastAPI with 1 and 2 uvicorn workers. TransformServer and nginx (1 worker) are also run pinned at 64
#      connections: the server on core 0, wrk on core 1 (taskset), for a steadier p99.
#   5. passes: the headline comparison again, PASSES times in turn: TransformServer and nginx (each worker
#      count), each freshly started, warmed up and loaded once at 64 connections. The report's targets use each
#      server's median pass (req/s, CPU per request and p99 each), so one burst of other load on this shared
#      machine spoils one pass of one server rather than the only comparison.
#   6. idle: a fresh TransformServer holds 10,000 idle keep-alive connections (idle_clients, paced batches of
#      500); within 60 s of their last request we read its RSS and time /health on fresh connections (curl).
#   7. report: OUT/results-http.json, a markdown table, OUT/bench-http.png (Benchmarks/report_http.py);
#      --publish also writes docs/images/bench-http.png and docs/bench-http-results.md.
#
# --smoke: the same code paths, small: 1-second runs at 1 and 64 connections, nginx with 1 worker, FastAPI with
# 2, one pass, 200 idle connections. --out DIR: where results go (default .build/bench-http/<UTC time>).
#
# A server whose answer is wrong stops the script at once. A socket error or a non-2xx answer under load is
# recorded, the remaining measurements still run, and the script exits 1 at the end. Every wait is bounded.
# Each stage prints how long it took.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

SMOKE=0
PUBLISH=0
OUT=""
while [ $# -gt 0 ]; do
  case $1 in
    --smoke) SMOKE=1 ;;
    --publish) PUBLISH=1 ;;
    --out) [ $# -ge 2 ] || { echo "--out needs a directory" >&2; exit 2; }; OUT=$2; shift ;;
    --out=*) OUT=${1#--out=} ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
    *) echo "unknown argument: $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

# What to run.
if [ "$SMOKE" = 1 ]; then
  # nginx with 1 worker (the pinned path), FastAPI with 2 (the multi-process path).
  DURATION=1; WARMUP=1; CONNS=(1 64); NGINX_WORKERS=(1); FASTAPI_WORKERS=(2); PASSES=1; IDLE_COUNT=200
else
  DURATION=10; WARMUP=3; CONNS=(1 64 256); NGINX_WORKERS=(1 2); FASTAPI_WORKERS=(1 2); PASSES=3; IDLE_COUNT=10000
fi
MAIN_CONNS=64                 # the headline connection count (hash=true and pinned runs use it)
IDLE_BATCH=500                # connections per batch: well under the listen backlog (4,096 here)
IDLE_PAUSE_MS=50              # pause between batches
IDLE_HOLD_S=120               # the idle client lets go by itself after this (the script stops it sooner)
HEALTH_SAMPLES=20             # fresh-connection /health requests while the idle connections are held

OUT=${OUT:-.build/bench-http/$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$OUT/wrk" "$OUT/logs"
OUT=$(cd "$OUT" && pwd)
export PYTHONDONTWRITEBYTECODE=1   # no __pycache__ in the repository (report_http.py, the FastAPI peer)
REPORT=(python3 "$ROOT/Benchmarks/report_http.py")
LUA=$ROOT/Benchmarks/http/post.lua
BODY=$OUT/workload/github-user.json
: >"$OUT/runs.jsonl"
rm -f "$OUT/idle.json"
FAILURES=()                   # load failures, reported at the end (wrong answers stop the script at once)

# Our server runs as shipped: no TRANSFORM_* setting from the caller's environment may change it.
while read -r name; do unset "$name"; done < <(compgen -e | grep '^TRANSFORM_' || true)

# A scratch directory for nginx (world-readable, for its unprivileged workers) and small files; removed at exit.
SCRATCH=$(mktemp -d /tmp/bench-http.XXXXXX)
chmod 755 "$SCRATCH"

# nginx lives in /usr/sbin, which an unprivileged user's PATH may lack.
nginx_path() { command -v nginx 2>/dev/null || { [ -x /usr/sbin/nginx ] && echo /usr/sbin/nginx; } || true; }
NGINX=$(nginx_path)
export BENCH_NGINX=$NGINX   # for report_http.py's version line

SERVER_PID=""
IDLE_PID=""
cleanup() {
  [ -n "$IDLE_PID" ] && kill "$IDLE_PID" 2>/dev/null || true
  [ -n "$SERVER_PID" ] && stop_server || true
  rm -rf "$SCRATCH"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# shellcheck source=scripts/stage.sh
source scripts/stage.sh  # (the working directory is the repository)

die() {
  echo "FAILED: $*" >&2
  exit 1
}

# ---------------------------------------------------------------------------------------------------------------
# Tools and build

tools() {
  # System tools come from scripts/provision.sh, the Python peers from the virtual environment .build/venv/bench
  # (scripts/requirements/bench.txt); nothing is installed into the machine's own Python.
  local tool missing=()
  for tool in wrk nginx curl gcc taskset; do bash scripts/provision.sh --has "$tool" || missing+=("$tool"); done
  [ ${#missing[@]} -eq 0 ] || die "missing ${missing[*]}; install them with: bash scripts/provision.sh"
  NGINX=$(nginx_path)
  export BENCH_NGINX=$NGINX
  python_env bench || die "the Python peers' virtual environment could not be made (see above)"
  export PATH=$PYTHON_ENV/bin:$PATH
  python3 -c 'import pydantic, sys; sys.exit(0 if pydantic.VERSION.startswith("2.") else 1)' \
    || die "the FastAPI peer needs pydantic 2"
}

SERVER_BIN=""
IDLE_BIN=$OUT/idle_clients
build() {
  if [ "$SMOKE" = 1 ]; then
    swift build --product TransformServer
    SERVER_BIN=$ROOT/.build/debug/TransformServer
  else
    swift build -c release --product TransformServer
    SERVER_BIN=$ROOT/.build/release/TransformServer
  fi
  gcc -O2 -Wall -Wextra -Werror -o "$IDLE_BIN" "$ROOT/Benchmarks/http/idle_clients.c"
}

workload() {
  python3 Benchmarks/workloads/generate.py "$OUT/workload" >/dev/null
  echo "body: $(wc -c <"$BODY") bytes"
  # Enough descriptors for the idle test (client and server each hold one per connection).
  local hard want=65536
  hard=$(ulimit -Hn)
  [ "$hard" = unlimited ] || [ "$hard" -ge "$want" ] || want=$hard
  ulimit -n "$want"
  [ "$(ulimit -n)" -ge $((IDLE_COUNT + 100)) ] \
    || die "ulimit -n is $(ulimit -n): the idle test needs at least $((IDLE_COUNT + 100)) descriptors"
  echo "ulimit -n: $(ulimit -n)"
  # Other work on the machine shows in the results (the "other load" column); say how busy it is now.
  echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
  # And how fast it runs now (Benchmarks/pace.py); measured again before the report.
  python3 Benchmarks/pace.py >"$OUT/pace.before"
  echo "host pace: $(cat "$OUT/pace.before") ms (about 100 ms when this machine is quiet)"
}

# ---------------------------------------------------------------------------------------------------------------
# Servers. Each start_* sets SERVER_PID (a direct child of this shell), BASE (http://127.0.0.1:PORT) and NAME.
# An optional command prefix (taskset -c 0) goes before the server's command; taskset execs, so the PID stays.

free_port() { "${REPORT[@]}" free-port; }

# Waits (at most 30 s) until GET /health answers 200; fails if the server exits first.
wait_ready() {
  local i
  for i in $(seq 1 300); do
    kill -0 "$SERVER_PID" 2>/dev/null || die "$NAME exited while starting; see $OUT/logs/$NAME.*"
    if curl -fsS -m 2 -o /dev/null "$BASE/health" 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  die "$NAME did not answer $BASE/health within 30 s"
}

start_ours() {
  NAME=$1; shift
  # Production configuration: ./config, access log on (standard output, into a file), events on standard error.
  "$@" "$SERVER_BIN" serve --config "$ROOT/config" --host 127.0.0.1 --port 0 \
    >"$OUT/logs/$NAME.access.log" 2>"$OUT/logs/$NAME.stderr.log" &
  SERVER_PID=$!
  local i port=""
  for i in $(seq 1 300); do
    port=$(grep -m1 -o 'listening on http://127.0.0.1:[0-9]*' "$OUT/logs/$NAME.access.log" 2>/dev/null \
      | sed 's/.*://' || true)
    [ -n "$port" ] && break
    kill -0 "$SERVER_PID" 2>/dev/null || die "$NAME exited while starting: $(tail -5 "$OUT/logs/$NAME.stderr.log")"
    sleep 0.1
  done
  [ -n "$port" ] || die "$NAME printed no 'listening on' line within 30 s"
  BASE=http://127.0.0.1:$port
  wait_ready
}

start_nginx() {
  local workers=$1; shift
  NAME=nginx-${workers}w
  local dir=$SCRATCH/$NAME port user=""
  port=$(free_port)
  mkdir -p "$dir/root/convert"
  chmod -R 755 "$dir"
  # The file nginx serves: our answer's exact bytes (saved by check_ours).
  cp "$OUT/ours-response.json" "$dir/root/convert/GithubUser"
  chmod 644 "$dir/root/convert/GithubUser"
  # As root, nginx's workers run as nobody (its default), named explicitly so the file's mode above is what counts.
  [ "$(id -u)" = 0 ] && user="user nobody nogroup;"
  sed -e "s|@WORKERS@|$workers|g; s|@PORT@|$port|g; s|@ROOT@|$dir/root|g; s|@RUN@|$dir|g; s|@USER@|$user|g" \
    "$ROOT/Benchmarks/http/nginx.conf.template" >"$dir/nginx.conf"
  cp "$dir/nginx.conf" "$OUT/logs/$NAME.conf"
  "$@" "$NGINX" -p "$dir" -c "$dir/nginx.conf" -e "$dir/error.log" \
    >"$OUT/logs/$NAME.stdout.log" 2>"$OUT/logs/$NAME.stderr.log" &
  SERVER_PID=$!
  BASE=http://127.0.0.1:$port
  wait_ready
}

start_fastapi() {
  local workers=$1; shift
  NAME=fastapi-${workers}w
  local port
  port=$(free_port)
  # uvloop + httptools (the fast uvicorn), no access log (uvicorn's is a Python logging call per request; it
  # is not what production FastAPI deployments time). --workers 1 runs in one process, 2 forks two workers.
  "$@" python3 -m uvicorn --app-dir "$ROOT/Benchmarks/http" fastapi_peer:app --host 127.0.0.1 --port "$port" \
    --workers "$workers" --loop uvloop --http httptools --no-access-log --log-level warning \
    >"$OUT/logs/$NAME.stdout.log" 2>"$OUT/logs/$NAME.stderr.log" &
  SERVER_PID=$!
  BASE=http://127.0.0.1:$port
  wait_ready
  # With 2 workers /health may answer before the second worker has started: wait (bounded) for both.
  local i
  for i in $(seq 1 100); do
    [ "$workers" = 1 ] && break
    [ "$("${REPORT[@]}" tree "$SERVER_PID" | wc -w)" -gt "$workers" ] && break
    sleep 0.1
  done
}

# SIGTERM, then (after 15 s) SIGKILL, to the server and anything left of its process tree.
stop_server() {
  local pids i
  pids=$("${REPORT[@]}" tree "$SERVER_PID")
  kill -TERM "$SERVER_PID" 2>/dev/null || true
  for i in $(seq 1 150); do
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.1
  done
  kill -0 "$SERVER_PID" 2>/dev/null && { echo "    $NAME ignored SIGTERM for 15 s: SIGKILL"; kill -KILL "$SERVER_PID"; }
  wait "$SERVER_PID" 2>/dev/null || true
  for i in $pids; do kill -KILL "$i" 2>/dev/null || true; done
  SERVER_PID=""
}

# Fails the script unless the server is still running (after a load run).
check_alive() {
  kill -0 "$SERVER_PID" 2>/dev/null && return 0
  FAILURES+=("$NAME exited during the run: $(tail -3 "$OUT/logs/$NAME.stderr.log" | tr '\n' ' ')")
  die "$NAME exited during the run; its standard error ends with: $(tail -20 "$OUT/logs/$NAME.stderr.log")"
}

# ---------------------------------------------------------------------------------------------------------------
# Answer checks (before any load)

# post URL NAME: one POST of the body; the answer goes to $OUT/check/NAME.{headers,body}; prints the status.
post() {
  mkdir -p "$OUT/check"
  curl -sS -m 10 -o "$OUT/check/$2.body" -D "$OUT/check/$2.headers" -w '%{http_code}' \
    -X POST -H 'Content-Type: application/json' --data-binary @"$BODY" "$1"
}

check_ours() {
  local status
  status=$(post "$BASE/convert/GithubUser" ours)
  [ "$status" = 200 ] || die "TransformServer answered $status: $(head -c 500 "$OUT/check/ours.body")"
  cp "$OUT/check/ours.body" "$OUT/ours-response.json"
  status=$(post "$BASE/convert/GithubUser?hash=true" ours-hash)
  [ "$status" = 200 ] || die "TransformServer answered $status to ?hash=true"
  grep -qi '^X-Model-Hash: [0-9a-f]' "$OUT/check/ours-hash.headers" || die "?hash=true gave no X-Model-Hash header"
  cmp -s "$OUT/check/ours-hash.body" "$OUT/ours-response.json" || die "?hash=true changed the body"
  echo "    answer checked: 200, $(wc -c <"$OUT/ours-response.json") bytes; ?hash=true adds X-Model-Hash"
}

check_nginx() {
  local status
  status=$(post "$BASE/convert/GithubUser" "$NAME")
  [ "$status" = 200 ] || die "$NAME answered $status: $(head -c 300 "$OUT/check/$NAME.body")"
  cmp -s "$OUT/check/$NAME.body" "$OUT/ours-response.json" || die "$NAME's answer differs from ours"
  grep -qi '^Content-Type: application/json; charset=utf-8' "$OUT/check/$NAME.headers" \
    || die "$NAME's Content-Type is not ours"
  echo "    answer checked: 200, byte-identical to ours"
}

check_fastapi() {
  local status
  status=$(post "$BASE/convert/GithubUser" "$NAME")
  [ "$status" = 200 ] || die "$NAME answered $status: $(head -c 300 "$OUT/check/$NAME.body")"
  "${REPORT[@]}" same-json "$OUT/check/$NAME.body" "$OUT/ours-response.json" \
    || die "$NAME's answer is not the same JSON as ours (differences above)"
  echo "    answer checked: 200, the same JSON as ours ($(wc -c <"$OUT/check/$NAME.body") bytes)"
}

# ---------------------------------------------------------------------------------------------------------------
# Load

# load LABEL CONNS SECONDS URL [pinned]: one wrk run against the running server; RECORD=0 for a warm-up.
# Appends the result to runs.jsonl; a socket error or non-2xx answer is added to FAILURES.
RECORD=1
NOTE=""
load() {
  local label=$1 conns=$2 seconds=$3 url=$4 pinned=${5:-}
  local slug=${label// /-}-c$conns${NOTE:+-$NOTE}${pinned:+-pinned}
  local wrk_cmd=(wrk) extra=() out=$OUT/runs.jsonl
  [ "$RECORD" = 1 ] || { slug=$slug-warmup; out=-; }
  [ -n "$pinned" ] && { wrk_cmd=(taskset -c 1 wrk); extra+=(--pinned); }
  "${REPORT[@]}" procs "$SERVER_PID" >"$SCRATCH/before.json"
  # wrk stops by itself after -d; timeout only guards against a hang. `time` gives wrk's own CPU seconds.
  local TIMEFORMAT='%U %S' wrk_cpu
  { time timeout $((seconds + 30)) "${wrk_cmd[@]}" -t1 -c"$conns" -d"${seconds}s" --latency -s "$LUA" "$url" \
      -- "$BODY" >"$OUT/wrk/$slug.txt" 2>&1 || echo "    wrk exited with status $? (see $OUT/wrk/$slug.txt)" >&3
  } 3>&1 2>"$SCRATCH/wrk-time.txt"
  wrk_cpu=$(awk '{ print $1 + $2 }' "$SCRATCH/wrk-time.txt")
  "${REPORT[@]}" procs "$SERVER_PID" >"$SCRATCH/after.json"
  if ! "${REPORT[@]}" wrk-run "$out" "$OUT/wrk/$slug.txt" "$SCRATCH/before.json" "$SCRATCH/after.json" \
      --server "$label" --conns "$conns" --note "$NOTE" --wrk-cpu "$wrk_cpu" "${extra[@]}"; then
    local what="$label${NOTE:+ $NOTE}${pinned:+ pinned} at $conns connections"
    [ "$RECORD" = 1 ] || what="$what (warm-up)"
    FAILURES+=("$what: see $OUT/wrk/$slug.txt")
    if [ -s "$OUT/logs/$NAME.stderr.log" ]; then
      echo "    $NAME's standard error ends with:"; tail -5 "$OUT/logs/$NAME.stderr.log" | sed 's/^/      /'
    fi
  fi
  check_alive
}

# measure LABEL URL: warm-up, then one run per connection count.
measure() {
  local label=$1 url=$2 conns
  RECORD=0 load "$label" "$MAIN_CONNS" "$WARMUP" "$url" >/dev/null
  for conns in "${CONNS[@]}"; do
    load "$label" "$conns" "$DURATION" "$url"
  done
}

# pinned START_FUNCTION ARGS...: restart the server on core 0 and load it from core 1 at MAIN_CONNS.
pinned() {
  local label=$1; shift
  if [ "$(nproc)" -lt 2 ]; then
    echo "    one core only: no pinned run"
    return 0
  fi
  "$@" taskset -c 0
  RECORD=0 load "$label" "$MAIN_CONNS" "$WARMUP" "$BASE/convert/GithubUser" pinned >/dev/null
  load "$label" "$MAIN_CONNS" "$DURATION" "$BASE/convert/GithubUser" pinned
  stop_server
}

bench_ours() {
  start_ours ours
  check_ours
  measure TransformServer "$BASE/convert/GithubUser"
  # ?hash=true adds a SHA-256 of the canonical form: measured on its own, at the headline connection count.
  NOTE=hash=true load TransformServer "$MAIN_CONNS" "$DURATION" "$BASE/convert/GithubUser?hash=true"
  stop_server
  echo "    access log: $(wc -l <"$OUT/logs/ours.access.log") lines, $(du -h "$OUT/logs/ours.access.log" | cut -f1)"
}

bench_ours_pinned() {
  pinned TransformServer start_ours ours-pinned
}

bench_nginx() {
  local workers=$1
  start_nginx "$workers"
  check_nginx
  measure "nginx ${workers}w" "$BASE/convert/GithubUser"
  stop_server
  # Pinned only with one worker: two workers on one core would measure the scheduler.
  [ "$workers" = 1 ] && pinned "nginx 1w" start_nginx 1
  return 0
}

bench_fastapi() {
  local workers=$1
  start_fastapi "$workers"
  check_fastapi
  measure "FastAPI ${workers}w" "$BASE/convert/GithubUser"
  stop_server
}

# headline LABEL: warm-up, then one run at MAIN_CONNS (NOTE names the pass).
headline() {
  RECORD=0 load "$1" "$MAIN_CONNS" "$WARMUP" "$BASE/convert/GithubUser" >/dev/null
  load "$1" "$MAIN_CONNS" "$DURATION" "$BASE/convert/GithubUser"
}

bench_passes() {
  local pass workers
  for pass in $(seq 1 "$PASSES"); do
    start_ours "ours-pass$pass"
    NOTE=pass$pass headline TransformServer
    stop_server
    for workers in "${NGINX_WORKERS[@]}"; do
      start_nginx "$workers"
      NOTE=pass$pass headline "nginx ${workers}w"
      stop_server
    done
  done
}

# ---------------------------------------------------------------------------------------------------------------
# Idle connections

bench_idle() {
  start_ours idle
  local port=${BASE##*:} i line="" started ready_at
  "${REPORT[@]}" procs "$SERVER_PID" >"$OUT/idle-procs-before.json"
  started=$(date +%s.%N)
  "$IDLE_BIN" 127.0.0.1 "$port" "$IDLE_COUNT" "$IDLE_BATCH" "$IDLE_PAUSE_MS" "$IDLE_HOLD_S" \
    >"$OUT/idle-client.log" 2>&1 &
  IDLE_PID=$!
  # Wait (at most 120 s) until every connection is open and answered, or the client gives up.
  for i in $(seq 1 1200); do
    line=$(grep -m1 -E '"event":"(holding|error)"' "$OUT/idle-client.log" || true)
    [ -n "$line" ] && break
    kill -0 "$IDLE_PID" 2>/dev/null || break
    sleep 0.1
  done
  ready_at=$(date +%s.%N)
  tail -n 3 "$OUT/idle-client.log" | sed 's/^/    /'
  : >"$OUT/idle-health.txt"
  if [[ $line == *'"holding"'* ]]; then
    # Within seconds of the last request: fresh-connection /health timings, then the server's memory.
    for i in $(seq 1 "$HEALTH_SAMPLES"); do
      curl -sS -m 5 -o /dev/null -w '%{http_code} %{time_total}\n' "$BASE/health" >>"$OUT/idle-health.txt" \
        || echo "000 5" >>"$OUT/idle-health.txt"
    done
    "${REPORT[@]}" procs "$SERVER_PID" >"$OUT/idle-procs-held.json"
  fi
  local measured_after
  measured_after=$(python3 -c "print(round($(date +%s.%N) - $ready_at, 1))")
  kill -TERM "$IDLE_PID" 2>/dev/null || true
  wait "$IDLE_PID" 2>/dev/null || true
  IDLE_PID=""
  tail -n 1 "$OUT/idle-client.log" | sed 's/^/    /'
  "${REPORT[@]}" idle-result "$OUT" --expected "$IDLE_COUNT" --measured-after "$measured_after" \
    --opened-in "$(python3 -c "print(round($ready_at - $started, 1))")" || FAILURES+=("idle connections: see above")
  check_alive
  stop_server
}

# ---------------------------------------------------------------------------------------------------------------

report() {
  python3 Benchmarks/pace.py >"$OUT/pace.after"
  python3 - "$OUT/settings.json" "$SMOKE" "$DURATION" "$MAIN_CONNS" "$IDLE_COUNT" "$PASSES" \
    "${FAILURES[@]+"${FAILURES[@]}"}" <<'EOF'
import json, sys
path, smoke, duration, main_conns, idle_count, passes, *failures = sys.argv[1:]
json.dump({"smoke": smoke == "1", "duration_s": int(duration), "main_conns": int(main_conns),
           "idle_connections": int(idle_count), "passes": int(passes), "failures": failures}, open(path, "w"))
EOF
  local publish=()
  [ "$PUBLISH" = 1 ] && publish=(--publish "$ROOT")
  "${REPORT[@]}" report "$OUT" "${publish[@]+"${publish[@]}"}"
  echo "results: $OUT/results-http.json"
}

TOTAL_START=$SECONDS
stage "tools" tools
stage "build" build
stage "workload" workload
stage "TransformServer" bench_ours
stage "TransformServer, pinned" bench_ours_pinned
for workers in "${NGINX_WORKERS[@]}"; do stage "nginx, $workers worker(s)" bench_nginx "$workers"; done
for workers in "${FASTAPI_WORKERS[@]}"; do stage "FastAPI, $workers worker(s)" bench_fastapi "$workers"; done
stage "passes ($PASSES × TransformServer and nginx at $MAIN_CONNS connections)" bench_passes
stage "idle connections ($IDLE_COUNT)" bench_idle
stage "report" report
echo "==> total: $((SECONDS - TOTAL_START)) s"
if [ ${#FAILURES[@]} -gt 0 ]; then
  echo "FAILED:" >&2
  printf '  %s\n' "${FAILURES[@]}" >&2
  exit 1
fi
