#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""TransformBench's work done by Python libraries, for scripts/bench-core.sh.

    peers.py convert --peer pydantic|msgspec|orjson|simdjson --model GithubUser|WeiboTimeline --input FILE
                     [--array] [--seconds N] [--print]

Prints the same JSON line as TransformBench, {"model":…,"input_bytes":…,"ns_per_op":…,"mb_per_s":…}, timed the
same way (the median of nine rounds after a warm-up of a tenth of the budget); --print writes one conversion's
output instead, for the script to check against TransformBench's.

The peers:
  pydantic  validate and serialise the models of pydantic_models.py (validation aliases, lax mode,
            model_dump_json(exclude_none=True)).
  msgspec   decode, convert and encode the Structs of msgspec_models.py (strict=False, omit_defaults).
  orjson    orjson.dumps(orjson.loads(input)): no model at all, the floor of a parse-and-write.
  simdjson  pysimdjson's parser only, touching the root: the parse limit. --print writes the parsed document
            (json.dumps) so that it can be checked against the input.

Only the chosen peer's library is imported. Both models reproduce the schemas' mapping and TransformServer's
output rules: numbers and bools are always written (0 / false when absent or null), other values are omitted
when absent or null, dates are written as RFC 3339 UTC with "Z".
"""
import argparse
import json
import sys
import time


# --- the untyped floors (pydantic's and msgspec's models are in their own modules) -------------------------------

def orjson_converter():
    """Parse into Python values and write them back: no model, no mapping."""
    import orjson
    loads, dumps = orjson.loads, orjson.dumps
    return lambda body: dumps(loads(body))


def simdjson_converter(printing):
    """simdjson's parse only (parse-only timing cannot be checked against ours, so --print dumps the document)."""
    import simdjson
    parser = simdjson.Parser()
    if printing:
        # The whole document as Python values, written back, so that the parse can be checked against the input.
        def dump(body):
            root = parser.parse(body)
            value = root.as_list() if isinstance(root, simdjson.Array) else root.as_dict()
            del root  # a parser is reusable only once nothing holds its previous document
            return json.dumps(value, ensure_ascii=False).encode()
        return dump
    # Parse only; len() touches the root. The proxy is dropped at once so the parser can be reused.
    return lambda body: len(parser.parse(body))


# --- timing -----------------------------------------------------------------------------------------------------

def measure(seconds, work, body):
    """Nanoseconds per call of work(body), as TransformBench measures: a warm-up of a tenth of the budget sizes the
    batch, then the median of nine rounds of equal batches."""
    rounds = 9
    clock = time.perf_counter_ns
    warm_up = seconds / 10 * 1e9
    calls = 0
    warm_start = clock()
    while clock() - warm_start < warm_up or calls == 0:
        work(body)
        calls += 1
    per_call = (clock() - warm_start) / calls
    batch = max(1, int(seconds * 0.9 * 1e9 / rounds / per_call))
    samples = []
    for _ in range(rounds):
        start = clock()
        for _ in range(batch):
            work(body)
        samples.append((clock() - start) / batch)
    return sorted(samples)[rounds // 2]


def main():
    parser = argparse.ArgumentParser(description="TransformBench's work done by a Python library.")
    parser.add_argument("command", choices=["convert"])
    parser.add_argument("--peer", required=True, choices=["pydantic", "msgspec", "orjson", "simdjson"])
    parser.add_argument("--model", required=True, choices=["GithubUser", "WeiboTimeline"])
    parser.add_argument("--input", required=True)
    parser.add_argument("--array", action="store_true")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--print", action="store_true")
    arguments = parser.parse_args()
    if arguments.seconds <= 0:
        parser.error("--seconds must be positive")

    with open(arguments.input, "rb") as file:
        body = file.read()
    if arguments.peer == "pydantic":
        from pydantic_models import converter
        work = converter(arguments.model, arguments.array)
    elif arguments.peer == "msgspec":
        from msgspec_models import converter
        work = converter(arguments.model, arguments.array)
    elif arguments.peer == "orjson":
        work = orjson_converter()
    else:
        work = simdjson_converter(arguments.print)

    try:
        first = work(body)
    except Exception as error:  # any library's validation error: report it as TransformBench does
        sys.exit("peers.py: %s does not convert as %s with %s: %s"
                 % (arguments.input, arguments.model, arguments.peer, error))
    if arguments.print:
        # pydantic's model_dump_json answers a str, the others bytes.
        sys.stdout.buffer.write(first.encode() if isinstance(first, str) else first)
        return
    nanoseconds = measure(arguments.seconds, work, body)
    print(json.dumps({"model": arguments.model, "input_bytes": len(body),
                      "ns_per_op": round(nanoseconds, 1),
                      "mb_per_s": round(len(body) / nanoseconds * 1000, 1)}, separators=(",", ":")))


if __name__ == "__main__":
    main()
