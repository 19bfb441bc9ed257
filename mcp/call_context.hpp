// The per-call services a running tool gets: progress and log notifications routed to the
// caller's stream, filtered by what the request asked for.
#pragma once

#include "mcp/call_step.hpp"
#include "protocol/log_level.hpp"
#include "toolkits/tool_provider.hpp"
#include "transport/message_sink.hpp"

#include <boost/json/value.hpp>

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace toolgate::mcp {

class routed_call_context : public toolkits::call_context {
public:
    routed_call_context(std::shared_ptr<transport::message_sink> sink,
        boost::json::value progress_token, std::optional<protocol::log_level> threshold,
        std::string version, std::shared_ptr<protocol::tool_view const> view = {},
        std::string traceparent = {}, std::string tracestate = {},
        std::shared_ptr<toolkits::call_credentials const> credentials = {},
        std::string principal = {}, toolkits::call_controls* controls = nullptr);

    void report_progress(
        double progress, std::optional<double> total, std::string_view message) override;
    void log(protocol::log_level level, std::string_view logger, boost::json::value data) override;
    bool reporting() const override { return !token_.is_null() || threshold_.has_value(); }
    std::string_view protocol_version() const override { return version_; }
    protocol::tool_view const* view() const override { return view_.get(); }
    std::string_view traceparent() const override { return traceparent_; }
    std::string_view tracestate() const override { return tracestate_; }
    toolkits::call_credentials const* credentials() const override { return credentials_.get(); }
    std::string_view principal() const override { return principal_; }
    toolkits::call_controls* controls() const override { return controls_; }
    toolkits::client_interaction* interaction() override { return scope_; }
    bool lacks_sign_in(std::string_view toolkit) const override;

    /// The call's scope (its client_interaction) and the steps around it, which say what
    /// sign-ins the caller lacks. Both outlive the context.
    void set_scope(call_scope* scope, std::vector<call_step*> const* steps)
    {
        scope_ = scope;
        steps_ = steps;
    }

    /// After this, nothing more is sent for the call (progress must stop at the response).
    void finish() { finished_ = true; }

private:
    std::shared_ptr<transport::message_sink> sink_;
    boost::json::value token_;
    std::optional<protocol::log_level> threshold_;
    std::string version_;
    std::shared_ptr<protocol::tool_view const> view_;
    std::string traceparent_; ///< what goes upstream: the caller's trace, our span
    std::string tracestate_;
    std::shared_ptr<toolkits::call_credentials const> credentials_;
    std::string principal_;
    toolkits::call_controls* controls_;
    call_scope* scope_ = nullptr;
    std::vector<call_step*> const* steps_ = nullptr;
    std::mutex mutex_;
    double last_progress_ = -1;
    std::atomic<bool> finished_ { false };
};

} // namespace toolgate::mcp
