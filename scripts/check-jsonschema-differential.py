#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A differential between each model's exported JSON Schema and the server's strict validation.

    python3 scripts/check-jsonschema-differential.py PORT [EXAMPLES]

For every model the server lists (GET /schemas), its JSON Schema (GET /schemas/{model}/jsonschema) describes the
objects that `POST /validate/{model}?mode=strict` accepts with no entry at all (docs/jsonschema.md). Two checks,
EXAMPLES cases each per model (default 40), from a fixed seed:
  1. hypothesis-jsonschema generates instances of the schema: the server must find every one valid (200, no entry);
  2. each generated instance is also mutated (a member dropped, a value replaced by one of another JSON kind, an
     unknown member added): jsonschema's Draft 2020-12 verdict and the server's must agree.
Exits 1 listing the first disagreements. Run by scripts/check-jsonschema-differential.sh, which starts the server.
"""
import json
import random
import sys
import urllib.error
import urllib.request

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema
from jsonschema import Draft202012Validator

BASE = ""


def request(method, path, body=None):
    data = None if body is None else json.dumps(body, ensure_ascii=False).encode()
    req = urllib.request.Request(BASE + path, data=data, method=method,
                                 headers={"Content-Type": "application/json"} if data is not None else {})
    try:
        with urllib.request.urlopen(req, timeout=10) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def server_accepts(model, instance):
    status, report = request("POST", f"/validate/{model}?mode=strict", instance)
    if status >= 500:
        raise AssertionError(f"{model}: {status} for {json.dumps(instance)}")
    accepted = status == 200 and report.get("valid") is True and not report["errors"] and not report["warnings"]
    return accepted, report


# Refusals the export cannot express, listed in docs/jsonschema.md ("Approximations"): a number whose written form
# differs numerically from the input (2**70 into a `double` is written 1.1805916207174113e+21) is `precision_lost`.
# A refusal made only of these entries is not a disagreement.
DOCUMENTED_WIDER = {"precision_lost"}


def only_documented(report):
    entries = report.get("errors", []) + report.get("warnings", []) if isinstance(report, dict) else []
    return bool(entries) and all(entry.get("code") in DOCUMENTED_WIDER for entry in entries)


def mutations(instance, rng):
    """A few near misses of a valid instance."""
    others = [None, True, 0, -1, 1.5, "", "x", [], {}, [1], {"a": 1}, 2**70]
    yield {**instance, "zz_unknown_member": 1}
    for key in sorted(instance):
        yield {k: v for k, v in instance.items() if k != key}
        yield {**instance, key: rng.choice(others)}


def main():
    global BASE
    port = int(sys.argv[1])
    examples = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    BASE = f"http://127.0.0.1:{port}"
    rng = random.Random(1)
    failures = []
    _, listing = request("GET", "/schemas")
    models = [entry["name"] for entry in listing["models"]]
    checked = 0
    for model in models:
        _, schema = request("GET", f"/schemas/{model}/jsonschema")
        Draft202012Validator.check_schema(schema)
        validator = Draft202012Validator(schema)
        instances = []

        @settings(max_examples=examples, derandomize=True, database=None, deadline=None,
                  suppress_health_check=list(HealthCheck))
        @given(from_schema(schema))
        def collect(instance):
            instances.append(instance)

        collect()
        for instance in instances:
            accepted, report = server_accepts(model, instance)
            checked += 1
            if not accepted and not only_documented(report):
                failures.append(f"{model}: generated from its JSON Schema but refused: {json.dumps(instance)} -> "
                                f"{json.dumps(report.get('errors', report))[:300]}")
            if not isinstance(instance, dict):
                continue
            for mutated in mutations(instance, rng):
                expected = validator.is_valid(mutated)
                accepted, report = server_accepts(model, mutated)
                checked += 1
                if accepted != expected and not (expected and only_documented(report)):
                    failures.append(f"{model}: JSON Schema says {'valid' if expected else 'invalid'}, the server "
                                    f"{'accepts' if accepted else 'refuses'}: {json.dumps(mutated)} -> "
                                    f"{json.dumps(report.get('errors', report))[:300]}")
    print(f"jsonschema differential: {len(models)} models, {checked} instances, {len(failures)} disagreements")
    for failure in failures[:20]:
        print("  " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
