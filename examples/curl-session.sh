#!/usr/bin/env bash
# A Streamable HTTP session by hand, in both protocol generations.
# Start the server first: build/bin/toolgate --transport http --port 8080
set -euo pipefail
url=${1:-http://127.0.0.1:8080/mcp}
json=(-H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream')

echo "== 2026-07-28: stateless, every request carries its version"
curl -s "${json[@]}" -H 'MCP-Protocol-Version: 2026-07-28' -H 'Mcp-Method: server/discover' \
  -d '{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{
        "io.modelcontextprotocol/protocolVersion":"2026-07-28",
        "io.modelcontextprotocol/clientCapabilities":{}}}}' "$url"; echo

echo "== 2025-11-25: initialize, then the session id on every request"
sid=$(curl -s -D - -o /dev/null "${json[@]}" \
  -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",
        "capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}' "$url" |
  awk 'tolower($1)=="mcp-session-id:"{print $2}' | tr -d '\r')
curl -s "${json[@]}" -H "Mcp-Session-Id: $sid" \
  -d '{"jsonrpc":"2.0","method":"notifications/initialized"}' "$url"
curl -s "${json[@]}" -H "Mcp-Session-Id: $sid" -H 'MCP-Protocol-Version: 2025-11-25' \
  -d '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"CoreEngineApi_CheckEngineHealth"}}' \
  "$url"; echo
curl -s -X DELETE -H "Mcp-Session-Id: $sid" -o /dev/null -w 'DELETE: %{http_code}\n' "$url"
