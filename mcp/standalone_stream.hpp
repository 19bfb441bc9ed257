// The standalone event stream (GET on the MCP endpoint) of a 2025 session whose client can
// receive what the server sends it unprompted: the completion notification of a URL-mode
// elicitation (2025-11-25). Every other GET is still 405 (docs/protocol-rules.md H19).
#pragma once

#include "mcp/router.hpp"
#include "mcp/session_registry.hpp"
#include "transport/http_types.hpp"

#include <boost/asio/awaitable.hpp>

#include <string>

namespace toolgate::mcp {

/// Serves a GET of `principal` (authenticated already) if it names a session that may have
/// a standalone stream: an event stream carrying that session's unsolicited messages until the
/// client leaves, the session ends or the server stops (or 400/404/406/409 naming what is
/// wrong). False, with nothing sent, when the request is not one for such a session: the
/// caller answers 405.
boost::asio::awaitable<bool> serve_standalone_stream(transport::http_request const& request,
    transport::http_responder& out, session_registry& sessions, router const& r,
    std::string const& principal);

} // namespace toolgate::mcp
