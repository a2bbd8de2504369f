#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Cluster benchmark (docs/cluster.md): three TransformServer replicas sharing one registry through a real
# three-member etcd cluster, all on 127.0.0.1 on ports chosen at run time.
#
#   bash scripts/bench-cluster.sh [--smoke] [--debug] [--out DIR]
#
#   1. build: the release TransformServer (--debug or --smoke: the debug build, much slower per write)
#   2. start: three etcd members (Debian's etcd-server; `etcd` must be on PATH), then three replicas with
#      registryStore etcd, each waited for until /ready answers 200
#   3. propagation: WRITES times, PUT /schemas/Bench (new bytes each time) on replica i % 3; from its 200, poll
#      replica (i + 1) % 3's GET /schemas/Bench every 10 ms until it answers the new ETag. p50, p99, max.
#   4. throughput: three writers, one per replica, each cycling through its own ten models with new bytes on
#      every PUT, for SECONDS seconds: accepted writes per second, and 503s or other failures (there must be none)
#   5. failover: kill -9 the etcd leader, then PUT on a replica every 10 ms until one answers 200: the time
#      from the kill to that 200. Repeated FAILOVERS times (the killed member is restarted in between).
#   6. report: OUT/results-cluster.json and a markdown table on standard output
#
# --smoke: the same code paths, small (20 writes, 2-second throughput run, one failover). Every process started
# here is stopped by its PID on exit; every wait is bounded.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

SMOKE=0
CONFIGURATION=release
OUT=""
while [ $# -gt 0 ]; do
  case "$1" in
    --smoke) SMOKE=1; CONFIGURATION=debug ;;
    --debug) CONFIGURATION=debug ;;
    --out) OUT="$2"; shift ;;
    *) echo "usage: bash scripts/bench-cluster.sh [--smoke] [--debug] [--out DIR]" >&2; exit 2 ;;
  esac
  shift
done
OUT=${OUT:-.build/bench-cluster/$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
if [ "$SMOKE" = 1 ]; then WRITES=20; SECONDS_RUN=2; FAILOVERS=1; else WRITES=300; SECONDS_RUN=20; FAILOVERS=3; fi

command -v etcd >/dev/null 2>&1 || { echo "etcd is not installed (bash scripts/provision.sh installs it)" >&2; exit 1; }

echo "== build ($CONFIGURATION)"
swift build -c "$CONFIGURATION" --product TransformServer >/dev/null
BINARY=$(swift build -c "$CONFIGURATION" --show-bin-path)/TransformServer

PIDS=()
cleanup() {
  # Members restarted by the measurements record their PIDs in OUT/restarted-pids.
  if [ -f "$OUT/restarted-pids" ]; then while read -r pid; do PIDS+=("$pid"); done <"$OUT/restarted-pids"; fi
  for pid in "${PIDS[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
}
trap cleanup EXIT

free_ports() {
  python3 -c '
import socket, sys
sockets = [socket.socket() for _ in range(int(sys.argv[1]))]
for s in sockets: s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in sockets))' "$1"
}

read -r -a PORTS <<<"$(free_ports 6)"
CLUSTER=""
for i in 0 1 2; do CLUSTER+="${CLUSTER:+,}m$i=http://127.0.0.1:${PORTS[$((i * 2 + 1))]}"; done
ENDPOINTS=""
for i in 0 1 2; do ENDPOINTS+="${ENDPOINTS:+,}http://127.0.0.1:${PORTS[$((i * 2))]}"; done

ETCD_PIDS=(0 0 0)
start_member() {
  local i=$1
  etcd --name "m$i" --data-dir "$OUT/etcd-m$i" \
    --listen-client-urls "http://127.0.0.1:${PORTS[$((i * 2))]}" \
    --advertise-client-urls "http://127.0.0.1:${PORTS[$((i * 2))]}" \
    --listen-peer-urls "http://127.0.0.1:${PORTS[$((i * 2 + 1))]}" \
    --initial-advertise-peer-urls "http://127.0.0.1:${PORTS[$((i * 2 + 1))]}" \
    --initial-cluster "$CLUSTER" --initial-cluster-state new --initial-cluster-token bench \
    >"$OUT/etcd-m$i.log" 2>&1 &
  ETCD_PIDS[$i]=$!
  PIDS+=($!)
}

echo "== start: etcd members on ${ENDPOINTS}"
for i in 0 1 2; do start_member "$i"; done

mkdir -p "$OUT/config/schemas"
cp config/schemas/*.json "$OUT/config/schemas/"
cat >"$OUT/config/server.json" <<EOF
{"registryStore": "etcd", "etcdEndpoints": "$ENDPOINTS", "etcdPrefix": "/bench/", "adminToken": "bench",
 "accessLog": false, "drainGraceMs": 0}
EOF
REPLICA_PORTS=()
read -r -a REPLICA_PORTS <<<"$(free_ports 3)"
for i in 0 1 2; do
  "$BINARY" serve --config "$OUT/config" --host 127.0.0.1 --port "${REPLICA_PORTS[$i]}" \
    >"$OUT/replica-$i.out" 2>"$OUT/replica-$i.err" &
  PIDS+=($!)
done

export OUT WRITES SECONDS_RUN FAILOVERS ENDPOINTS CLUSTER
export REPLICAS="${REPLICA_PORTS[*]}"
export ETCD_PIDS_TEXT="${ETCD_PIDS[*]}"

# The measurements. An etcd member killed for a failover run is restarted from here, its PID written to
# OUT/restarted-pids so that the exit trap stops it too.
python3 - <<'PY'
import http.client, json, os, signal, statistics, subprocess, sys, threading, time

out = os.environ["OUT"]
replicas = [int(p) for p in os.environ["REPLICAS"].split()]
endpoints = os.environ["ENDPOINTS"].split(",")
auth = {"Authorization": "Bearer bench", "Content-Type": "application/json"}


def request(port, method, path, body=None, headers=None, timeout=10):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def wait(what, condition, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if condition():
                return
        except OSError:
            pass
        time.sleep(0.05)
    sys.exit(f"timed out waiting for {what}")


def document(tag):
    return json.dumps({"properties": {"id": "int64", "note": {"type": "string", "default": tag}}})


for port in replicas:
    wait(f"replica {port} ready", lambda: request(port, "GET", "/ready")[0] == 200)
print("== replicas ready", flush=True)

# Propagation.
samples = []
for i in range(int(os.environ["WRITES"])):
    writer, reader = replicas[i % 3], replicas[(i + 1) % 3]
    status, headers, _ = request(writer, "PUT", "/schemas/Bench", document(f"write {i}"), auth)
    if status not in (200, 201):
        sys.exit(f"write {i} answered {status}")
    etag = headers["ETag"]
    start = time.monotonic()
    while True:
        status, headers, _ = request(reader, "GET", "/schemas/Bench")
        if status == 200 and headers.get("ETag") == etag:
            break
        if time.monotonic() - start > 30:
            sys.exit(f"write {i} did not propagate within 30 s")
        time.sleep(0.01)
    samples.append(time.monotonic() - start)
samples.sort()
p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
propagation = {"writes": len(samples), "p50_ms": statistics.median(samples) * 1000, "p99_ms": p99 * 1000,
               "max_ms": samples[-1] * 1000}
print(f"== propagation: {propagation}", flush=True)

# Throughput.
seconds = float(os.environ["SECONDS_RUN"])
counts = {"ok": 0, "failed": 0}
lock = threading.Lock()


def writer(index):
    port = replicas[index]
    deadline = time.monotonic() + seconds
    n = 0
    while time.monotonic() < deadline:
        status, _, _ = request(port, "PUT", f"/schemas/T{index}x{n % 10}", document(f"{index} {n}"), auth)
        with lock:
            counts["ok" if status in (200, 201) else "failed"] += 1
        n += 1


threads = [threading.Thread(target=writer, args=(i,)) for i in range(3)]
started = time.monotonic()
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
elapsed = time.monotonic() - started
throughput = {"seconds": round(elapsed, 2), "accepted": counts["ok"], "failed": counts["failed"],
              "writes_per_second": counts["ok"] / elapsed}
metrics = request(replicas[0], "GET", "/metrics")[2].decode()
conflicts = [line for line in metrics.splitlines() if line.startswith("transform_registry_write_conflicts_total")]
throughput["conflicts_on_replica_0"] = int(conflicts[0].split()[1]) if conflicts else None
print(f"== throughput: {throughput}", flush=True)

# Failover.
etcd_pids = [int(p) for p in os.environ["ETCD_PIDS_TEXT"].split()]


def leader():
    for index, endpoint in enumerate(endpoints):
        port = int(endpoint.rsplit(":", 1)[1])
        try:
            status, _, body = request(port, "POST", "/v3/maintenance/status", "{}", timeout=2)
        except OSError:
            continue
        if status == 200:
            answer = json.loads(body)
            if answer.get("leader") == answer["header"]["member_id"]:
                return index
    return None


failovers = []
for run in range(int(os.environ["FAILOVERS"])):
    wait("an etcd leader", lambda: leader() is not None)
    index = leader()
    killed = time.monotonic()
    os.kill(etcd_pids[index], signal.SIGKILL)
    n = 0
    while True:
        n += 1
        try:
            status, _, _ = request(replicas[n % 3], "PUT", "/schemas/Failover", document(f"{run} {n}"), auth)
        except OSError:
            status = 0
        if status in (200, 201):
            break
        if time.monotonic() - killed > 60:
            sys.exit("writes did not resume within 60 s")
        time.sleep(0.01)
    failovers.append((time.monotonic() - killed) * 1000)
    print(f"== failover {run}: {failovers[-1]:.0f} ms", flush=True)
    client, peer = endpoints[index], os.environ["CLUSTER"].split(",")[index].split("=", 1)[1]
    member = subprocess.Popen(
        ["etcd", "--name", f"m{index}", "--data-dir", os.path.join(out, f"etcd-m{index}"),
         "--listen-client-urls", client, "--advertise-client-urls", client, "--listen-peer-urls", peer,
         "--initial-advertise-peer-urls", peer, "--initial-cluster", os.environ["CLUSTER"],
         "--initial-cluster-state", "new", "--initial-cluster-token", "bench"],
        stdout=subprocess.DEVNULL, stderr=open(os.path.join(out, f"etcd-m{index}-{run}.log"), "w"))
    etcd_pids[index] = member.pid
    with open(os.path.join(out, "restarted-pids"), "a") as f:
        f.write(f"{member.pid}\n")

results = {"propagation": propagation, "throughput": throughput, "failover_ms": failovers}
with open(os.path.join(out, "results-cluster.json"), "w") as f:
    json.dump(results, f, indent=2)
print()
print("| measure | value |")
print("|---|---|")
print(f"| propagation p50 / p99 / max ({propagation['writes']} writes) | {propagation['p50_ms']:.1f} / "
      f"{propagation['p99_ms']:.1f} / {propagation['max_ms']:.1f} ms |")
print(f"| writes accepted per second, three writers on three replicas ({throughput['seconds']} s) | "
      f"{throughput['writes_per_second']:.0f} ({throughput['failed']} failed) |")
print(f"| failover: etcd leader killed -> next write 200 | {', '.join(f'{f:.0f}' for f in failovers)} ms |")
PY
echo "results: $OUT/results-cluster.json"
