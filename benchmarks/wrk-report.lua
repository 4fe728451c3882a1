-- wrk script for benchmarks/wrk-vs-nginx.sh.
-- Usage: wrk ... -s wrk-report.lua URL -- MODE TOKEN RUN
--   MODE  plain  : GET URL as given
--         bearer : GET URL with "Authorization: Bearer TOKEN"
--         unique : GET URL?miss=RUN-THREAD-N (a new cache key on every request)
-- done() prints one machine-readable line:
--   RESULT requests=N duration_us=N rps=X p50_us=N p99_us=N errors_status=N errors_socket=N
local mode, token, run = "plain", "", "0"
local counter = 0
local threads = 0

function setup(thread)
   threads = threads + 1
   thread:set("thread_id", threads)  -- a global of that thread's Lua state
end

function init(args)
   mode = args[1] or "plain"
   token = args[2] or ""
   run = args[3] or "0"
   if mode == "bearer" then
      wrk.headers["Authorization"] = "Bearer " .. token
   end
end

function request()
   if mode == "unique" then
      counter = counter + 1
      return wrk.format(nil, wrk.path .. "?miss=" .. run .. "-" .. (thread_id or 0) .. "-" .. counter)
   end
   return wrk.format(nil, wrk.path)
end

function done(summary, latency, requests)
   local e = summary.errors
   io.write(string.format(
      "RESULT requests=%d duration_us=%d rps=%.0f p50_us=%d p99_us=%d errors_status=%d errors_socket=%d\n",
      summary.requests, summary.duration, summary.requests / (summary.duration / 1e6),
      latency:percentile(50), latency:percentile(99),
      e.status, e.connect + e.read + e.write + e.timeout))
end
