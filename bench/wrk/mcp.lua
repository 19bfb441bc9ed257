-- wrk script for MCP over Streamable HTTP: POSTs one JSON-RPC request per HTTP request, with a
-- unique id per request (a legacy session maps responses by id), and prints a JSON summary.
--
--   wrk ... -s mcp.lua URL -- KIND ERA [SESSION_ID[,SESSION_ID...]]
--     KIND: call | list | direct      ERA: legacy (2025-11-25) | modern (2026-07-28) | none
--   env BENCH_TOOL (wire name), BENCH_ARGS (JSON object), BENCH_VERSION (legacy version header),
--   BENCH_ACCEPT_ENCODING (sent as Accept-Encoding when set, as Node's fetch or httpx would)
-- Several session ids: requests take them in turn (wrk's Lua has no per-connection hook, so
-- "one session per client" is approximated by spreading requests over as many sessions).
local kind, era, session = "call", "legacy", nil
local sessions = {}
local turn = 0
local tool = os.getenv("BENCH_TOOL") or "CoreEngineApi_AuthorizeWorker"
local args_json = os.getenv("BENCH_ARGS") or '{"worker_id":"w-1"}'
local legacy_version = os.getenv("BENCH_VERSION") or "2025-11-25"
local modern_meta = '"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",' ..
    '"io.modelcontextprotocol/clientCapabilities":{},' ..
    '"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"}}'

local threads = {}
local counter = 0
local prefix = "x"

function setup(thread)
    thread:set("prefix", "t" .. tostring(#threads + 1))
    table.insert(threads, thread)
end

function init(argv)
    kind = argv[1] or kind
    era = argv[2] or era
    session = argv[3]
    if session == "" then session = nil end
    if session and session:find(",") then
        for sid in session:gmatch("[^,]+") do table.insert(sessions, sid) end
        session = nil
    end
    wrk.method = (kind == "direct") and "GET" or "POST"
    wrk.headers["Content-Type"] = "application/json"
    wrk.headers["Accept"] = "application/json, text/event-stream"
    local encoding = os.getenv("BENCH_ACCEPT_ENCODING")
    if encoding and encoding ~= "" then wrk.headers["Accept-Encoding"] = encoding end
    if kind ~= "direct" then
        if era == "modern" then
            wrk.headers["MCP-Protocol-Version"] = "2026-07-28"
            wrk.headers["Mcp-Method"] = (kind == "list") and "tools/list" or "tools/call"
            if kind == "call" then wrk.headers["Mcp-Name"] = tool end
        else
            wrk.headers["MCP-Protocol-Version"] = legacy_version
        end
        if session then wrk.headers["Mcp-Session-Id"] = session end
    end
end

local function body(id)
    local meta = (era == "modern") and ("," .. modern_meta) or ""
    if kind == "list" then
        if era == "modern" then
            return '{"jsonrpc":"2.0","id":"' .. id .. '","method":"tools/list","params":{' ..
                modern_meta .. '}}'
        end
        return '{"jsonrpc":"2.0","id":"' .. id .. '","method":"tools/list","params":{}}'
    end
    return '{"jsonrpc":"2.0","id":"' .. id .. '","method":"tools/call","params":{"name":"' ..
        tool .. '","arguments":' .. args_json .. meta .. '}}'
end

function request()
    if kind == "direct" then
        return wrk.format(nil, nil, nil, nil)
    end
    counter = counter + 1
    if #sessions > 0 then
        turn = turn % #sessions + 1
        wrk.headers["Mcp-Session-Id"] = sessions[turn]
    end
    return wrk.format(nil, nil, nil, body(prefix .. "-" .. counter))
end

function done(summary, latency, requests)
    local e = summary.errors
    io.write(string.format(
        'BENCH_JSON {"requests":%d,"duration_us":%d,"bytes":%d,' ..
        '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
        '"latency_us":{"mean":%.1f,"p50":%d,"p90":%d,"p99":%d,"max":%d}}\n',
        summary.requests, summary.duration, summary.bytes,
        e.connect, e.read, e.write, e.status, e.timeout,
        latency.mean, latency:percentile(50), latency:percentile(90),
        latency:percentile(99), latency.max))
end
