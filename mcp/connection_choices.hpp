// Per-connection choices over HTTP (issue 12 item 3), for clients that can set only a URL or
// headers: `/mcp?toolkits=KanbanApi&mode=discovery&read_only=1`, or the headers
// Toolgate-Toolkits, Toolgate-Tools, Toolgate-Tool-Mode and Toolgate-Read-Only. They narrow
// what the server was started with (tool_views checks that).
#pragma once

#include "common/result.hpp"
#include "mcp/tool_views.hpp"
#include "transport/http_types.hpp"

namespace toolgate::mcp {

/// The choices `request` makes, or what is wrong with them (naming the parameter or header).
common::checked<view_choice> read_connection_choices(transport::http_request const& request);

} // namespace toolgate::mcp
