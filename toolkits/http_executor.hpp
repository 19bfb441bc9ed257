// The tool executor of the shipped server: answers M-tool schema requests locally, otherwise
// builds the request, adds credentials, sends it through the outbound client and shapes the
// answer. Every refusal and failure comes back as a tool result; nothing here throws for them.
#pragma once

#include "toolkits/auth.hpp"
#include "toolkits/base_url.hpp"
#include "toolkits/credentials.hpp"
#include "toolkits/executor.hpp"
#include "toolkits/result_shaper.hpp"
#include "toolkits/token_source.hpp"
#include "toolkits/upstream_pacer.hpp"
#include "transport/outbound.hpp"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <variant>

namespace toolgate::toolkits {

/// Settings of the executor beyond result shaping.
struct execution_options {
    /// How far hosts named by secrets are trusted (--allow-insecure-upstream,
    /// --client-host-allow, --client-host-allow-private).
    url_secret_policy url_secrets;
    /// Platform answers held at once by all calls together (bytes). A call whose answer would
    /// go past it gets a tool error instead of adding to the server's memory (security
    /// review 9). 0: no budget.
    std::size_t answer_budget_bytes = 256 * 1024 * 1024;
    /// Pacing toward the platforms (--upstream-rate); null: none. Outlives the executor.
    upstream_pacer* pacer = nullptr;
    /// --call-timeout: a call that would wait for its turn past this is refused at once, and
    /// the wait counts against it.
    std::chrono::milliseconds call_timeout { 55'000 };
};

class http_executor final : public tool_executor {
public:
    /// `client` and `credentials` must outlive the executor and every call it runs; both are
    /// used from several calls at once. `overrides` is copied and never changes afterwards.
    /// `credentials` and `tokens` are the defaults for calls whose context brings none
    /// (call_context::credentials()); `tokens` may be null (no token store).
    http_executor(transport::outbound_client& client, credential_source const& credentials,
        base_url_overrides overrides, shaping_options options = {},
        execution_options execution = {}, std::shared_ptr<token_source> tokens = nullptr);

    /// Runs one call. Cancellation (notifications/cancelled, session end) reaches the
    /// outbound client through this coroutine's cancellation slot. `toolkit` and `tool` are
    /// catalogue entries with static storage.
    boost::asio::awaitable<protocol::call_result> execute(toolkit_spec const& toolkit,
        tool_spec const& tool, boost::json::object arguments, call_context& context) override;

    /// The request execute() would send, built and authenticated with the call's own
    /// credentials and shown masked (toolkits/dry_run.hpp). An access token that only the
    /// token store could supply is not fetched (nothing leaves the process): it is shown as
    /// `***` like any other.
    protocol::call_result dry_run(toolkit_spec const& toolkit, tool_spec const& tool,
        boost::json::object const& arguments, call_context const& context) const override;

    /// The request a call would send, credentials included and marked as secret, without
    /// sending it (for a dry run, which redacts `secret_headers`/`secret_query` and the
    /// prepared redactions before showing it). M-tool schema requests have no request.
    tool_result<prepared_request> prepare(toolkit_spec const& toolkit, tool_spec const& tool,
        boost::json::object const& arguments) const;
    /// prepare() with the secrets of `credentials` instead of the default source.
    tool_result<prepared_request> prepare(toolkit_spec const& toolkit, tool_spec const& tool,
        boost::json::object const& arguments, credential_source const& credentials) const;

private:
    struct sent_call {
        protocol::call_result result;
        unsigned status = 0; ///< the platform's HTTP status; 0 when no answer came
    };
    /// Sends `prepared` and shapes the answer. `argument_secrets`: secret-named argument
    /// values, masked in logs.
    boost::asio::awaitable<sent_call> send_and_shape(toolkit_spec const& toolkit,
        tool_spec const& tool, prepared_request prepared, std::vector<std::string> argument_secrets,
        call_context& context);
    /// Sends `request`, after its turn under the toolkit's pacing when there is one; a
    /// refused or cancelled wait comes back as the call's result instead (nothing sent).
    boost::asio::awaitable<std::variant<transport::outbound_result, protocol::call_result>>
    paced_send(toolkit_spec const& toolkit, tool_spec const& tool, prepared_request& prepared);

    transport::outbound_client& client_;
    credential_source const& credentials_;
    std::shared_ptr<token_source> tokens_;
    base_url_overrides overrides_;
    shaping_options options_;
    execution_options execution_;
    /// Bytes of platform answers whose results are alive (being shaped, serialised, sent):
    /// shared with each result's reservation, which may outlive the executor's call.
    std::shared_ptr<std::atomic<std::size_t>> answers_held_
        = std::make_shared<std::atomic<std::size_t>>(0);
};

} // namespace toolgate::toolkits
