// MCP's Streamable HTTP transport on one endpoint path: the rules of both protocol
// generations (headers, sessions, status codes) on top of transport's HTTP server.
#pragma once

#include "auth/client_auth.hpp"
#include "common/result.hpp"
#include "protocol/streamable_http.hpp"
#include "server/credential_hub.hpp"
#include "server/router.hpp"
#include "server/session_registry.hpp"
#include "server/tool_views.hpp"
#include "transport/gzip_splice.hpp"
#include "transport/http_types.hpp"
#include "transport/origin_policy.hpp"

#include <atomic>
#include <string>

namespace toolgate::server {
using auth::client_auth;

class server_metrics;

struct endpoint_options {
    /// The MCP endpoint; empty: none (a listener for /metrics and the probes only).
    std::string path = "/mcp";
    bool loopback_bind = true; ///< check Host against loopback names (DNS rebinding)
    client_auth const* auth = nullptr; ///< client authentication; null: none (outlives us)
    /// Per-connection choices (query parameters, Toolgate-* headers) pick a view here; null:
    /// the dispatcher's own view for every request. Outlives the endpoint.
    tool_views* views = nullptr;
    /// /readyz answers 200 while this is true, 503 once it is false (shutdown has begun);
    /// null: /readyz is not served. Outlives us.
    std::atomic<bool> const* ready = nullptr;
    /// Served at /metrics (null: not here, e.g. it has its own --metrics-listen port), behind
    /// client authentication unless `metrics_public`. Outlives us.
    server_metrics const* metrics = nullptr;
    bool metrics_public = false;
    /// Each request's platform credentials come from here; null: the server's for every
    /// call. Outlives the endpoint.
    credential_hub const* credentials = nullptr;
};

class mcp_http_endpoint final : public transport::http_handler {
public:
    /// `r` and `sessions` must outlive the endpoint.
    mcp_http_endpoint(router& r, session_registry& sessions, transport::origin_policy origins,
        endpoint_options options);

    boost::asio::awaitable<void> handle(
        transport::http_request request, transport::http_responder& out) override;

private:
    /// Client authentication (when configured): the authenticated client ("" without client
    /// auth), or the refusal to send (401/403/400). Not a coroutine: the common, allowed case
    /// costs no coroutine frame.
    boost::system::result<std::string, client_auth::answer> authenticate(
        transport::http_request const& request) const;
    boost::asio::awaitable<void> refuse_client(
        client_auth::answer answer, transport::http_responder& out);
    boost::asio::awaitable<void> serve_metrics(
        transport::http_request const& request, transport::http_responder& out);
    /// `principal`: the authenticated client ("" without client auth); sessions bind to it.
    boost::asio::awaitable<void> post(transport::http_request const& request,
        transport::http_responder& out, std::string principal, credentials_ptr credentials);
    /// A 2025 initialize: a new session, unless the request names a live one or none is free.
    boost::asio::awaitable<void> open_session(transport::http_request const& request,
        transport::http_responder& out, protocol::message msg, std::string const& principal,
        std::shared_ptr<protocol::tool_view const> view);
    /// The tools a POST sees (per-connection choices), or what is wrong with a choice.
    common::checked<std::shared_ptr<protocol::tool_view const>> view_for(
        transport::http_request const& request) const;
    boost::asio::awaitable<void> remove(transport::http_request const& request,
        transport::http_responder& out, std::string principal);

    router& router_;
    session_registry& sessions_;
    transport::origin_policy origins_;
    endpoint_options options_;
    transport::gzip_cache gzip_; ///< compressed tools/list pages, made on first use
    /// The MCP path is empty or a probe's (/healthz, /readyz, /metrics): the probes win.
    bool path_shadows_probe_;
};

} // namespace toolgate::server
