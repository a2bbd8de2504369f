#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Helpers and the report for scripts/bench-http.sh (standard library only, except matplotlib for the chart).

    report_http.py free-port
        a free TCP port on 127.0.0.1 (bound, then released)
    report_http.py tree PID
        PID and its descendants' PIDs, space-separated
    report_http.py procs PID
        {"pids": [...], "cpu_s": utime+stime, "rss_kb": VmRSS, "hwm_kb": VmHWM} summed over PID and its descendants
    report_http.py same-json A B
        exit 0 when files A and B hold equal JSON values (key order ignored), else print the differences, exit 1
    report_http.py wrk-run OUT_JSONL WRK_OUTPUT PROCS_BEFORE PROCS_AFTER --server S --conns N [--note T] [--pinned]
        parse one wrk run (wrk's summary and post.lua's BENCH_RESULT line), append the result to OUT_JSONL
        (unless it is "-"); exit 1 on any socket error or non-2xx answer, or when the run is unreadable
    report_http.py idle-result OUT_DIR --expected N --measured-after S --opened-in S
        OUT_DIR/idle-client.log, idle-procs-{before,held}.json and idle-health.txt -> OUT_DIR/idle.json; exit 1 when
        a connection failed, the server closed one, a /health failed, or the measurement came later than 60 s
    report_http.py report OUT_DIR [--publish REPO_DIR]
        OUT_DIR/runs.jsonl + idle.json + machine.json -> OUT_DIR/results-http.json, a markdown table on standard
        output (also OUT_DIR/bench-http-results.md) and OUT_DIR/bench-http.png; --publish copies the chart to
        REPO_DIR/docs/images/bench-http.png and the tables to REPO_DIR/docs/bench-http-results.md
"""
import argparse
import json
import os
import platform
import re
import shutil
import socket
import statistics
import subprocess
import sys
import time
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path

from report_core import cpu_model, first_difference  # Benchmarks/, this script's folder, is on sys.path

OURS = "TransformServer"
# Targets from the issue, shown next to the results (not pass/fail).
TARGET_RATIO_VS_NGINX = 0.9
TARGET_CPU_US = 20.0
TARGET_P99_MS = 2.0
TARGET_RSS_MB = 30.0
TARGET_IDLE_RSS_MB = 200.0
TARGET_IDLE_HEALTH_MS = 5.0


# ---------------------------------------------------------------------------------------------------------------
# /proc

def _children_map():
    """ppid -> [pid] for every process visible in /proc."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path("/proc", entry, "stat").read_text()
        except OSError:
            continue
        # The command name (field 2) is in parentheses and may hold spaces: split after its last ")".
        fields = stat[stat.rindex(")") + 2:].split()
        children.setdefault(int(fields[1]), []).append(int(entry))
    return children


def process_tree(pid):
    """pid and all its descendants (breadth first)."""
    children = _children_map()
    tree, queue = [], [pid]
    while queue and len(tree) < 1000:
        current = queue.pop(0)
        tree.append(current)
        queue.extend(children.get(current, []))
    return tree


def procs(pid):
    """CPU seconds (user + system, every thread) and memory summed over a process tree."""
    ticks = os.sysconf("SC_CLK_TCK")
    result = {"pids": [], "cpu_s": 0.0, "rss_kb": 0, "hwm_kb": 0}
    for p in process_tree(pid):
        try:
            stat = Path("/proc", str(p), "stat").read_text()
            status = Path("/proc", str(p), "status").read_text()
        except OSError:
            continue  # exited meanwhile
        fields = stat[stat.rindex(")") + 2:].split()
        # Fields 14 and 15 of /proc/PID/stat (utime, stime) are at 11 and 12 after the command name.
        result["cpu_s"] += (int(fields[11]) + int(fields[12])) / ticks
        for line in status.splitlines():
            if line.startswith("VmRSS:"):
                result["rss_kb"] += int(line.split()[1])
            elif line.startswith("VmHWM:"):
                result["hwm_kb"] += int(line.split()[1])
        result["pids"].append(p)
    result["cpu_s"] = round(result["cpu_s"], 3)
    # The whole machine's busy time (every CPU), to tell how much else ran during a measurement.
    cpu = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    # Columns: user nice system idle iowait irq softirq steal. Process time (user, nice, system) plus steal (the
    # hypervisor's other guests); interrupt time apart: on loopback it is mostly the benchmark's own packets.
    result["machine_busy_s"] = round((cpu[0] + cpu[1] + cpu[2] + cpu[7]) / ticks, 3)
    result["machine_irq_s"] = round((cpu[5] + cpu[6]) / ticks, 3)
    result["machine_steal_s"] = round(cpu[7] / ticks, 3)
    result["wall_s"] = round(time.time(), 3)
    return result


# ---------------------------------------------------------------------------------------------------------------
# wrk

def parse_wrk(text):
    """The numbers of one wrk run, and the reasons it failed (empty when it did not)."""
    failures = []
    match = re.search(r"^BENCH_RESULT (\{.*\})$", text, re.M)
    if not match:
        return None, ["no BENCH_RESULT line in wrk's output (did wrk or post.lua fail?)"]
    run = json.loads(match.group(1))
    # post.lua reports wrk's own error counters (connect, read, write, status, timeout): the numbers behind
    # wrk's "Socket errors" and "Non-2xx or 3xx responses" lines.
    if run["non2xx"]:
        failures.append("post.lua counted %d non-2xx responses (the first was %d)"
                        % (run["non2xx"], run["first_bad_status"]))
    if any(run["errors"].values()):
        failures.append("wrk errors: %s" % json.dumps(run["errors"]))
    if run["requests"] <= 0:
        failures.append("no requests completed")
    rps = re.search(r"^Requests/sec:\s+([\d.]+)", text, re.M)
    run["rps"] = float(rps.group(1)) if rps else run["requests"] / (run["duration_us"] / 1e6)
    return run, failures


def wrk_run(args):
    text = Path(args.wrk_output).read_text()
    run, failures = parse_wrk(text)
    before = json.loads(Path(args.before).read_text())
    after = json.loads(Path(args.after).read_text())
    result = {"server": args.server, "conns": args.conns, "note": args.note, "pinned": args.pinned}
    if run is not None:
        cpu_s = after["cpu_s"] - before["cpu_s"]
        wall = max(after["wall_s"] - before["wall_s"], 1e-3)  # the window the /proc samples span
        result.update({
            "rps": round(run["rps"], 1),
            "requests": run["requests"],
            "duration_s": round(run["duration_us"] / 1e6, 3),
            "p50_ms": run["latency_us"]["p50"] / 1e3,
            "p90_ms": run["latency_us"]["p90"] / 1e3,
            "p99_ms": run["latency_us"]["p99"] / 1e3,
            "p999_ms": run["latency_us"]["p999"] / 1e3,
            "max_ms": run["latency_us"]["max"] / 1e3,
            "server_cpu_s": round(cpu_s, 3),
            "cpu_us_per_req": round(cpu_s * 1e6 / run["requests"], 2) if run["requests"] else None,
            "rss_mb": round(after["rss_kb"] / 1024, 1),
            "hwm_mb": round(after["hwm_kb"] / 1024, 1),
            "processes": len(after["pids"]),
            "wrk_cpu_s": args.wrk_cpu,
            # CPU used by everything but the server and wrk during the run, in % of one core: other work on
            # this shared machine that the numbers above had to compete with.
            "other_cpu_pct": None if args.wrk_cpu is None else round(max(0.0, (
                after["machine_busy_s"] - before["machine_busy_s"] - cpu_s - args.wrk_cpu)) * 100 / wall, 1),
            "irq_pct": round((after["machine_irq_s"] - before["machine_irq_s"]) * 100 / wall, 1),
            "steal_pct": round((after["machine_steal_s"] - before["machine_steal_s"]) * 100 / wall, 1),
        })
    result["failures"] = failures
    if args.out != "-":
        with open(args.out, "a") as out:
            out.write(json.dumps(result) + "\n")
    if run is not None:
        print("    %-28s c=%-4d %9.0f req/s  p50 %6.2f ms  p99 %6.2f ms  cpu %6.1f us/req  rss %6.1f MB (peak %.1f)"
              "  other load %s%%"
              % (_label(result), args.conns, result["rps"], result["p50_ms"], result["p99_ms"],
                 result["cpu_us_per_req"] or 0, result["rss_mb"], result["hwm_mb"], result["other_cpu_pct"]))
    for failure in failures:
        print("    FAILED: %s: %s" % (args.server, failure))
    return 1 if failures else 0


# ---------------------------------------------------------------------------------------------------------------
# JSON comparison

def same_json(args):
    difference = first_difference(json.loads(Path(args.a).read_bytes()), json.loads(Path(args.b).read_bytes()))
    if difference:
        print("    %s: %s" % (difference[0] or "/", difference[1]))
    return 1 if difference else 0


# ---------------------------------------------------------------------------------------------------------------
# Idle connections

def idle_result(args):
    out = Path(args.out_dir)
    events = []
    for line in (out / "idle-client.log").read_text().splitlines():
        try:
            events.append(json.loads(line))
        except ValueError:
            events.append({"event": "output", "text": line})
    failures = []
    holding = next((e for e in events if e["event"] == "holding"), None)
    done = next((e for e in events if e["event"] == "done"), None)
    for e in events:
        if e["event"] == "error":
            failures.append("the client failed with %d connections open after %.0f ms: %s"
                            % (e["open"], e["ms"], e["message"]))
        elif e["event"] == "output":
            failures.append("client: " + e["text"])
    if holding is None:
        failures.append("the client never held every connection")
    elif holding["open"] != args.expected:
        failures.append("held %d connections, not %d" % (holding["open"], args.expected))
    if done is not None and done["closedByServer"]:
        failures.append("the server closed %d idle connections while they were held" % done["closedByServer"])
    samples = []
    for line in (out / "idle-health.txt").read_text().splitlines():
        status, seconds = line.split()
        if status != "200":
            failures.append("a fresh-connection /health answered %s" % status)
        else:
            samples.append(float(seconds) * 1e3)
    if args.measured_after > 60:
        failures.append("measured %.1f s after the last request (more than 60 s)" % args.measured_after)
    before = json.loads((out / "idle-procs-before.json").read_text())
    held_path = out / "idle-procs-held.json"
    held = json.loads(held_path.read_text()) if held_path.exists() else None
    ordered = sorted(samples)
    result = {
        "connections": args.expected,
        "held": holding["open"] if holding else 0,
        "open_s": round(holding["ms"] / 1e3, 2) if holding else None,
        "opened_in_s": args.opened_in,
        "closed_by_server": done["closedByServer"] if done else None,
        "rss_before_mb": round(before["rss_kb"] / 1024, 1),
        "rss_held_mb": round(held["rss_kb"] / 1024, 1) if held else None,
        "hwm_mb": round(held["hwm_kb"] / 1024, 1) if held else None,
        "health_samples": len(samples),
        "health_median_ms": round(ordered[len(ordered) // 2], 3) if ordered else None,
        "health_max_ms": round(ordered[-1], 3) if ordered else None,
        "health_ms": [round(s, 3) for s in samples],  # in the order they were taken
        "measured_within_s": args.measured_after,
        "failures": failures,
    }
    (out / "idle.json").write_text(json.dumps(result, indent=2) + "\n")
    print("    idle: %s connections held, RSS %s MB (before %s MB), fresh /health median %s ms, max %s ms, "
          "measured %.1f s after the last request"
          % (result["held"], result["rss_held_mb"], result["rss_before_mb"], result["health_median_ms"],
             result["health_max_ms"], args.measured_after))
    for f in failures:
        print("    FAILED: idle connections: " + f)
    return 1 if failures else 0


# ---------------------------------------------------------------------------------------------------------------
# Machine information

def _first_line(command):
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=30)
        return (done.stdout + done.stderr).strip().splitlines()[0]
    except (OSError, IndexError, subprocess.TimeoutExpired):
        return None


def machine():
    versions = {}
    for package in ("fastapi", "pydantic", "pydantic-core", "starlette", "uvicorn", "uvloop", "httptools",
                    "matplotlib"):
        try:
            versions[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            versions[package] = None
    return {
        "date_utc": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "nproc": os.cpu_count(),
        "cpu_model": cpu_model(),
        "kernel": platform.release(),
        "python": platform.python_version(),
        "nginx": _first_line([os.environ.get("BENCH_NGINX") or shutil.which("nginx") or "/usr/sbin/nginx", "-v"]),
        "wrk": _first_line(["wrk", "-v"]),
        "swift": _first_line(["swift", "--version"]),
        "somaxconn": Path("/proc/sys/net/core/somaxconn").read_text().strip(),
        "loadavg_at_report": Path("/proc/loadavg").read_text().strip(),
        "packages": versions,
    }


# ---------------------------------------------------------------------------------------------------------------
# Report

def _fmt(value, spec):
    return "—" if value is None else format(value, spec)


def _label(run):
    label = run["server"]
    if run.get("note"):
        label += " " + run["note"]
    if run.get("pinned"):
        label += " (pinned)"
    return label


def _pass(run):
    """The pass a run belongs to ("pass2"), or "" for the runs outside the passes."""
    note = run.get("note") or ""
    return note if re.fullmatch(r"pass\d+", note) else ""


def _passes(results):
    count = results["settings"].get("passes", 0)
    return "%d pass%s" % (count, "" if count == 1 else "es")


def pass_medians(runs, conns):
    """Per server, over its unpinned runs at `conns` in the passes: the median req/s, CPU per request and p99 (each
    on its own), and every pass's req/s."""
    by_server = {}
    for r in runs:
        if _pass(r) and r["conns"] == conns and not r.get("pinned") and r.get("rps") is not None:
            by_server.setdefault(r["server"], []).append(r)

    def median(rs, key):
        values = [r[key] for r in rs if r.get(key) is not None]
        return statistics.median(values) if values else None

    return {server: {"passes": [r["rps"] for r in rs], "failed_passes": sum(1 for r in rs if r["failures"]),
                     "rps": median(rs, "rps"), "cpu_us_per_req": median(rs, "cpu_us_per_req"),
                     "p99_ms": median(rs, "p99_ms")}
            for server, rs in by_server.items()}


def markdown(results):
    runs = results["runs"]
    # Each row is compared with ours at the same connection count, pinning and pass (hash=true with plain ours).
    ours = {(r["conns"], bool(r.get("pinned")), _pass(r)): r["rps"] for r in runs
            if r["server"] == OURS and (not r.get("note") or _pass(r)) and "rps" in r}
    lines = []
    m = results["machine"]
    lines.append("HTTP benchmark, %s, %s × %s, wrk -t1 -d%ss%s" % (
        m["date_utc"], m["nproc"], m["cpu_model"], results["settings"]["duration_s"],
        " (smoke run: short and partial)" if results["settings"]["smoke"] else ""))
    pace = m.get("host_pace_ms", {})
    lines.append("")
    lines.append("Host pace (`Benchmarks/pace.py`, a fixed Python loop): %s ms before the runs, %s ms after (about "
                 "100 ms when this machine is quiet; a slower pace slows every figure with it)." % tuple(
                     "%.0f" % pace[moment] if moment in pace else "?" for moment in ("before", "after")))
    lines.append("")
    lines.append("| server | conns | req/s | p50 ms | p99 ms | CPU µs/req | RSS MB | peak RSS MB | req/s ÷ ours "
                 "| other load % |")
    lines.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in runs:
        if "rps" not in r:
            lines.append("| %s | %d | failed: %s |  |  |  |  |  |  |  |"
                         % (_label(r), r["conns"], "; ".join(r["failures"])))
            continue
        base = ours.get((r["conns"], bool(r.get("pinned")), _pass(r)))
        ratio = r["rps"] / base if base else None
        lines.append("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            _label(r) + (" **(failed)**" if r["failures"] else ""), r["conns"], _fmt(r["rps"], ",.0f"),
            _fmt(r["p50_ms"], ".2f"), _fmt(r["p99_ms"], ".2f"),
            _fmt(r["cpu_us_per_req"], ".1f"), _fmt(r["rss_mb"], ".1f"), _fmt(r["hwm_mb"], ".1f"),
            _fmt(ratio, ".2f"), _fmt(r.get("other_cpu_pct"), ".0f")))
    lines.append("")
    lines.append("CPU µs/req: the server's user + system time (/proc, every process and thread) over the run ÷ "
                 "requests. RSS: VmRSS after the run; peak: VmHWM. Other load: CPU used by neither the server nor "
                 "wrk during the run (process time and steal, not interrupt time), in % of one core: others' work on "
                 "this shared machine that the servers competed with.")
    conns = results["settings"]["main_conns"]
    medians = pass_medians(runs, conns)
    if medians:
        lines.append("")
        lines.append("At %d connections, median of %s (the rows marked pass*; each pass starts every server "
                     "afresh, in turn):" % (conns, _passes(results)))
        lines.append("")
        lines.append("| server | req/s per pass | median req/s | median CPU µs/req | median p99 ms | req/s ÷ ours |")
        lines.append("|---|---|---:|---:|---:|---:|")
        base = medians.get(OURS, {}).get("rps")
        for server, m in medians.items():
            lines.append("| %s | %s | %s | %s | %s | %s |" % (
                server + (" **(%d failed)**" % m["failed_passes"] if m["failed_passes"] else ""),
                " / ".join(format(x, ",.0f") for x in m["passes"]), _fmt(m["rps"], ",.0f"),
                _fmt(m["cpu_us_per_req"], ".1f"), _fmt(m["p99_ms"], ".2f"),
                _fmt(m["rps"] / base if base else None, ".2f")))
    idle = results.get("idle")
    if idle:
        lines.append("")
        lines.append("Idle keep-alive connections (%s):" % OURS)
        lines.append("")
        lines.append("| connections held | opened in | RSS before | RSS held | peak RSS | fresh `/health` median "
                     "| max | measured after last request | closed by server |")
        lines.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        lines.append("| %s | %s s | %s MB | %s MB | %s MB | %s ms | %s ms | %s s | %s |" % (
            _fmt(idle.get("held"), ","), _fmt(idle.get("open_s"), ".1f"), _fmt(idle.get("rss_before_mb"), ".1f"),
            _fmt(idle.get("rss_held_mb"), ".1f"), _fmt(idle.get("hwm_mb"), ".1f"),
            _fmt(idle.get("health_median_ms"), ".2f"), _fmt(idle.get("health_max_ms"), ".2f"),
            _fmt(idle.get("measured_within_s"), ".1f"), _fmt(idle.get("closed_by_server"), "d")))
        if idle.get("failures"):
            lines.append("")
            lines.append("Idle test failures: " + "; ".join(idle["failures"]))
    lines.append("")
    lines.append("Targets (informational):")
    lines.append("")
    for name, value, target, ok in targets(results):
        lines.append("- %s: %s (target %s) %s" % (name, value, target, "— met" if ok else "— **not met**"))
    if results.get("failures"):
        lines.append("")
        lines.append("**Run failures:**")
        for f in results["failures"]:
            lines.append("- " + f)
    return "\n".join(lines) + "\n"


def _find(runs, server, conns, note="", pinned=False):
    for r in runs:
        if (r["server"] == server and r["conns"] == conns and (r.get("note") or "") == note
                and bool(r.get("pinned")) == pinned and "rps" in r):
            return r
    return None


def targets(results):
    """(name, measured, target, met) for each target the run has numbers for."""
    runs, out = results["runs"], []
    conns = results["settings"]["main_conns"]
    # The unpinned headline figures: each server's median pass when there are passes, else its one run.
    medians = pass_medians(runs, conns)
    how = " (median of %s)" % _passes(results) if OURS in medians else ""
    # A server without passes (a failed start, say) falls back to its one run.
    headline = lambda server: (medians.get(server) if how else None) or _find(runs, server, conns)
    ours = headline(OURS)
    if ours:
        for nginx in sorted({r["server"] for r in runs if r["server"].startswith("nginx")}):
            peer = headline(nginx)
            if peer:
                ratio = ours["rps"] / peer["rps"]
                peer_how = how if nginx in medians else how and " (ours: median of %s; %s: one run)" % (
                    _passes(results), nginx)
                out.append(("%s req/s ÷ %s at %d conns%s" % (OURS, nginx, conns, peer_how), "%.2f" % ratio,
                            "≥ %.1f" % TARGET_RATIO_VS_NGINX, ratio >= TARGET_RATIO_VS_NGINX))
        pinned_ours = _find(runs, OURS, conns, pinned=True)
        pinned_nginx = _find(runs, "nginx 1w", conns, pinned=True)
        if pinned_ours and pinned_nginx:
            ratio = pinned_ours["rps"] / pinned_nginx["rps"]
            out.append(("%s req/s ÷ nginx 1w at %d conns, both pinned" % (OURS, conns), "%.2f" % ratio,
                        "≥ %.1f" % TARGET_RATIO_VS_NGINX, ratio >= TARGET_RATIO_VS_NGINX))
        cpu, p99 = ours["cpu_us_per_req"], ours["p99_ms"]  # None when no run answered a request
        out.append(("server CPU per request at %d conns%s" % (conns, how), _fmt(cpu, ".1f") + " µs",
                    "≤ %.0f µs" % TARGET_CPU_US, cpu is not None and cpu <= TARGET_CPU_US))
        out.append(("p99 at %d conns, unpinned%s" % (conns, how), _fmt(p99, ".2f") + " ms",
                    "≤ %.0f ms" % TARGET_P99_MS, p99 is not None and p99 <= TARGET_P99_MS))
        pinned = _find(runs, OURS, conns, pinned=True)
        if pinned:
            out.append(("p99 at %d conns, server and wrk pinned to separate cores" % conns,
                        "%.2f ms" % pinned["p99_ms"], "≤ %.0f ms" % TARGET_P99_MS, pinned["p99_ms"] <= TARGET_P99_MS))
        peak = max(r["hwm_mb"] for r in runs if r["server"] == OURS and "hwm_mb" in r)
        out.append(("RSS under load (peak VmHWM over every run of ours)", "%.1f MB" % peak,
                    "≤ %.0f MB" % TARGET_RSS_MB, peak <= TARGET_RSS_MB))
    idle = results.get("idle")
    if idle and idle.get("rss_held_mb") is not None:
        out.append(("RSS holding %s idle connections" % format(idle["held"], ","), "%.1f MB" % idle["rss_held_mb"],
                    "≤ %.0f MB" % TARGET_IDLE_RSS_MB, idle["rss_held_mb"] <= TARGET_IDLE_RSS_MB))
        out.append(("fresh-connection /health while they are held (max of %d)" % idle["health_samples"],
                    "%.2f ms" % idle["health_max_ms"], "< %.0f ms" % TARGET_IDLE_HEALTH_MS,
                    idle["health_max_ms"] < TARGET_IDLE_HEALTH_MS))
    return out


def chart(results, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    runs = [r for r in results["runs"] if "rps" in r and not _pass(r)]  # the passes have their own table
    labels = []
    for r in runs:
        if _label(r) not in labels:
            labels.append(_label(r))
    conns = sorted({r["conns"] for r in runs})
    width = 0.8 / len(conns)
    fig, ax = plt.subplots(figsize=(max(7, 1.3 * len(labels)), 4.5))
    for i, c in enumerate(conns):
        xs, ys = [], []
        for j, label in enumerate(labels):
            r = next((r for r in runs if _label(r) == label and r["conns"] == c), None)
            if r:
                xs.append(j - 0.4 + width * (i + 0.5))
                ys.append(r["rps"])
        bars = ax.bar(xs, ys, width, label="%d conns" % c)
        ax.bar_label(bars, labels=["%.0fk" % (y / 1e3) if y >= 1e3 else "%.0f" % y for y in ys], fontsize=7)
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels([l.replace(" ", "\n", 1) for l in labels], fontsize=8)
    ax.set_ylabel("requests / s")
    m = results["machine"]
    ax.set_title("POST /convert/GithubUser, wrk -t1 -d%ss, %s cores (%s)"
                 % (results["settings"]["duration_s"], m["nproc"], m["cpu_model"]), fontsize=9)
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def report(args):
    out = Path(args.out_dir)
    runs = [json.loads(line) for line in (out / "runs.jsonl").read_text().splitlines() if line.strip()]
    idle_path = out / "idle.json"
    idle = json.loads(idle_path.read_text()) if idle_path.exists() else None
    settings = json.loads((out / "settings.json").read_text())
    failures = [("%s at %d conns: %s" % (_label(r), r["conns"], f)) for r in runs for f in r["failures"]]
    failures += [line for line in settings.pop("failures", [])]
    if idle:
        failures += ["idle test: " + f for f in idle.get("failures", [])]
    results = {"machine": machine(), "settings": settings, "runs": runs, "idle": idle, "failures": failures}
    results["machine"]["host_pace_ms"] = {moment: float((out / ("pace." + moment)).read_text())
                                          for moment in ("before", "after") if (out / ("pace." + moment)).exists()}
    results["targets"] = [{"name": n, "value": v, "target": t, "met": ok} for n, v, t, ok in targets(results)]
    (out / "results-http.json").write_text(json.dumps(results, indent=2) + "\n")
    text = markdown(results)
    (out / "bench-http-results.md").write_text("# HTTP benchmark results\n\n" + text)
    sys.stdout.write(text)
    try:
        chart(results, out / "bench-http.png")
        print("\nchart: %s" % (out / "bench-http.png"))
    except ImportError:
        print("\nmatplotlib is missing: no chart")
    if args.publish:
        repo = Path(args.publish)
        (repo / "docs" / "images").mkdir(parents=True, exist_ok=True)
        if (out / "bench-http.png").exists():
            shutil.copyfile(out / "bench-http.png", repo / "docs" / "images" / "bench-http.png")
        (repo / "docs" / "bench-http-results.md").write_text(
            "# HTTP benchmark results\n\nWritten by `scripts/bench-http.sh --publish`; see the script's header for "
            "what is measured and how.\n\n![requests per second](images/bench-http.png)\n\n" + text)
        print("published: docs/images/bench-http.png, docs/bench-http-results.md")
    return 0


# ---------------------------------------------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("free-port")
    p = sub.add_parser("tree")
    p.add_argument("pid", type=int)
    p = sub.add_parser("procs")
    p.add_argument("pid", type=int)
    p = sub.add_parser("same-json")
    p.add_argument("a")
    p.add_argument("b")
    p = sub.add_parser("wrk-run")
    p.add_argument("out")
    p.add_argument("wrk_output")
    p.add_argument("before")
    p.add_argument("after")
    p.add_argument("--server", required=True)
    p.add_argument("--conns", type=int, required=True)
    p.add_argument("--note", default="")
    p.add_argument("--pinned", action="store_true")
    p.add_argument("--wrk-cpu", type=float, help="wrk's user + system CPU seconds")
    p = sub.add_parser("idle-result")
    p.add_argument("out_dir")
    p.add_argument("--expected", type=int, required=True)
    p.add_argument("--measured-after", type=float, required=True)
    p.add_argument("--opened-in", type=float, required=True)
    p = sub.add_parser("report")
    p.add_argument("out_dir")
    p.add_argument("--publish")
    args = parser.parse_args()

    if args.command == "free-port":
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            print(s.getsockname()[1])
        return 0
    if args.command == "tree":
        print(" ".join(map(str, process_tree(args.pid))))
        return 0
    if args.command == "procs":
        print(json.dumps(procs(args.pid)))
        return 0
    if args.command == "same-json":
        return same_json(args)
    if args.command == "wrk-run":
        return wrk_run(args)
    if args.command == "idle-result":
        return idle_result(args)
    return report(args)


if __name__ == "__main__":
    sys.exit(main())
