// What a person debugging a call sees of it while it runs: each platform request (method,
// masked host and path, status, time), retry waits and redirects as MCP log notifications at
// their level, and progress notifications while the call takes longer than a second. The
// client's chosen level and progressToken decide what is actually sent (call_context).
#pragma once

#include "toolkits/tool_provider.hpp"
#include "toolkits/tool_spec.hpp"
#include "transport/outbound.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <memory>
#include <string>

namespace toolgate::toolkits {

class call_reporter {
public:
    /// Reports for the call of `tool` (the dotted name, the logs' logger) to `context`, which
    /// must stay alive until stop() (or the destructor) has returned.
    call_reporter(call_context& context, std::string tool);
    /// Stops: after this nothing more reaches the context.
    ~call_reporter();
    call_reporter(call_reporter const&) = delete;
    call_reporter& operator=(call_reporter const&) = delete;

    /// The observer for outbound_request::on_event; holds the shared state, not `this`.
    std::function<void(transport::outbound_event const&)> observer() const;

    /// Starts the progress heartbeat on `executor`: after `first`, then every `every`, the
    /// time waited so far (as progress) and what is awaited (the host and path last sent to).
    void start_heartbeat(boost::asio::any_io_executor executor,
        std::chrono::milliseconds first = std::chrono::seconds(1),
        std::chrono::milliseconds every = std::chrono::seconds(1));

    /// Ends all reporting; idempotent. Nothing reaches the context after it returns.
    void stop();

    struct state;

private:
    std::shared_ptr<state> state_;
};

/// Logs (warning) that a call of `tool` was refused before anything was sent, and why; for
/// clients that asked for logs.
void report_refusal(call_context& context, toolkit_spec const& toolkit, tool_spec const& tool,
    std::string_view why);

/// The log line (level and text) for an outbound event, as sent to the client.
struct event_line {
    log_level level = log_level::info;
    std::string message;
};
event_line describe(transport::outbound_event const& event);

} // namespace toolgate::toolkits
