// Steps around a tool call that may answer in the tool's place: the sign-in a call needs
// (mcp/sign_in_step.hpp), a person's confirmation. The router runs every step's before() ahead
// of the tool and after() behind it, in the order they were added; the first answer a step
// gives is the call's answer, and the tool does not run (before) or its result is dropped
// (after).
//
// How to ask the person behind the client, for a step (or a tool, through
// toolkits::call_context::interaction(), which is the same call_scope):
//  - What the client can answer: scope.modes() (`form`, `url`), from initialize's capabilities
//    in a 2025 session and from the request's `_meta` clientCapabilities in 2026-07-28.
//  - 2025 sessions, form mode: `co_await scope.ask("elicitation/create",
//    protocol::form_elicitation_params(message, schema))` sends the request (stdout, or the
//    call's own event stream over HTTP) and returns the client's result, which
//    protocol::read_elicit_answer reads (accept + content, decline, cancel); an error when the
//    client cannot be asked (scope.can_ask() is false), answered with an error, or did not
//    answer within the router's answer timeout. Over HTTP the call's answer can only carry
//    the request when that was known before the call: tool_provider::may_ask_client, or a
//    step's may_ask(), must be true for it (its HTTP answer is then ready to stream).
//  - 2026-07-28 (no requests to the client): answer `input_needed { input_requests, state }`.
//    The router signs `state` into the requestState (bound to the tool, the arguments' digest
//    and the principal, valid request_state_signer::lifetime()); on the client's retry it
//    verifies it (a forged, altered, expired or foreign state is refused with -32602 before
//    any step runs) and hands it back as scope.retry_state(), with the client's answers as
//    scope.input_responses() (keyed as your input_requests were). A state carries on what an
//    earlier verified state held, with your members on top: keep your keys your own
//    ("sign_in", "confirm", ...).
//  - URL mode in a 2025 session is the -32042 error (protocol::url_elicitation_required_error),
//    never an elicitation/create request (docs/decisions.md "Third wave").
#pragma once

#include "mcp/call_scope.hpp"
#include "protocol/errors.hpp"
#include "protocol/tool_descriptor.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>

#include <optional>
#include <string_view>
#include <variant>

namespace toolgate::mcp {

/// A 2026-07-28 answer asking the client for input (an InputRequiredResult).
struct input_needed {
    boost::json::object input_requests; ///< InputRequests, keyed by the step's own names
    boost::json::object state; ///< what the signed requestState carries back
};

/// What a step answers in the tool's place: a tool result, a JSON-RPC error, or a request
/// for input (2026-07-28 only).
using step_answer = std::variant<protocol::call_result, protocol::rpc_error, input_needed>;

class call_step {
public:
    virtual ~call_step() = default;
    /// Before the tool runs; nullopt lets it run.
    virtual boost::asio::awaitable<std::optional<step_answer>> before(call_scope& scope);
    /// After the tool ran, with its result; nullopt keeps the result. A 2025 call's arguments
    /// have moved into the tool by then (scope.call().arguments is empty); a 2026-07-28
    /// call's are still there.
    virtual boost::asio::awaitable<std::optional<step_answer>> after(
        call_scope& scope, protocol::call_result const& result);
    /// Whether the scope's caller lacks a sign-in this step would ask for before `toolkit`'s
    /// tools can run (the discovery tools tell the model).
    virtual bool lacks_sign_in(call_scope const& scope, std::string_view toolkit) const;
    /// Whether this step may ask a 2025 client something (scope.ask) during `call`; decided
    /// when the call arrives, before it runs. Keep it cheap: it is asked for every call.
    virtual bool may_ask(protocol::tool_call const& call) const;
};

} // namespace toolgate::mcp
