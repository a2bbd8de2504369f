#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The FastAPI + pydantic v2 peer for scripts/bench-http.sh: POST /convert/GithubUser does what TransformServer's
GithubUser schema (config/schemas/github-user.json) does to a GitHub REST API user object, written the way a
Python service would write it.

    uvicorn --app-dir Benchmarks/http fastapi_peer:app --host 127.0.0.1 --port PORT --workers N \
            --loop uvloop --http httptools --no-access-log

The model is the pydantic peer's (Benchmarks/python/pydantic_models.py), whose output scripts/bench-core.sh
checks against ours: snake_case keys read through validation aliases, camelCase names written, numbers and
booleans always written (0 / false when absent or null), absent or null strings and dates left out, unknown keys
ignored. The answer is semantically equal to ours (the bench script compares the two with json.loads); key order
and bytes may differ. Input validation is pydantic's (lax mode), not our coercion rules: for this well-formed
workload both accept everything and change nothing.
"""
import sys
from pathlib import Path

from fastapi import FastAPI, Response

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "python"))
from pydantic_models import GithubUser  # noqa: E402  (found through the path above)


app = FastAPI(openapi_url=None, docs_url=None, redoc_url=None)


@app.post("/convert/GithubUser")
async def convert_github_user(user: GithubUser) -> Response:
    return Response(content=user.model_dump_json(exclude_none=True), media_type="application/json; charset=utf-8")


@app.get("/health")
async def health() -> dict:
    return {"status": "ok"}
