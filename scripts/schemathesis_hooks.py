# SPDX-License-Identifier: Apache-2.0
"""schemathesis hooks for scripts/check-schemathesis.sh: NDJSON bodies and answers (the `/array` routes take
`application/x-ndjson`, docs/api.md), for which schemathesis has no built-in (de)serializer. docs/openapi.yaml
declares both as text (`NDJSONText`)."""
import json

import schemathesis


@schemathesis.serializer("application/x-ndjson")
def ndjson_body(ctx, value):
    """Text as it is; any other generated value as one JSON line."""
    if isinstance(value, bytes):
        return {"data": value}
    if isinstance(value, str):
        return {"data": value.encode("utf-8", "surrogatepass")}
    return {"data": (json.dumps(value) + "\n").encode()}


@schemathesis.deserializer("application/x-ndjson")
def ndjson_answer(ctx, response):
    """The stream's text; each line must be JSON."""
    text = response.content.decode("utf-8")
    for line in text.splitlines():
        json.loads(line)
    return text
