#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Runs the examples of docs/api.md, in the order shown, against a real server, and writes or checks their answers.

    python3 scripts/api-examples.py --write [--binary PATH]   rewrite every answer in docs/api.md
    python3 scripts/api-examples.py --check [--binary PATH]   exit 1, with a diff, where docs/api.md differs

Every ```console block is run: each line starting with `$ ` is a command (bash, in one scratch folder kept for the
whole run), and the lines after it up to the next command are its output. As docs/api.md says, the server is
started on a fresh copy of config/ with writes enabled (TRANSFORM_ADMIN_TOKEN=s3cret); a block just after the line
`<!-- api-examples: embedded -->` runs against a second server on the embedded configuration instead. Commands are
written with `http://localhost:8080` and `/tmp/demo-config`; they run with the servers' real ports (chosen at run
time, on 127.0.0.1) and the scratch copy. The `Date` header is left out of the answers. --check ignores request
ids (`X-Request-Id` and `"requestId"` values), which are random, `"createdAt"` times and `/health`'s
`"schemasLoadedAt"`. Standard library only; needs bash and curl.
"""
import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "api.md"
EMBEDDED_MARK = "<!-- api-examples: embedded -->"


class Server:
    """`TransformServer serve` on 127.0.0.1 and a free port, in `cwd`."""

    def __init__(self, binary, cwd, arguments, environment):
        env = {k: v for k, v in os.environ.items() if not k.startswith("TRANSFORM_")}
        env.update(environment)
        self.process = subprocess.Popen([binary, "serve", *arguments, "--host", "127.0.0.1", "--port", "0"],
                                        cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                        text=True)
        line = self.process.stdout.readline()
        match = re.match(r"listening on http://127\.0\.0\.1:(\d+)", line)
        if not match:
            self.stop()
            sys.exit(f"api-examples: the server did not start (it printed {line!r})")
        self.port = int(match.group(1))

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def blocks(text):
    """(start, end, embedded) line ranges of the ```console blocks' contents."""
    lines = text.split("\n")
    result = []
    i = 0
    while i < len(lines):
        if lines[i] == "```console":
            embedded = i > 0 and lines[i - 1] == EMBEDDED_MARK
            end = lines.index("```", i + 1)
            result.append((i + 1, end, embedded))
            i = end
        i += 1
    return result


def run(command, server, scratch, work):
    """The output of one documented command, as docs/api.md shows it."""
    real = command.replace("http://localhost:8080", f"http://127.0.0.1:{server.port}")
    real = real.replace("/tmp/demo-config", str(scratch / "demo-config"))
    done = subprocess.run(["bash", "-c", real], cwd=work, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    if done.returncode != 0:
        sys.exit(f"api-examples: `{command}` exited {done.returncode}: {done.stderr.decode(errors='replace')}")
    output = done.stdout.decode("utf-8", errors="replace").replace("\r\n", "\n")
    return "\n".join(line for line in output.split("\n") if not line.startswith("Date: ")).rstrip("\n")


def regenerate(text, main, embedded, scratch, work):
    lines = text.split("\n")
    out = []
    previous = 0
    for start, end, is_embedded in blocks(text):
        out += lines[previous:start]
        commands = [line[2:] for line in lines[start:end] if line.startswith("$ ")]
        rendered = []
        for command in commands:
            answer = run(command, embedded if is_embedded else main, scratch, work)
            rendered.append("$ " + command + ("\n" + answer if answer else "") + "\n")
        fresh = "\n".join(rendered).rstrip("\n")
        shown = "\n".join(lines[start:end])
        # An answer that differs only in its random request ids keeps the ones shown (no churn in the page).
        out += (shown if without_request_ids(shown) == without_request_ids(fresh) else fresh).split("\n")
        previous = end
    out += lines[previous:]
    return "\n".join(out)


def without_request_ids(text):
    # /health's schemasLoadedAt is the moment the server loaded its schemas: as random as a request id here.
    text = re.sub(r'"schemasLoadedAt":"[^"]*"', '"schemasLoadedAt":"…"', text)
    text = re.sub(r"(?m)^X-Request-Id: \S+$", "X-Request-Id: …", text)
    # The registry's `createdAt` times (docs/lifecycle.md) are when the run made each version.
    text = re.sub(r'"createdAt":"[^"]*"', '"createdAt":"…"', text)
    return re.sub(r'"requestId":"[^"]*"', '"requestId":"…"', text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true")
    mode.add_argument("--check", action="store_true")
    parser.add_argument("--binary", default=str(ROOT / ".build" / "debug" / "TransformServer"))
    options = parser.parse_args()
    # The servers run in scratch folders, so a relative path is taken from where the script was started.
    options.binary = os.path.abspath(options.binary)
    for tool in ("bash", "curl"):
        if shutil.which(tool) is None:
            sys.exit(f"api-examples: {tool} is needed (bash scripts/provision.sh)")
    text = DOC.read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory(prefix="api-examples-") as folder:
        scratch = Path(folder)
        shutil.copytree(ROOT / "config", scratch / "demo-config")
        (scratch / "embedded").mkdir()
        work = scratch / "work"
        work.mkdir()
        main_server = Server(options.binary, scratch, ["--config", str(scratch / "demo-config")],
                             {"TRANSFORM_ADMIN_TOKEN": "s3cret"})
        embedded_server = Server(options.binary, scratch / "embedded", [], {})
        try:
            fresh = regenerate(text, main_server, embedded_server, scratch, work)
        finally:
            main_server.stop()
            embedded_server.stop()
    if options.write:
        DOC.write_text(fresh, encoding="utf-8")
        print(f"api-examples: {len(blocks(text))} blocks written to {DOC.relative_to(ROOT)}")
        return 0
    expected, actual = without_request_ids(text), without_request_ids(fresh)
    if expected == actual:
        print(f"api-examples: the {len(blocks(text))} example blocks of docs/api.md match a real run")
        return 0
    sys.stdout.writelines(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                               "docs/api.md", "a real run"))
    print("api-examples: docs/api.md differs from a real run (python3 scripts/api-examples.py --write)")
    return 1


if __name__ == "__main__":
    sys.exit(main())
