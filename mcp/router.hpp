// Joins transports to the protocol and the tools: parses and dispatches each message, runs
// tool calls concurrently (one coroutine each), routes progress and log notifications to
// the caller's stream, and cancels calls on request.
#pragma once

#include "mcp/conversation.hpp"
#include "ops/call_observer.hpp"
#include "protocol/dispatcher.hpp"
#include "toolkits/tool_provider.hpp"
#include "transport/message_sink.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/strand.hpp>
#include <boost/json/array.hpp>

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <variant>

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
};

class router {
public:
    /// `provider` and `dispatcher` must outlive the router.
    router(toolkits::tool_provider& provider, protocol::dispatcher const& dispatcher,
        router_limits limits = {});

    /// stdio: handles one message text (or batch); every answer and notification goes to
    /// `sink`. Returns at once; tool calls continue on the conversation's strand.
    void on_text(std::shared_ptr<conversation> conv, std::string text,
        std::shared_ptr<transport::message_sink> sink);

    /// HTTP: handles one parsed message. The response (if any) is returned; notifications
    /// about it go to `stream`. `conv` is null for stateless (2026-07-28) requests; the caller's
    /// cancellation slot cancels the call.
    boost::asio::awaitable<std::optional<protocol::reply>> handle(protocol::message msg,
        std::shared_ptr<conversation> conv, std::shared_ptr<transport::message_sink> stream,
        std::shared_ptr<protocol::tool_view const> view = {}, credentials_ptr credentials = {});

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
    boost::asio::awaitable<std::optional<protocol::reply>> run_decided(protocol::tool_call call,
        std::shared_ptr<conversation> conv, std::shared_ptr<transport::message_sink> stream,
        std::string principal = {}, credentials_ptr credentials = {});

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
    std::size_t inflight() const { return *inflight_total_; }
    /// Shutdown: from now on every new tool call is answered with an error (calls already
    /// running go on). Thread-safe.
    void refuse_new_calls() { refusing_ = true; }
    bool is_refusing_calls() const { return refusing_; }

    protocol::dispatcher const& dispatcher() const { return dispatcher_; }

    /// Reports calls (outcome, latency) and listings to `observer` from now on; null: nowhere.
    /// Set before serving; `observer` must outlive the router's calls.
    void set_observer(ops::call_observer* observer) { observer_ = observer; }
    ops::call_observer* observer() const { return observer_; }

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
    };
    class call_ticket;
    /// The one admission step of every call, stdio or HTTP: the server-wide limit, the
    /// principal's limit and, in a conversation, registration under the call's id (so that
    /// notifications/cancelled finds it). The ticket gives everything back when destroyed;
    /// a refusal is the error to answer with instead.
    protocol::rpc_result<call_ticket> admit_call(protocol::tool_call const& call,
        std::shared_ptr<conversation> const& conv, std::string const& principal,
        boost::asio::any_io_executor const& runs_on);
    /// Runs an admitted call: the tool, its log line and metrics. Returns the answer text (an
    /// unexpected failure becomes an internal-error answer).
    boost::asio::awaitable<std::optional<std::string>> run_tool(protocol::tool_call call,
        std::shared_ptr<transport::message_sink> sink, call_origin origin);
    /// run_tool, then the ticket's release before the answer is handed on.
    boost::asio::awaitable<std::optional<std::string>> run_admitted(call_ticket ticket,
        protocol::tool_call call, std::shared_ptr<transport::message_sink> sink,
        call_origin origin);
    void count_refused(protocol::tool_call const& call);
    void handle_batch(std::shared_ptr<conversation> conv, boost::json::array batch,
        std::shared_ptr<transport::message_sink> sink);
    /// stdio: admits the call now (in message order) and runs it on the conversation's strand;
    /// the answer goes to `sink` unless the call was cancelled.
    void start_call(std::shared_ptr<conversation> conv, protocol::tool_call call,
        std::shared_ptr<transport::message_sink> sink);

    toolkits::tool_provider& provider_;
    protocol::dispatcher const& dispatcher_;
    router_limits limits_;
    /// Shared with the calls' admission guards: a coroutine frame destroyed with the
    /// io_context after the router is gone must not touch the router.
    std::shared_ptr<std::atomic<std::size_t>> inflight_total_
        = std::make_shared<std::atomic<std::size_t>>(0);
    std::atomic<bool> refusing_ { false };
    ops::call_observer* observer_ = nullptr;
    std::mutex principals_mutex_;
    std::unordered_map<std::string, std::size_t> principal_calls_; ///< calls in flight by principal
};

} // namespace toolgate::mcp
