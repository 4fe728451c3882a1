-- wrk script for benchmarks/scale-out/run.sh: GET URL?k=N for N cycling over 0 .. KEYS-1 (a different
-- start per thread), so the requests spread over the replicas of a consistent-hash front.
-- Usage: wrk ... -s keys.lua URL -- KEYS
-- done() prints: RESULT requests=N duration_us=N rps=X p50_us=N p99_us=N errors_status=N errors_socket=N
local keys = 1
local counter = 0
local threads = 0

function setup(thread)
   threads = threads + 1
   thread:set("thread_id", threads)
end

function init(args)
   keys = tonumber(args[1] or "1")
   counter = (thread_id or 0) * 7919
end

function request()
   counter = counter + 1
   return wrk.format(nil, wrk.path .. "?k=" .. (counter % keys))
end

function done(summary, latency, requests)
   local e = summary.errors
   io.write(string.format(
      "RESULT requests=%d duration_us=%d rps=%.0f p50_us=%d p99_us=%d errors_status=%d errors_socket=%d\n",
      summary.requests, summary.duration, summary.requests / (summary.duration / 1e6),
      latency:percentile(50), latency:percentile(99),
      e.status, e.connect + e.read + e.write + e.timeout))
end
