// What a running call may ask the person behind the client (MCP elicitation), as the router
// offers it to a tool: the modes the client declared, a request to the client and its answer
// in a 2025 session, and in 2026-07-28 the verified answers of a retried call. A tool that
// needs input from a 2026-07-28 client returns call_result::input_requests instead of asking.
#pragma once

#include "protocol/elicitation.hpp"
#include "protocol/errors.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <string>

namespace toolgate::toolkits {

class client_interaction {
public:
    virtual ~client_interaction() = default;
    /// The elicitation modes the client declared for this request (2025: at initialize).
    virtual protocol::elicitation_modes modes() const = 0;
    /// Whether the request is 2026-07-28 (MRTR: input_required results, no requests to the
    /// client) rather than a 2025 session.
    virtual bool modern() const = 0;
    /// Whether ask() can reach the client: a 2025 session whose answer can carry a request
    /// (stdio, or an HTTP answer the client takes as an event stream).
    virtual bool can_ask() const = 0;
    /// 2025 sessions: sends the client `method` (e.g. `elicitation/create`) with `params` and
    /// waits for its answer's `result`; an error when it cannot be asked, answers with an
    /// error, or does not answer in time. Throws as any wait does when the call is cancelled.
    virtual boost::asio::awaitable<protocol::rpc_result<boost::json::value>> ask(
        std::string method, boost::json::object params)
        = 0;
    /// 2026-07-28 retries: what this server put in the requestState it verified (null when
    /// the request is not a verified retry), and the client's `inputResponses` (null: none).
    virtual boost::json::object const* retry_state() const = 0;
    virtual boost::json::object const* input_responses() const = 0;
};

} // namespace toolgate::toolkits
