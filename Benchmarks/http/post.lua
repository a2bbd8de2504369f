-- SPDX-License-Identifier: Apache-2.0
-- wrk script for scripts/bench-http.sh: POSTs one JSON body on every request and counts the answers that are
-- not 2xx (wrk itself only counts "Non-2xx or 3xx"; a 3xx here is a failure too).
--
--   wrk -t1 -c64 -d10s --latency -s Benchmarks/http/post.lua URL -- BODY_FILE
--   BENCH_BODY_FILE=BODY_FILE wrk ... -s Benchmarks/http/post.lua URL
--
-- done() prints one line "BENCH_RESULT {json}" (requests, duration, latency percentiles in microseconds, wrk's
-- socket errors and this script's non-2xx count) that the bench script parses alongside wrk's own summary.

local threads = {}

-- Runs in the main Lua state once per wrk thread: remember each thread so done() can read its counters.
function setup(thread)
  table.insert(threads, thread)
end

-- Runs in each thread's own Lua state: read the body once and build the request once.
function init(args)
  local path = args[1] or os.getenv("BENCH_BODY_FILE")
  if path == nil or path == "" then
    error("post.lua: give the body file as the first script argument or in BENCH_BODY_FILE")
  end
  local file = assert(io.open(path, "rb"))
  local body = file:read("*a")
  file:close()
  wrk.method = "POST"
  wrk.body = body
  wrk.headers["Content-Type"] = "application/json"
  request_bytes = wrk.format()
  non2xx = 0
  first_bad_status = 0
end

function request()
  return request_bytes
end

-- Counting here costs wrk a little (it hands every response to Lua); the same cost applies to every server.
function response(status, headers, body)
  if status < 200 or status > 299 then
    non2xx = non2xx + 1
    if first_bad_status == 0 then first_bad_status = status end
  end
end

function done(summary, latency, requests)
  local bad, first = 0, 0
  for _, thread in ipairs(threads) do
    bad = bad + thread:get("non2xx")
    local status = thread:get("first_bad_status")
    if first == 0 and status ~= 0 then first = status end
  end
  local e = summary.errors
  io.write(string.format(
    'BENCH_RESULT {"requests":%d,"duration_us":%d,"bytes":%d,' ..
    '"latency_us":{"p50":%d,"p90":%d,"p99":%d,"p999":%d,"max":%d,"mean":%.1f},' ..
    '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
    '"non2xx":%d,"first_bad_status":%d}\n',
    summary.requests, summary.duration, summary.bytes,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9),
    latency.max, latency.mean,
    e.connect, e.read, e.write, e.status, e.timeout, bad, first))
end
