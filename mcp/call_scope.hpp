// One running tool call as the steps around it (mcp/call_step.hpp) and the tool itself see it:
// who called, through which conversation, what its client can be asked, and a verified
// 2026-07-28 retry. It is the call's client_interaction: a tool or a step asks a 2025 client
// through it.
#pragma once

#include "mcp/conversation.hpp"
#include "protocol/dispatcher.hpp"
#include "toolkits/client_interaction.hpp"
#include "toolkits/token_source.hpp"
#include "transport/message_sink.hpp"

#include <chrono>
#include <memory>
#include <optional>
#include <string>

namespace toolgate::mcp {

class call_scope final : public toolkits::client_interaction {
public:
    /// `call` must outlive the scope (the router keeps both in the call's frame). `conv` is
    /// the 2025 conversation (stdio: every request's); `sink` is where the call's messages go
    /// before its answer (over HTTP, discard_sink() when the answer cannot stream).
    call_scope(protocol::tool_call const& call, std::string principal,
        std::shared_ptr<conversation> conv, std::shared_ptr<transport::message_sink> sink,
        std::shared_ptr<toolkits::call_credentials const> credentials,
        std::chrono::milliseconds answer_timeout);

    protocol::tool_call const& call() const { return call_; }
    /// The authenticated client ("" without client authentication).
    std::string const& principal() const { return principal_; }
    /// The 2025 conversation (stdio process or HTTP session); null for 2026-07-28 requests
    /// over HTTP. Over stdio every request has the process's, 2026-07-28 ones too.
    std::shared_ptr<conversation> const& conv() const { return conv_; }
    /// The platform credentials of the call's request (null: the server's own).
    toolkits::call_credentials const* credentials() const { return credentials_.get(); }
    /// The client's protocol revision is one with URL-mode elicitation (2025-11-25 or later),
    /// and it declared that mode.
    bool takes_url_elicitation() const;

    /// The router, after checking a retry's requestState: what the state carried.
    void set_retry_state(boost::json::object state) { retry_state_ = std::move(state); }

    protocol::elicitation_modes modes() const override { return call_.elicitation; }
    bool modern() const override { return call_.modern; }
    bool can_ask() const override;
    boost::asio::awaitable<protocol::rpc_result<boost::json::value>> ask(
        std::string method, boost::json::object params) override;
    boost::json::object const* retry_state() const override;
    boost::json::object const* input_responses() const override;

private:
    protocol::tool_call const& call_;
    std::string principal_;
    std::shared_ptr<conversation> conv_;
    std::shared_ptr<transport::message_sink> sink_;
    bool reachable_;
    std::shared_ptr<toolkits::call_credentials const> credentials_;
    std::chrono::milliseconds answer_timeout_;
    std::optional<boost::json::object> retry_state_;
};

} // namespace toolgate::mcp
