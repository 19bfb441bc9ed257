// MCP method dispatch for both protocol generations, decided per message: the 2026-07-28
// stateless revision (per-request `_meta`) and the 2025 handshake revisions (a session).
// Pure: it answers what it can at once and hands tool calls back as work items.
#pragma once

#include "protocol/elicitation.hpp"
#include "protocol/errors.hpp"
#include "protocol/jsonrpc.hpp"
#include "protocol/log_level.hpp"
#include "protocol/request_meta.hpp"
#include "protocol/server_identity.hpp"
#include "protocol/tool_index.hpp"
#include "protocol/tool_pages.hpp"
#include "protocol/tool_view.hpp"
#include "protocol/trace_context.hpp"

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace toolgate::protocol {

/// State of one legacy conversation: a stdio process or one HTTP session.
struct legacy_session {
    bool initialized = false; ///< initialize was answered
    std::string version; ///< negotiated revision
    std::optional<log_level> level; ///< set by logging/setLevel; none before
    elicitation_modes elicitation; ///< what initialize's `capabilities` declared
    std::string client_name; ///< initialize's `clientInfo.name` (shown to people, never trusted)
};

/// An answer ready to send: `text`, then `shared`, then `tail`. Most answers are all in
/// `text`; a tools/list answer keeps its page in `shared` (bytes owned by tool_pages for the
/// life of the process) so that a large listing is never copied per request.
/// `http_status` is what Streamable HTTP should answer with.
struct reply {
    reply() = default;
    reply(std::string t, unsigned status = 200, bool opened = false)
        : text(std::move(t))
        , http_status(status)
        , opened_session(opened)
    {
    }

    std::string text;
    unsigned http_status = 200;
    bool opened_session = false; ///< a successful initialize (HTTP mints a session id)
    std::string_view shared;
    /// The identity of `shared` (a listing page, protocol/tool_pages.hpp); 0 when none.
    std::uint64_t shared_id = 0;
    std::string tail;

    /// The whole message as one string (for transports that need one).
    std::string flatten() const
    {
        std::string out;
        out.reserve(text.size() + shared.size() + tail.size());
        out.append(text).append(shared).append(tail);
        return out;
    }
    /// The whole message, moving `text` out when it is all there is.
    std::string take() { return shared.empty() && tail.empty() ? std::move(text) : flatten(); }
};

/// A JSON-RPC batch's answer: the elements' replies, sent as one array. The replies keep
/// their shared pages, so a batch of listings is never copied into one string per element
/// (security review 2); `pieces()` gives the bytes in order.
struct batch_reply {
    std::vector<reply> replies;

    /// Bytes of the whole array.
    std::size_t size() const;
    /// The array's bytes in order: `[`, each reply's parts, `,` between them, `]`. The views
    /// point into this object and into the shared pages; keep both alive while using them.
    std::vector<std::string_view> pieces() const;
    /// The whole array as one string (for transports that need one).
    std::string flatten() const;
};

/// A tools/call the caller must run; the result goes out with `id`.
struct tool_call {
    boost::json::value id;
    tool_descriptor const* tool = nullptr;
    boost::json::object arguments;
    std::string version; ///< revision of this request
    bool modern = false;
    std::optional<log_level> level; ///< notifications/message threshold, none = no logs
    boost::json::value progress_token; ///< null when the client asked for no progress
    std::shared_ptr<tool_view const>
        view; ///< what the request may see (the meta-tools filter by it)
    /// W3C trace context from `_meta` (or, over HTTP, the request's headers); empty: none.
    std::optional<trace_parent> trace;
    std::string tracestate;
    /// What the client can be asked: the session's capabilities (2025), or this request's
    /// `_meta` clientCapabilities (2026-07-28).
    elicitation_modes elicitation;
    std::string client_name; ///< the client's `clientInfo.name`, "" when none was given
    /// A 2026-07-28 retry's `inputResponses` and `requestState` (unverified; the router checks
    /// the state before the call runs). Always empty on 2025 requests.
    input_retry retry;
    /// Set by the router: the call may send the client a request (2025 `elicitation/create`)
    /// before its result, so its HTTP answer must be able to become an event stream.
    bool may_ask = false;

    /// Whether running it can send messages (progress, logs, requests to the client) before
    /// the result: only then does an HTTP answer need to be ready to turn into an event stream.
    bool may_notify() const { return !progress_token.is_null() || level.has_value() || may_ask; }
};

/// `notifications/cancelled` for an earlier request.
struct cancel_call {
    boost::json::value request_id;
};

struct no_reply { };

using outcome = std::variant<no_reply, reply, tool_call, cancel_call>;

class dispatcher {
public:
    /// `pages` and `index` must outlive the dispatcher; the default view lists `pages` and
    /// may call every tool.
    dispatcher(server_identity identity, tool_pages const& pages, tool_index const& index);
    /// `index` must outlive the dispatcher; `default_view` answers requests that name none.
    dispatcher(server_identity identity, std::shared_ptr<tool_view const> default_view,
        tool_index const& index);

    /// Decides one message. Mutates `session` for initialize and logging/setLevel only.
    outcome dispatch(message const& msg, legacy_session& session) const;
    /// The same, for a request that sees the served tools through `view`.
    outcome dispatch(message const& msg, legacy_session& session,
        std::shared_ptr<tool_view const> const& view) const;

    /// A 2026-07-28 request whose `_meta` the transport has already validated (its version is
    /// the modern one): dispatched without reading `_meta` again.
    outcome dispatch_checked(message const& msg, request_meta const& meta,
        std::shared_ptr<tool_view const> const& view) const;

    std::shared_ptr<tool_view const> const& default_view() const { return default_view_; }
    /// The served tools by name.
    tool_index const& index() const { return index_; }

    /// A serialised error reply with the status Streamable HTTP uses for it.
    reply error_reply(boost::json::value const& id, rpc_error error, bool modern) const;
    /// The result of a finished tool call, for its request's revision.
    std::string call_reply(tool_call const& call, call_result const& result) const;
    /// A 2026-07-28 call's InputRequiredResult (basic/patterns/mrtr), with the server's
    /// identity in `_meta`; `request_state` already signed by the caller.
    std::string input_required_reply(tool_call const& call, boost::json::object input_requests,
        std::string const& request_state) const;

    server_identity const& identity() const { return identity_; }

private:
    using view_ptr = std::shared_ptr<tool_view const>;
    outcome dispatch_modern(message const& msg, view_ptr const& view) const;
    outcome dispatch_legacy(
        message const& msg, legacy_session& session, view_ptr const& view) const;
    outcome initialize(message const& msg, legacy_session& session, tool_view const& view) const;
    outcome list_tools(
        message const& msg, std::string_view version, bool modern, tool_view const& view) const;
    rpc_result<tool_call> read_call(message const& msg, view_ptr const& view) const;
    reply result_reply(boost::json::value const& id, boost::json::object result, bool modern) const;

    server_identity identity_;
    std::shared_ptr<tool_view const> default_view_;
    tool_index const& index_;
};

} // namespace toolgate::protocol
