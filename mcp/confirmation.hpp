// Confirmation by a person (docs/controlling-writes.md "Confirmation by a person"): before a
// call of a destructive tool is sent, where --confirm-destructive or the caller's policy asks
// for it, the person behind the client is asked through form elicitation (2025 sessions: an
// `elicitation/create` request; 2026-07-28: an input_required result) with a message naming
// the tool, its target ids and what it will do. Accept: sent once. Decline or cancel: nothing
// sent, a result saying so. A client that cannot be asked: refused. Nothing in the arguments
// can stand in for the answer: it comes from the client's elicitation only (2026-07-28: under
// a requestState the router signed for this very call and caller, used once).
#pragma once

#include "mcp/call_step.hpp"
#include "mcp/policy.hpp"
#include "protocol/tool_index.hpp"
#include "toolkits/call_controls.hpp"
#include "toolkits/tool_provider.hpp"

#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace toolgate::mcp {

/// How asking ended.
struct confirmation_outcome {
    enum class kind {
        accepted, ///< send it
        declined, ///< a person said no (decline, cancel, or accept without the box ticked)
        asking, ///< 2026-07-28: `result` is the input_required answer; the retry decides
        unavailable, ///< nobody could be asked (or the answer went wrong): refused
    };
    kind state = kind::accepted;
    protocol::call_result result; ///< what the call answers unless accepted
};

class person_confirmation {
public:
    /// Asks the person behind `context`'s client about `call`. Thread-safe.
    boost::asio::awaitable<confirmation_outcome> ask(
        toolkits::controlled_call const& call, toolkits::call_context& context);

    /// The message a person reads: the tool, its target ids and what it does.
    static std::string message_for(toolkits::controlled_call const& call);

private:
    /// 2026-07-28: the retry of an input_required answer, or the first round.
    confirmation_outcome modern(toolkits::controlled_call const& call,
        toolkits::client_interaction const& client, std::string const& message);
    /// Whether a confirmation's nonce is seen for the first time (a retry replayed with the
    /// same accepted answer must not send the call twice).
    bool first_use(std::string const& nonce);

    std::mutex mutex_;
    std::unordered_map<std::string, std::chrono::steady_clock::time_point> used_;
};

/// The router's step that says, as each call arrives, whether it may ask the client for a
/// confirmation (so that its HTTP answer can carry the request): a destructive tool, called
/// directly or through toolgate_call_tool, while any confirmation is configured.
class confirmation_step final : public call_step {
public:
    /// `policy` and `index` (the served tools, meta-tools included) must outlive the step.
    confirmation_step(operator_policy const& policy, protocol::tool_index const& index)
        : policy_(policy)
        , index_(index)
    {
    }
    bool may_ask(protocol::tool_call const& call) const override;

private:
    operator_policy const& policy_;
    protocol::tool_index const& index_;
};

} // namespace toolgate::mcp
