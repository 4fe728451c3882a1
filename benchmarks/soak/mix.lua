-- wrk script for the mediactl soak test (benchmarks/soak/soak.sh; docs/soak.md).
--
-- Rotates every request across the tiers of the default policies, one tier after the other:
--   catalog  (public)   every file of Tests/Fixtures/corpus/catalog
--   avatars  (avatar)   every file of Tests/Fixtures/corpus/avatars, unversioned and with ?v=1..VERSIONS
--   receipts (private)  every file of Tests/Fixtures/corpus/receipts, Authorization Bearer t1 / t2 alternating
--   one-time (no-store) the catalog files through the origin's no-store alias
--
-- Arguments (after wrk's `--`), all key=value:
--   corpus=DIR     the corpus folder (required)
--   tiers=LIST     comma-separated subset of catalog,avatars,receipts,one-time (default: all four)
--   versions=N     how many ?v= values per avatar (default: 3; bounded so the cache stays bounded)
--
-- Every response that is not 2xx is counted by status and, for application/problem+json bodies,
-- by the RFC 9457 `code` member. `done` prints one summary block whose `SOAK ` lines soak.sh parses.

local all_tiers = { "catalog", "avatars", "receipts", "one-time" }

-- Per-thread state (each wrk thread has its own Lua state).
local plan = {}        -- tier name -> list of prepared request strings
local order = {}       -- the tier names in rotation order
local cursor = {}      -- tier name -> next index into plan[tier]
local step = 0
counts = {}            -- "STATUS code" -> count; global so done() can read it with thread:get
responses = 0

local threads = {}
local next_id = 0

function setup(thread)
    thread:set("id", next_id)
    next_id = next_id + 1
    table.insert(threads, thread)
end

local function list_dir(dir)
    local names = {}
    local pipe = io.popen("ls -1 '" .. dir .. "'")
    if pipe == nil then return names end
    for line in pipe:lines() do
        if line ~= "" then table.insert(names, line) end
    end
    pipe:close()
    table.sort(names)
    return names
end

local function parse_args(args)
    local options = { tiers = table.concat(all_tiers, ","), versions = "3" }
    for _, arg in ipairs(args) do
        local key, value = string.match(arg, "^([%w-]+)=(.*)$")
        if key == nil then error("mix.lua: argument '" .. arg .. "' is not key=value") end
        options[key] = value
    end
    if options.corpus == nil then error("mix.lua: missing argument corpus=DIR") end
    return options
end

local builders = {}

builders["catalog"] = function(options)
    local requests = {}
    for _, name in ipairs(list_dir(options.corpus .. "/catalog")) do
        table.insert(requests, wrk.format("GET", "/catalog/" .. name))
    end
    return requests
end

builders["avatars"] = function(options)
    local requests = {}
    local versions = tonumber(options.versions)
    for _, name in ipairs(list_dir(options.corpus .. "/avatars")) do
        table.insert(requests, wrk.format("GET", "/avatars/" .. name))
        for v = 1, versions do
            table.insert(requests, wrk.format("GET", "/avatars/" .. name .. "?v=" .. v))
        end
    end
    return requests
end

builders["receipts"] = function(options)
    local requests = {}
    for _, name in ipairs(list_dir(options.corpus .. "/receipts")) do
        for _, token in ipairs({ "t1", "t2" }) do
            table.insert(requests, wrk.format("GET", "/receipts/" .. name, { ["Authorization"] = "Bearer " .. token }))
        end
    end
    return requests
end

builders["one-time"] = function(options)
    local requests = {}
    for _, name in ipairs(list_dir(options.corpus .. "/catalog")) do
        table.insert(requests, wrk.format("GET", "/one-time/" .. name))
    end
    return requests
end

function init(args)
    local options = parse_args(args)
    for tier in string.gmatch(options.tiers, "[^,]+") do
        local build = builders[tier]
        if build == nil then error("mix.lua: unknown tier '" .. tier .. "' (allowed: catalog,avatars,receipts,one-time)") end
        local requests = build(options)
        if #requests == 0 then error("mix.lua: no files for tier '" .. tier .. "' under " .. options.corpus) end
        plan[tier] = requests
        -- Threads start at different offsets so connections do not march in lockstep.
        cursor[tier] = (id or 0) % #requests + 1
        table.insert(order, tier)
    end
    if #order == 0 then error("mix.lua: no tiers selected") end
    step = (id or 0) % #order
end

function request()
    step = step % #order + 1
    local tier = order[step]
    local requests = plan[tier]
    local index = cursor[tier]
    cursor[tier] = index % #requests + 1
    return requests[index]
end

function response(status, headers, body)
    responses = responses + 1
    if status < 200 or status > 299 then
        local code = ""
        if body ~= nil then code = string.match(body, '"code"%s*:%s*"([^"]*)"') or "" end
        local key = tostring(status) .. " " .. code
        counts[key] = (counts[key] or 0) + 1
    end
end

function done(summary, latency, requests)
    local non2xx = {}
    local total_non2xx = 0
    local total_responses = 0
    for _, thread in ipairs(threads) do
        total_responses = total_responses + (thread:get("responses") or 0)
        local thread_counts = thread:get("counts")
        if thread_counts ~= nil then
            for key, value in pairs(thread_counts) do
                non2xx[key] = (non2xx[key] or 0) + value
                total_non2xx = total_non2xx + value
            end
        end
    end
    local errors = summary.errors
    local seconds = summary.duration / 1e6
    io.write("SOAK requests ", summary.requests, "\n")
    io.write("SOAK responses_seen ", total_responses, "\n")
    io.write("SOAK duration_s ", string.format("%.1f", seconds), "\n")
    io.write("SOAK requests_per_s ", string.format("%.1f", summary.requests / seconds), "\n")
    io.write("SOAK bytes ", summary.bytes, "\n")
    io.write("SOAK latency_p50_ms ", string.format("%.2f", latency:percentile(50) / 1000), "\n")
    io.write("SOAK latency_p90_ms ", string.format("%.2f", latency:percentile(90) / 1000), "\n")
    io.write("SOAK latency_p99_ms ", string.format("%.2f", latency:percentile(99) / 1000), "\n")
    io.write("SOAK latency_max_ms ", string.format("%.2f", latency.max / 1000), "\n")
    io.write("SOAK errors_connect ", errors.connect, "\n")
    io.write("SOAK errors_read ", errors.read, "\n")
    io.write("SOAK errors_write ", errors.write, "\n")
    io.write("SOAK errors_timeout ", errors.timeout, "\n")
    io.write("SOAK errors_status ", errors.status, "\n")
    io.write("SOAK non2xx_total ", total_non2xx, "\n")
    local keys = {}
    for key, _ in pairs(non2xx) do table.insert(keys, key) end
    table.sort(keys)
    for _, key in ipairs(keys) do
        io.write("SOAK non2xx ", key, " ", non2xx[key], "\n")
    end
end
