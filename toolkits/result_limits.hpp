// Result shaping for the model, the step between a tool's result and its serialisation:
// projection (`_fields`), then the budget cut, then the note. An answer within its budget and
// without `_fields` passes through untouched and unparsed.
#pragma once

#include "protocol/tool_descriptor.hpp"
#include "toolkits/call_options.hpp"
#include "toolkits/result_options.hpp"
#include "toolkits/tool_spec.hpp"

#include <boost/json/object.hpp>

namespace toolgate::toolkits {

/// What the step knows of the call it shapes.
struct shaped_call {
    toolkit_spec const* toolkit = nullptr; ///< nullptr: not a catalogue tool
    tool_spec const* tool = nullptr; ///< its paging descriptor and narrowing parameters
    /// The validated arguments without the reserved ones (a next call repeats them).
    boost::json::object const* arguments = nullptr;
    call_options const* options = nullptr; ///< the reserved arguments; nullptr: none
};

/// Answers at most this large get a parsed `structured` value (as the result shaper's default).
inline constexpr std::size_t structured_parse_limit = 1024 * 1024;

/// `result` fitted to the call's budget: projected, cut, with a note (a second text block) and
/// `_meta["io.toolgate/truncated"]` when something was cut. Errors pass through untouched.
protocol::call_result limit_result(
    protocol::call_result result, result_options const& settings, shaped_call const& call);

} // namespace toolgate::toolkits
