// Turning a tool's call_result into a CallToolResult for the request's revision.
#pragma once

#include "protocol/tool_descriptor.hpp"

#include <boost/json/object.hpp>

#include <string_view>

namespace toolgate::protocol {

/// `content`, `isError` (only when set), `_meta` (only when the result has one) and
/// `structuredContent` where the revision allows the value: none for 2025-03-26, objects for
/// 2025-06-18/11-25, any value for 2026-07-28.
boost::json::object to_json(call_result const& result, std::string_view version);

} // namespace toolgate::protocol
