// Joins transports to the protocol and the tools: parses and dispatches each message, runs
// tool calls concurrently (one coroutine each), routes progress and log notifications to
// the caller's stream, and cancels calls on request.
#pragma once

#include "mcp/call_step.hpp"
#include "mcp/conversation.hpp"
#include "mcp/request_state.hpp"
#include "ops/call_observer.hpp"
#include "protocol/dispatcher.hpp"
#include "toolkits/tool_provider.hpp"
#include "transport/activity.hpp"
#include "transport/message_sink.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/strand.hpp>
#include <boost/json/array.hpp>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

namespace toolgate::mcp {

/// A call's platform credentials, assembled per request (credentials/credential_hub.hpp); null:
/// the server's own.
using credentials_ptr = std::shared_ptr<toolkits::call_credentials const>;

struct router_limits {
    std::size_t max_depth = 64;
    std::size_t max_inflight_per_conversation = 64; ///< --max-inflight-per-session
    std::size_t max_inflight_total = 256; ///< --max-inflight: every session together
    /// --max-inflight-per-principal: one authenticated client's calls, all its sessions and
    /// stateless requests together (security review 7). Not applied to the anonymous
    /// principal (no client authentication).
    std::size_t max_inflight_per_principal = 128;
    std::size_t max_batch_messages = 64; ///< elements of one JSON-RPC batch
    std::size_t max_batch_answer_bytes = 16 * 1024 * 1024; ///< one batch's answer array
    /// How long a call waits for a 2025 client's answer to a request of ours (a person
    /// filling in a form).
    std::chrono::milliseconds client_answer_timeout = std::chrono::minutes(2);
};

class router {
public:
    /// `provider` and `dispatcher` must outlive the router.
    router(toolkits::tool_provider& provider, protocol::dispatcher const& dispatcher,
        router_limits limits = {});

    /// Handles one parsed message, over stdio or HTTP. The response (if any) is returned;
    /// notifications about it go to `stream`. `conv` is null for stateless (2026-07-28)
    /// requests; the caller's cancellation slot cancels the call. `bound`: see run_decided.
    boost::asio::awaitable<std::optional<protocol::reply>> handle(protocol::message msg,
        std::shared_ptr<conversation> conv, std::shared_ptr<transport::message_sink> stream,
        std::shared_ptr<protocol::tool_view const> view = {}, credentials_ptr credentials = {},
        std::shared_ptr<inflight_call> bound = {});

    /// handle() in two steps, so that a caller can see whether a tool call may send
    /// notifications before choosing how to answer. decide() answers what needs no tool and
    /// acts on cancellations (→ a reply, or nothing); a tools/call comes back to be given
    /// to run_decided().
    using decision = std::variant<std::monostate, protocol::reply, protocol::tool_call>;
    decision decide(protocol::message const& msg, conversation* conv);
    /// decide() for a request that sees the served tools through `view` (per-connection
    /// choices); null: the server's own view.
    /// `checked`: the `_meta` of a 2026-07-28 request the transport has validated (the message
    /// is then dispatched without reading `_meta` again); null for everything else.
    decision decide(protocol::message const& msg, conversation* conv,
        std::shared_ptr<protocol::tool_view const> const& view,
        protocol::request_meta const* checked = nullptr);
    /// Admits and runs a tools/call, in a conversation (`conv`) or stateless (null). The
    /// answer, or nothing when the call was cancelled. `bound`: an entry whose signal the
    /// caller bound this coroutine's cancellation slot to (a stdio line): a conversation's call
    /// registers it and runs in this coroutine; null: the call runs in one of its own,
    /// listening to a new entry's signal and to this coroutine's slot.
    boost::asio::awaitable<std::optional<protocol::reply>> run_decided(protocol::tool_call call,
        std::shared_ptr<conversation> conv, std::shared_ptr<transport::message_sink> stream,
        std::string principal = {}, credentials_ptr credentials = {},
        std::shared_ptr<inflight_call> bound = {});

    /// What a JSON-RPC batch gets: `refused` (a single -32600 error, the batch was not
    /// served), or `answer` (the array), or neither (only notifications: nothing to send).
    struct batch_outcome {
        std::optional<std::string> refused;
        std::optional<protocol::batch_reply> answer;
    };
    /// A JSON-RPC batch (2025-03-26 sessions only), at most `max_batch_messages` elements;
    /// an element whose answer would take the array past `max_batch_answer_bytes` is answered
    /// with an error instead (security review 2). Each element sees the tools through `view`
    /// (null: the server's own) and its calls count against `principal`, as single messages
    /// of the same request would.
    boost::asio::awaitable<batch_outcome> run_batch(std::shared_ptr<conversation> conv,
        boost::json::array batch, std::shared_ptr<transport::message_sink> sink,
        credentials_ptr credentials = {}, std::string principal = {},
        std::shared_ptr<protocol::tool_view const> view = {});

    /// Cancels every call of `conv` (stdin EOF, session end, shutdown).
    void cancel_all(conversation& conv);
    /// Tool calls running now, all conversations and stateless requests together.
    std::size_t inflight() const { return inflight_total_->count(); }
    /// Completes once no tool call is running (at once when none is): the moment the last
    /// ticket is given back. The router must outlive the wait.
    boost::asio::awaitable<void> until_idle() { return inflight_total_->until_idle(); }
    /// Shutdown: from now on every new tool call is answered with an error (calls already
    /// running go on). Thread-safe.
    void refuse_new_calls() { refusing_ = true; }
    bool is_refusing_calls() const { return refusing_; }

    protocol::dispatcher const& dispatcher() const { return dispatcher_; }

    /// Reports calls (outcome, latency) and listings to `observer` from now on; null: nowhere.
    /// Set before serving; `observer` must outlive the router's calls.
    void set_observer(ops::call_observer* observer) { observer_ = observer; }
    ops::call_observer* observer() const { return observer_; }
    /// The operator's controls (quota, confirmation, audit) every call of a catalogue tool
    /// goes through from now on; null: none. Set before serving; must outlive the calls.
    void set_controls(toolkits::call_controls* controls) { controls_ = controls; }
    /// Tells the controls of a tools/call that `decide()` refused because `view` does not
    /// allow its tool (policy, read-only mode, the connection's choices); anything else is
    /// ignored. `principal`: the caller's ("" : none). Thread-safe.
    void note_refusal(protocol::message const& msg, protocol::tool_view const* view,
        std::string_view principal) const;

    /// Runs `step` around every tool call from now on, after the steps added before it
    /// (mcp/call_step.hpp). Set before serving; `step` must outlive the router's calls.
    void add_step(call_step& step) { steps_.push_back(&step); }
    /// Signs and checks the requestState of 2026-07-28 input_required answers; without one,
    /// no call can ask a 2026-07-28 client for input and a retry's state is refused.
    void set_request_states(std::shared_ptr<request_state_signer const> signer)
    {
        states_ = std::move(signer);
    }

    /// Counts a call against `principal`'s own limit (--max-inflight-per-principal); the
    /// error to answer with when it is reached. The anonymous principal ("") is never limited.
    protocol::rpc_result<void> admit_principal(std::string const& principal);
    /// Gives back a place taken by admit_principal.
    void release_principal(std::string const& principal);
    std::size_t max_depth() const { return limits_.max_depth; }

private:
    /// Who a call is for: as its log line shows it (tags, never the values), and the
    /// platform credentials its request brought (null: the server's).
    struct call_origin {
        std::string session_tag;
        std::string principal;
        credentials_ptr credentials = {};
        std::shared_ptr<conversation> conv = {}; ///< the 2025 conversation, or none
    };
    /// What a call ran to: the tool's result, or an answer that replaces it (a step's, or an
    /// input_required result), already serialised.
    struct step_outcome {
        protocol::call_result result;
        std::optional<std::string> answer;
        bool answer_is_error = false; ///< the answer is a JSON-RPC error

        /// For metrics and the log: a replaced result did not complete (a tool error), or
        /// was answered with a JSON-RPC error.
        ops::call_outcome outcome() const
        {
            if (answer_is_error) {
                return ops::call_outcome::protocol_error;
            }
            return result.is_error || answer ? ops::call_outcome::tool_error
                                             : ops::call_outcome::ok;
        }
    };
    /// The verified retry, the steps' before(), the tool, the steps' after() (router_steps.cpp).
    boost::asio::awaitable<step_outcome> run_with_steps(
        protocol::tool_call& call, toolkits::call_context& context, call_scope& scope);
    /// A step's answer (or a tool's input_requests) as the text the client gets.
    std::string render(protocol::tool_call const& call, call_scope const& scope, step_answer answer,
        bool& is_error) const;
    /// Whether `call` may ask its 2025 client something before its result (tool_call::may_ask).
    bool may_ask(protocol::tool_call const& call, conversation const* conv) const;
    class call_ticket;
    /// The one admission step of every call, stdio or HTTP: the server-wide limit, the
    /// principal's limit and, in a conversation, registration under the call's id (so that
    /// notifications/cancelled finds it). The ticket gives everything back when destroyed;
    /// a refusal is the error to answer with instead.
    protocol::rpc_result<call_ticket> admit_call(protocol::tool_call const& call,
        std::shared_ptr<conversation> const& conv, std::string const& principal,
        boost::asio::any_io_executor const& runs_on,
        std::shared_ptr<inflight_call> const& bound = {});
    /// Runs an admitted call: the tool, its log line and metrics. Returns the answer text (an
    /// unexpected failure becomes an internal-error answer).
    boost::asio::awaitable<std::optional<std::string>> run_tool(protocol::tool_call call,
        std::shared_ptr<transport::message_sink> sink, call_origin origin);
    void count_refused(protocol::tool_call const& call);

    toolkits::tool_provider& provider_;
    protocol::dispatcher const& dispatcher_;
    router_limits limits_;
    /// Shared with the calls' admission guards: a coroutine frame destroyed with the
    /// io_context after the router is gone must not touch the router.
    std::shared_ptr<transport::activity> inflight_total_ = std::make_shared<transport::activity>();
    std::atomic<bool> refusing_ { false };
    ops::call_observer* observer_ = nullptr;
    toolkits::call_controls* controls_ = nullptr;
    std::vector<call_step*> steps_;
    std::shared_ptr<request_state_signer const> states_;
    std::mutex principals_mutex_;
    std::unordered_map<std::string, std::size_t> principal_calls_; ///< calls in flight by principal
};

} // namespace toolgate::mcp
