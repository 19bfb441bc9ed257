// Dry runs: `_dry_run: true` on any catalogue tool (`dry_run` on toolgate_call_tool) validates
// the arguments and builds the request exactly as a real call does, then shows it instead of
// sending it, with every credential masked. `_dry_run` is one of the reserved arguments
// (docs/decisions.md "Reserved arguments"): it never reaches a platform.
#pragma once

#include "protocol/tool_descriptor.hpp"
#include "toolkits/request_builder.hpp"
#include "toolkits/tool_error.hpp"
#include "toolkits/tool_spec.hpp"

#include <boost/json/object.hpp>

#include <string_view>

namespace toolgate::toolkits {

/// The reserved argument on every catalogue tool, and its name on toolgate_call_tool (read with
/// the others in toolkits/call_options.cpp).
inline constexpr std::string_view dry_run_argument = "_dry_run";
inline constexpr std::string_view dry_run_call_tool_argument = "dry_run";

/// A dry run's result: the request `prepared` would send (method, URL with its query,
/// headers, body) with every credential the toolkit's authentication put into it masked as
/// `***` (header and query credentials, their encoded forms, and hosts a secret names).
/// `prepared` must have been authenticated; nothing is sent.
protocol::call_result show_request(
    toolkit_spec const& toolkit, tool_spec const& tool, prepared_request const& prepared);

/// A dry run of a call toolgate answers itself (an M-tool's get_request_schema): nothing would
/// be sent.
protocol::call_result show_local_answer(toolkit_spec const& toolkit, tool_spec const& tool);

} // namespace toolgate::toolkits
