// The call step that turns "this caller lacks the sign-in an OAuth toolkit needs" into a
// sign-in from the conversation (credentials/sign_in_service.hpp), in the client's own terms:
//   2025-11-25 with URL elicitation: the -32042 error with one URL elicitation, then
//     `notifications/elicitation/complete` to the session when the sign-in completes;
//   2026-07-28 with URL elicitation: an input_required result with the URL elicitation and a
//     requestState; the retry waits (bounded) for the sign-in, then runs the call;
//   any other client: a tool error whose text holds the link.
// Nothing is sent to the platform before the sign-in.
#pragma once

#include "credentials/sign_in_service.hpp"
#include "mcp/call_step.hpp"

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace toolgate::mcp {

class sign_in_step final : public call_step {
public:
    /// `service` must outlive the step. `retry_wait`: how long a 2026-07-28 retry that
    /// accepted the sign-in waits for it to complete before asking again.
    sign_in_step(credentials::sign_in_service& service, std::chrono::milliseconds retry_wait);

    boost::asio::awaitable<std::optional<step_answer>> before(call_scope& scope) override;
    boost::asio::awaitable<std::optional<step_answer>> after(
        call_scope& scope, protocol::call_result const& result) override;
    bool lacks_sign_in(call_scope const& scope, std::string_view toolkit) const override;

    /// How many 2025 elicitations wait for their sign-in (tests, metrics).
    std::size_t pending() const;

private:
    /// A -32042 elicitation a 2025 session waits on.
    struct waiting {
        std::weak_ptr<conversation> conv;
        std::string principal;
        std::string toolkit;
        std::chrono::steady_clock::time_point until;
    };
    void completed(credentials::completed_sign_in const& done);
    void remember(std::string id, waiting w);

    credentials::sign_in_service& service_;
    std::chrono::milliseconds retry_wait_;
    mutable std::mutex mutex_;
    std::map<std::string, waiting> waiting_; ///< by elicitationId
};

} // namespace toolgate::mcp
