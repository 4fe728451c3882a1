-- wrk script for benchmarks/variants/run.sh (c): variant misses, every request a new derivation.
-- Usage: wrk ... -s variant-miss.lua http://HOST:PORT -- SERVER CASE START
--   SERVER  mediactl       GET /large/astronaut-4000.jpg?w=144&q=Q[&h=H]          (CASE astronaut)
--                          GET /large/hubble-1000.jpg?w=576&fmt=webp&q=Q[&h=H]    (CASE hubble)
--           thumbor        GET /unsafe/144x0/filters:quality(Q)/large/astronaut-4000.jpg
--                          GET /unsafe/576x0/filters:format(webp):quality(Q)/large/hubble-1000.jpg
--           thumbor-fixed  the same without the quality filter (thumbor's QUALITY, 80)
--   START   first key index (run.sh gives each mediactl run of a case its own range)
-- Request i (i = START, START+1, … across all threads) has Q = i % 100 + 1 and, for mediactl, H the
-- (i / 100 % 17)-th of: none, then the 16 declared heights (benchmarks/variants/mediactl-policy.json.in),
-- every one of which leaves the output size unchanged (144×144, 576×502): so up to 1,700 distinct
-- variant keys per case do the same work as thumbor's request with the same Q.
-- done() prints: RESULT requests=N duration_us=N rps=X p50_us=N p99_us=N errors_status=N errors_socket=N keys=N
local server, case, start = "mediactl", "astronaut", 0
local heights = { 576, 600, 700, 800, 900, 1000, 1100, 1152, 1200, 1300, 1400, 1500, 1600, 1700, 1800, 2000 }
local threads = {}
local thread_count = 0
counter = 0

function setup(thread)
   thread_count = thread_count + 1
   thread:set("thread_id", thread_count)
   table.insert(threads, thread)
   for _, t in ipairs(threads) do t:set("thread_total", thread_count) end
end

function init(args)
   server = args[1] or "mediactl"
   case = args[2] or "astronaut"
   start = tonumber(args[3] or "0")
end

function request()
   local i = start + counter * thread_total + (thread_id - 1)
   counter = counter + 1
   local q = i % 100 + 1
   local hi = math.floor(i / 100) % 17
   local path
   if server == "mediactl" then
      if case == "astronaut" then
         path = "/large/astronaut-4000.jpg?w=144&q=" .. q
      else
         path = "/large/hubble-1000.jpg?w=576&fmt=webp&q=" .. q
      end
      if hi > 0 then path = path .. "&h=" .. heights[hi] end
   elseif server == "thumbor" then
      if case == "astronaut" then
         path = "/unsafe/144x0/filters:quality(" .. q .. ")/large/astronaut-4000.jpg"
      else
         path = "/unsafe/576x0/filters:format(webp):quality(" .. q .. ")/large/hubble-1000.jpg"
      end
   else
      if case == "astronaut" then
         path = "/unsafe/144x0/large/astronaut-4000.jpg"
      else
         path = "/unsafe/576x0/filters:format(webp)/large/hubble-1000.jpg"
      end
   end
   return wrk.format("GET", path)
end

function done(summary, latency, requests)
   local keys = 0
   for _, thread in ipairs(threads) do keys = keys + (thread:get("counter") or 0) end
   local e = summary.errors
   io.write(string.format(
      "RESULT requests=%d duration_us=%d rps=%.2f p50_us=%d p99_us=%d errors_status=%d errors_socket=%d keys=%d\n",
      summary.requests, summary.duration, summary.requests / (summary.duration / 1e6),
      latency:percentile(50), latency:percentile(99),
      e.status, e.connect + e.read + e.write + e.timeout, keys))
end
