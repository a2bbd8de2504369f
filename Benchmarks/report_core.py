#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The checking and reporting half of scripts/bench-core.sh.

    report_core.py verify --label NAME --expected FILE --actual FILE
        Compares two JSON documents semantically (object key order aside; numbers, bools and null by type and
        value) and exits 1, naming the first differing JSON Pointer, when they differ.

    report_core.py report --raw DIR --out DIR --seconds N --passes N --configuration release|debug [--smoke]
                          [--publish DOCS_DIR]
        Reads the timing lines DIR/<workload>.<peer>.<pass>.json, keeps each peer's median pass, writes
        OUT/results-core.json (machine, tools, ns per op, every pass) and OUT/bench-core.png (the ratios, with matplotlib), and prints the markdown tables: microseconds per
        operation, and each peer's time divided by ours (>1: TransformServer is faster). --publish also writes
        DOCS_DIR/bench-core-results.md and DOCS_DIR/images/bench-core.png.
"""
import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path

# Workloads and peers in table order. "ours" is TransformBench (MapperCore).
WORKLOADS = [
    ("github-user", "GitHub user"),
    ("timeline", "Weibo timeline"),
    ("users-1000", "1,000 GitHub users"),
    ("users-1000-2w", "1,000 GitHub users, ours on 2 workers"),
]
PEERS = [
    ("ours", "ours"),
    ("codable", "Codable"),
    ("pydantic", "pydantic"),
    ("msgspec", "msgspec"),
    ("orjson", "orjson (untyped)"),
    ("simdjson", "simdjson (parse only)"),
]
# How each one does the work, for the published page.
SETUPS = [
    "**ours**: TransformBench, MapperCore's conversion without HTTP (schemas from `config/schemas` and "
    "`Benchmarks/schemas`), on one thread, with the server's options (a success answers its warnings' count and "
    "codes, so their pointers are not rendered: `keepsEntries` off); in the row \"ours on 2 workers\" the batch is cut "
    "into two runs converted at once (`--workers 2`, as the server does by default on a 2-core machine), while the "
    "peers still use one thread, as they do in their own rows.",
    "**Codable**: `Benchmarks/Codable`, JSONDecoder then JSONEncoder; structs (a final class for the status, which "
    "holds itself) whose `init(from:)` reads the schema's keys, defaults absent or null numbers to 0/false and reads "
    "`province`, `city` and `next_cursor` from strings; `URL` for url properties; dates with `.iso8601` (GitHub) or a "
    "cached `DateFormatter` (Weibo), written with `.iso8601`.",
    "**pydantic**: `model_validate_json` then `model_dump_json(exclude_none=True)`; validation aliases, lax mode, "
    "`BeforeValidator`s for null numbers and Weibo dates (`strptime`).",
    "**msgspec**: decode (`strict=False`) into Structs named by the schema's keys, `msgspec.convert` into Structs "
    "named by the properties (a msgspec rename applies both ways), encode with `omit_defaults`; `__post_init__` for "
    "null numbers and Weibo dates (`strptime`).",
    "**orjson**: `orjson.dumps(orjson.loads(body))`, no model: the floor for a parse and a write.",
    "**simdjson**: pysimdjson's `Parser.parse` and `len()` of the root, nothing written: the parse limit.",
]
PYTHON_PACKAGES = ["pydantic", "pydantic-core", "msgspec", "orjson", "pysimdjson", "matplotlib"]


# --- verify -----------------------------------------------------------------------------------------------------

def pointer_token(key):
    """One RFC 6901 reference token."""
    return str(key).replace("~", "~0").replace("/", "~1")


def first_difference(expected, actual, path=""):
    """(path, description) of the first place where the documents differ, or None. Objects are compared by keys
    (order ignored), arrays element by element; scalars must have the same JSON type: 1, 1.0 and true differ."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key, value in expected.items():
            here = path + "/" + pointer_token(key)
            if key not in actual:
                return here, "missing (expected %s)" % brief(value)
            difference = first_difference(value, actual[key], here)
            if difference:
                return difference
        for key, value in actual.items():
            if key not in expected:
                return path + "/" + pointer_token(key), "unexpected %s" % brief(value)
        return None
    if isinstance(expected, list) and isinstance(actual, list):
        for index, (left, right) in enumerate(zip(expected, actual)):
            difference = first_difference(left, right, "%s/%d" % (path, index))
            if difference:
                return difference
        if len(expected) != len(actual):
            return path, "%d elements, expected %d" % (len(actual), len(expected))
        return None
    if type(expected) is not type(actual) or expected != actual:
        return path, "%s, expected %s" % (brief(actual), brief(expected))
    return None


def brief(value, limit=120):
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + "…"


def verify(arguments):
    documents = []
    for name in (arguments.expected, arguments.actual):
        try:
            documents.append(json.loads(Path(name).read_bytes()))
        except (OSError, ValueError) as error:
            sys.exit("verify %s: cannot read %s as JSON: %s" % (arguments.label, name, error))
    difference = first_difference(*documents)
    if difference:
        path, description = difference
        sys.exit("verify %s: MISMATCH at %s: %s\n  expected: %s\n  actual:   %s"
                 % (arguments.label, path or "(root)", description, arguments.expected, arguments.actual))
    print("  %s: same" % arguments.label)


# --- report -----------------------------------------------------------------------------------------------------

def command_output(*command):
    """A command's standard output, or "unknown" when it cannot run."""
    try:
        return subprocess.run(command, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def cpu_model():
    """The CPU's model name from /proc/cpuinfo, or None."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None


def machine_info():
    """What the numbers depend on: cores, CPU model, kernel, date, and the versions of the tools compared."""
    cpu = cpu_model() or "unknown"
    swift = command_output("swift", "--version").splitlines()[0] if shutil.which("swift") else "unknown"
    tools = {"swift": swift.replace("Swift version ", ""), "python": platform.python_version()}
    for package in PYTHON_PACKAGES:
        try:
            tools[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            tools[package] = "not installed"
    return {
        "nproc": int(command_output("nproc")) if shutil.which("nproc") else os.cpu_count(),
        "cpu": cpu,
        "kernel": platform.release(),
        "date_utc": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "tools": tools,
    }


def load_results(raw):
    """{workload: {"input_bytes": n, "ns_per_op": {peer: ns}, "passes_ns_per_op": {peer: [ns, ...]}}} from the
    timing lines: each peer's figure is the median of its passes (the upper median for an even count)."""
    results = {}
    for workload, _ in WORKLOADS:
        entry = {"input_bytes": None, "ns_per_op": {}, "passes_ns_per_op": {}}
        for peer, _ in PEERS:
            paths = sorted(Path(raw).glob("%s.%s.*.json" % (workload, peer)))
            if not paths:
                continue
            lines = [json.loads(path.read_text()) for path in paths]
            passes = [line["ns_per_op"] for line in lines]
            entry["input_bytes"] = lines[0]["input_bytes"]
            entry["ns_per_op"][peer] = sorted(passes)[len(passes) // 2]
            entry["passes_ns_per_op"][peer] = passes
        if "ours" not in entry["ns_per_op"]:
            sys.exit("report: no timing of ours for %s in %s" % (workload, raw))
        counted = Path(raw) / ("%s.instructions" % workload)
        if counted.exists():
            entry["instructions_per_op"] = int(counted.read_text())
        results[workload] = entry
    return results


def load_averages(raw):
    """The 1, 5 and 15 minute load averages the script saved before and after timing."""
    load = {}
    for moment in ("before", "after"):
        path = Path(raw) / ("loadavg." + moment)
        if path.exists():
            load[moment] = [float(value) for value in path.read_text().split()]
    return load


def host_pace(raw):
    """Benchmarks/pace.py's milliseconds before and after timing, as the script saved them."""
    pace = {}
    for moment in ("before", "after"):
        path = Path(raw) / ("pace." + moment)
        if path.exists():
            pace[moment] = float(path.read_text())
    return pace


def pace_text(pace):
    return "%s ms before timing, %s ms after" % tuple(
        "%.0f" % pace[moment] if moment in pace else "?" for moment in ("before", "after"))


PACE_NOTE = "about 100 ms when this machine is quiet; a slower pace slows every figure with it"


def load_text(load, moment):
    return " / ".join("%.2f" % value for value in load[moment]) if moment in load else "?"


def ratios(results):
    """Peer time ÷ our time, per workload and peer (ours left out)."""
    return {workload: {peer: ns / entry["ns_per_op"]["ours"]
                       for peer, ns in entry["ns_per_op"].items() if peer != "ours"}
            for workload, entry in results.items()}


def size_text(count):
    if count >= 1_000_000:
        return "%.1f MB" % (count / 1_000_000)
    if count >= 1_000:
        return "%.1f KB" % (count / 1_000)
    return "%d B" % count


def micros_text(nanoseconds):
    micros = nanoseconds / 1_000
    if micros < 10:
        return "%.2f" % micros
    if micros < 100:
        return "%.1f" % micros
    return "{:,.0f}".format(micros)


def ratio_text(ratio):
    if ratio < 0.1:
        return "%.3f" % ratio
    return "%.2f" % ratio if ratio < 10 else "%.1f" % ratio


def markdown_tables(results, ratio_table):
    labels = dict(WORKLOADS)
    names = dict(PEERS)
    lines = ["Microseconds per operation (each peer's median pass, a pass being the median of 9 rounds; lower is faster):", "",
             "| workload | " + " | ".join(name for _, name in PEERS) + " |",
             "|---|" + "---:|" * len(PEERS)]
    for workload, entry in results.items():
        cells = [micros_text(entry["ns_per_op"][peer]) if peer in entry["ns_per_op"] else "—" for peer, _ in PEERS]
        lines.append("| %s (%s) | %s |" % (labels[workload], size_text(entry["input_bytes"]), " | ".join(cells)))
    others = [peer for peer, _ in PEERS if peer != "ours"]
    lines += ["", "Peer time ÷ our time (>1: TransformServer is faster):", "",
              "| workload | " + " | ".join(names[peer] for peer in others) + " |",
              "|---|" + "---:|" * len(others)]
    for workload, row in ratio_table.items():
        cells = [ratio_text(row[peer]) if peer in row else "—" for peer in others]
        lines.append("| %s | %s |" % (labels[workload], " | ".join(cells)))
    counted = [(workload, entry) for workload, entry in results.items() if "instructions_per_op" in entry]
    if counted:
        lines += ["", "Our instructions per conversion (valgrind --tool=callgrind; the same from run to run within a few "
                  "instructions):", "",
                  "| workload | instructions | per input byte |", "|---|---:|---:|"]
        for workload, entry in counted:
            count = entry["instructions_per_op"]
            lines.append("| %s | {:,} | %.1f |".format(count) % (labels[workload], count / entry["input_bytes"]))
    return "\n".join(lines)


def chart(ratio_table, path, subtitle):
    """Grouped bars of the ratios, one group per workload; log scale when they span more than a factor of 20."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter

    labels = dict(WORKLOADS)
    peers = [(peer, name) for peer, name in PEERS if peer != "ours"]
    workloads = list(ratio_table)
    values = [ratio for row in ratio_table.values() for ratio in row.values()]
    width = 0.8 / len(peers)
    figure, axes = plt.subplots(figsize=(10, 5.5))
    for index, (peer, name) in enumerate(peers):
        positions = [group + (index - (len(peers) - 1) / 2) * width for group in range(len(workloads))]
        heights = [ratio_table[workload].get(peer, 0) for workload in workloads]
        bars = axes.bar(positions, heights, width, label=name)
        axes.bar_label(bars, labels=[ratio_text(h) if h else "" for h in heights], fontsize=7, padding=2)
    if values and max(values) / min(values) > 20:
        axes.set_yscale("log")
        axes.yaxis.set_major_formatter(FuncFormatter(lambda value, _: "%g" % value))
    axes.axhline(1, color="black", linewidth=0.8, linestyle="--", label="ours (= 1)")
    axes.set_xticks(range(len(workloads)), [labels[workload] for workload in workloads])
    axes.set_ylabel("peer time ÷ TransformServer time")
    axes.set_title("Parse, map and serialise: peers against TransformServer (>1: TransformServer is faster)\n"
                   + subtitle, fontsize=10)
    axes.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=150)
    plt.close(figure)


def report(arguments):
    results = load_results(arguments.raw)
    ratio_table = ratios(results)
    machine = machine_info()
    load = load_averages(arguments.raw)
    pace = host_pace(arguments.raw)
    document = {
        "machine": machine,
        "run": {"seconds_per_measurement": arguments.seconds, "passes": arguments.passes, "smoke": arguments.smoke,
                "swift_configuration": arguments.configuration,
                "load_average_1_5_15_min": load, "host_pace_ms": pace},
        "workloads": {workload: dict(entry, ratio_to_ours=ratio_table[workload])
                      for workload, entry in results.items()},
    }
    out = Path(arguments.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "results-core.json").write_text(json.dumps(document, indent=2) + "\n")
    subtitle = "%s, %d cores, %s, Swift %s build" % (
        machine["cpu"], machine["nproc"], machine["date_utc"][:10], arguments.configuration)
    chart(ratio_table, out / "bench-core.png", subtitle)
    tables = markdown_tables(results, ratio_table)
    print(tables)
    if load:
        print("\nload average (1 / 5 / 15 min): %s before timing, %s after"
              % (load_text(load, "before"), load_text(load, "after")))
    if pace:
        print("host pace (Benchmarks/pace.py): %s (%s)" % (pace_text(pace), PACE_NOTE))
    print("\nwrote %s and %s" % (out / "results-core.json", out / "bench-core.png"))
    if arguments.publish:
        publish(Path(arguments.publish), out / "bench-core.png", tables, document)


def publish(docs, png, tables, document):
    (docs / "images").mkdir(parents=True, exist_ok=True)
    shutil.copyfile(png, docs / "images" / "bench-core.png")
    machine, run = document["machine"], document["run"]
    tools = ", ".join("%s %s" % (name, version) for name, version in machine["tools"].items())
    load = run["load_average_1_5_15_min"]
    page = "\n".join([
        "<!-- Generated by scripts/bench-core.sh --publish; do not edit. -->",
        "# Core conversion against other libraries",
        "",
        "Each library parses the same JSON into typed models with the same mapping as TransformServer's schemas",
        "and serialises them back (orjson without a model, simdjson parse only); every output was checked against",
        "ours before timing. One process per measurement, %s s each, in %s passes taken in turn (every peer on every" % (
            run["seconds_per_measurement"], run["passes"]),
        "workload, then again); each figure is the peer's median pass. %s Swift build." % (
            run["swift_configuration"].capitalize()),
        "",
        "\n".join("- " + setup for setup in SETUPS),
        "",
        "Run on:",
        "",
        "- %s, %d cores (`nproc`), Linux %s, %s" % (
            machine["cpu"], machine["nproc"], machine["kernel"], machine["date_utc"]),
        "- %s" % tools,
        "- load average (1 / 5 / 15 min): %s before timing, %s after" % (
            load_text(load, "before"), load_text(load, "after")),
        "- host pace (`Benchmarks/pace.py`, a fixed Python loop): %s (%s)" % (
            pace_text(run.get("host_pace_ms", {})), PACE_NOTE),
        "",
        tables,
        "",
        "![Peer time ÷ TransformServer time](images/bench-core.png)",
        "",
    ])
    (docs / "bench-core-results.md").write_text(page)
    print("published %s and %s" % (docs / "bench-core-results.md", docs / "images" / "bench-core.png"))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("verify")
    check.add_argument("--label", required=True)
    check.add_argument("--expected", required=True)
    check.add_argument("--actual", required=True)
    tables = commands.add_parser("report")
    tables.add_argument("--raw", required=True)
    tables.add_argument("--out", required=True)
    tables.add_argument("--seconds", type=float, required=True)
    tables.add_argument("--passes", type=int, required=True)
    tables.add_argument("--configuration", required=True)
    tables.add_argument("--smoke", action="store_true")
    tables.add_argument("--publish")
    arguments = parser.parse_args()
    if arguments.command == "verify":
        verify(arguments)
    else:
        report(arguments)


if __name__ == "__main__":
    main()
