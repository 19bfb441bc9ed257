// The sign-in link's and callback's requests on the MCP port: a browser's, so no client
// authentication and no CORS, but the same Host check against DNS rebinding as every request,
// and an Origin that is ours (the consent form posting back) or allowed.
#pragma once

#include "credentials/sign_in_service.hpp"
#include "transport/http_types.hpp"
#include "transport/origin_policy.hpp"

#include <boost/asio/awaitable.hpp>

namespace toolgate::mcp {

/// Answers a request for one of `service`'s paths (sign_in_service::is_own).
boost::asio::awaitable<void> serve_sign_in_page(transport::http_request request,
    transport::http_responder& out, credentials::sign_in_service& service,
    transport::origin_policy const& origins, bool loopback_bind);

} // namespace toolgate::mcp
