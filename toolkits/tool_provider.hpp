// The seam between the MCP router and whatever executes tools: the compiled-in catalogue in
// the shipped binary, or test-only providers (slow, failing, progress-reporting tools).
#pragma once

#include "protocol/log_level.hpp"
#include "protocol/tool_descriptor.hpp"
#include "protocol/tool_view.hpp"
#include "toolkits/call_controls.hpp"
#include "toolkits/client_interaction.hpp"
#include "toolkits/token_source.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>

#include <optional>
#include <span>
#include <string_view>

namespace toolgate::toolkits {

using protocol::log_level;

/// Per-call services the router offers to a running tool. Called from the call's coroutine.
class call_context {
public:
    virtual ~call_context() = default;
    /// Reports progress; ignored unless the request carried a progressToken. `progress` must grow.
    virtual void report_progress(
        double progress, std::optional<double> total, std::string_view message)
        = 0;
    /// Sends a `notifications/message` when the client asked for this level or a lower one.
    virtual void log(log_level level, std::string_view logger, boost::json::value data) = 0;
    /// Whether anything reported can reach the client (it sent a progressToken or chose a log
    /// level): when not, tools skip the work of reporting.
    virtual bool reporting() const { return false; }
    /// The protocol revision of the request (e.g. "2025-11-25", "2026-07-28").
    virtual std::string_view protocol_version() const = 0;
    /// What the request may see of the served tools (per-connection choices, read-only mode);
    /// nullptr: everything. The discovery meta-tools search, describe and call within it.
    virtual protocol::tool_view const* view() const { return nullptr; }
    /// W3C trace context to send upstream with the call's request (`traceparent`, naming this
    /// call's own span, and the caller's `tracestate`); empty when the call carries none.
    virtual std::string_view traceparent() const { return {}; }
    virtual std::string_view tracestate() const { return {}; }
    /// The trace id inside traceparent() (`00-<trace id>-<span id>-<flags>`); "" without one.
    std::string_view trace_id() const
    {
        constexpr std::size_t start = 3;
        constexpr std::size_t length = 32;
        auto const parent = traceparent();
        return parent.size() < start + length ? std::string_view() : parent.substr(start, length);
    }
    /// The credentials this call may use (assembled once for its request: headers, the
    /// client's own secrets, the server's); nullptr: the executor's defaults (the server's).
    virtual call_credentials const* credentials() const { return nullptr; }
    /// Who calls: the authenticated client's principal (`static:bob`, `jwt:<sub>`); empty
    /// without client authentication (stdio, or HTTP without it).
    virtual std::string_view principal() const { return {}; }
    /// The operator's controls over this call (quota, confirmation, audit); nullptr: none.
    virtual call_controls* controls() const { return nullptr; }
    /// What the call may ask the client (elicitation); nullptr: nothing.
    virtual client_interaction* interaction() { return nullptr; }
    /// Whether this caller lacks the sign-in `toolkit`'s tools need, and could connect its
    /// account from the conversation (the discovery tools say so before a call).
    virtual bool lacks_sign_in(std::string_view /*toolkit*/) const { return false; }
};

/// A set of tools. Immutable after construction, shared across threads.
class tool_provider {
public:
    virtual ~tool_provider() = default;
    /// Every tool, in the stable order `tools/list` publishes.
    virtual std::span<const protocol::tool_descriptor> tools() const = 0;
    /// Runs a tool (an element of tools()). Argument problems and platform failures come back
    /// as a result with is_error set; only bugs throw. Cancellation arrives through the
    /// awaiting coroutine's cancellation slot.
    virtual boost::asio::awaitable<protocol::call_result> call(
        protocol::tool_descriptor const& tool, boost::json::object arguments, call_context& context)
        = 0;
    /// Whether a call of `tool` with `arguments` may ask the client something in a 2025
    /// session (client_interaction::ask) before its result: its HTTP answer must then be able
    /// to become an event stream. Called before the call, on every tools/call.
    virtual bool may_ask_client(
        protocol::tool_descriptor const& /*tool*/, boost::json::object const& /*arguments*/) const
    {
        return false;
    }
};

} // namespace toolgate::toolkits
