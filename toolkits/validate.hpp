// Argument checks before anything is sent: names, required arguments, JSON types, enums,
// limits, lengths, named formats, M-tool modes and the named per-tool rules of the
// specification. A failure is a message for an `isError` tool result, naming the argument
// and what was expected (STYLE §4).
#pragma once

#include "toolkits/tool_error.hpp"
#include "toolkits/tool_spec.hpp"

#include <boost/json/object.hpp>

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace toolgate::toolkits {

/// Checks `arguments` for a call of `tool`: nothing when the call may go ahead, else the first
/// problem. A `null` value counts as an absent argument.
tool_result<void> validate_arguments(
    toolkit_spec const& toolkit, tool_spec const& tool, boost::json::object const& arguments);

/// Whether `param` is a header argument carrying the same header as one of the toolkit's own
/// credentials for this tool (CoreEngineApi's `Authorization` arguments). Such an argument is
/// never required: when it is absent, the toolkit credential is sent instead (issue 14 item 6).
bool is_credential_header(
    toolkit_spec const& toolkit, tool_spec const& tool, param_spec const& param);

/// Rewrites whole-number doubles given for integer parameters (and integer array items) as
/// integers, so `3.0` goes on the wire as `3`, not `3E0`. Call after validate_arguments.
void normalise_integers(tool_spec const& tool, boost::json::object& arguments);

/// Whether `value` satisfies the named format (value_format::none always does).
bool has_format(value_format format, std::string_view value);

/// One per-tool rule the specification states beyond what a parameter can say about itself.
/// `check` sees arguments that already passed the per-parameter checks.
struct tool_rule {
    std::string_view name; ///< stable name, used in tests and docs
    std::string_view toolkit;
    std::string_view tool; ///< a tool name, or "*" for every tool of the toolkit
    tool_result<void> (*check)(tool_spec const& tool, boost::json::object const& args);
};

/// The table of per-tool rules (toolkits/validate_rules.cpp).
std::span<const tool_rule> tool_rules();

} // namespace toolgate::toolkits
