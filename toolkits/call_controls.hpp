// The operator's controls over calls of catalogue tools (docs/controlling-writes.md): what
// happens between a call's validation and its request. The catalogue provider asks them before
// it sends or shows anything and tells them how each call ended; the server implements them
// (quotas, a person's confirmation, the audit log), so toolkits/ knows none of that.
#pragma once

#include "protocol/tool_descriptor.hpp"
#include "toolkits/tool_spec.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>

namespace toolgate::toolkits {

class call_context;

/// One call of a catalogue tool as the controls see it. The references live as long as the
/// call.
struct controlled_call {
    toolkit_spec const& toolkit;
    tool_spec const& tool;
    /// After validation; before it, as given (an invalid call has no checked arguments).
    boost::json::object const& arguments;
    bool dry_run = false;
};

/// How a call the controls admitted (or never saw, for invalid arguments) ended.
enum class call_end : std::uint8_t {
    answered, ///< the request was sent (or the call failed on the way): see the result
    dry_run, ///< the request was shown, not sent
    invalid_arguments, ///< refused before the controls were asked
};

class call_controls {
public:
    virtual ~call_controls() = default;
    /// Asked once per call after validation, before anything is sent or shown: nullopt lets
    /// the call go on; a result answers the call instead (over quota, a person declined, no
    /// one could be asked), and nothing is sent. A refusal is recorded here, and finished()
    /// is not called for it. `context` belongs to the call (as in tool_provider::call).
    virtual boost::asio::awaitable<std::optional<protocol::call_result>> admit(
        controlled_call const& call, call_context& context)
        = 0;
    /// The call's end, once, with its result and how long it took from validation on. Called
    /// on the call's coroutine; must not block.
    virtual void finished(controlled_call const& call, protocol::call_result const& result,
        call_end how, std::chrono::nanoseconds duration, call_context const& context)
        = 0;
    /// A call refused before it reached its tool because this caller may not use that tool
    /// (the operator's policy, read-only mode, the connection's choices): recorded, nothing
    /// else. Called from the router (a direct call) or toolgate_call_tool; thread-safe.
    virtual void refused(protocol::tool_descriptor const& tool,
        boost::json::object const& arguments, std::string_view principal, std::string_view trace_id,
        std::string_view why)
        = 0;
};

} // namespace toolgate::toolkits
