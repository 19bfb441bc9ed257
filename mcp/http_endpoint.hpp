// MCP's Streamable HTTP transport on one endpoint path: the rules of both protocol
// generations (headers, sessions, status codes) on top of transport's HTTP server.
#pragma once

#include "auth/client_auth.hpp"
#include "common/result.hpp"
#include "credentials/credential_hub.hpp"
#include "credentials/sign_in_service.hpp"
#include "mcp/policy.hpp"
#include "mcp/router.hpp"
#include "mcp/session_registry.hpp"
#include "mcp/tool_views.hpp"
#include "ops/ops_endpoint.hpp"
#include "protocol/streamable_http.hpp"
#include "transport/gzip_splice.hpp"
#include "transport/http_types.hpp"
#include "transport/origin_policy.hpp"

#include <optional>
#include <string>

namespace toolgate::mcp {
using auth::client_auth;

struct endpoint_options {
    /// The MCP endpoint; empty: none (the probes only).
    std::string path = "/mcp";
    bool loopback_bind = true; ///< check Host against loopback names (DNS rebinding)
    client_auth const* auth = nullptr; ///< client authentication; null: none (outlives us)
    /// Per-connection choices (query parameters, Toolgate-* headers) pick a view here; null:
    /// the dispatcher's own view for every request. Outlives the endpoint.
    tool_views* views = nullptr;
    /// The operator's endpoints served on this port too: /healthz always, /readyz and
    /// /metrics when set (null metrics: it has its own --metrics-listen port, or none). Its
    /// `auth` is this endpoint's.
    ops::ops_options ops = {};
    /// Each request's platform credentials come from here; null: the server's for every
    /// call. Outlives the endpoint.
    credentials::credential_hub const* credentials = nullptr;
    /// Sign-in from the conversation: its link and callback pages are served on this port;
    /// null: none. Outlives the endpoint.
    credentials::sign_in_service* sign_in = nullptr;
    /// The operator's policy per client narrows each request's view; null: none. Outlives
    /// the endpoint.
    operator_policy const* policy = nullptr;
};

class mcp_http_endpoint final : public transport::http_handler {
public:
    /// `r` and `sessions` must outlive the endpoint.
    mcp_http_endpoint(router& r, session_registry& sessions, transport::origin_policy origins,
        endpoint_options options);

    boost::asio::awaitable<void> handle(
        transport::http_request request, transport::http_responder& out) override;

private:
    /// What a path other than the MCP endpoint's gets before any check: Protected Resource
    /// Metadata, a word on OAuth discovery under static tokens, or 404. nullopt: /metrics,
    /// or the MCP path itself, which go on to the checks.
    std::optional<client_auth::answer> off_path_answer(
        transport::http_request const& request, bool metrics_path) const;
    /// CORS preflight (answered before authentication: it carries no credentials).
    boost::asio::awaitable<void> preflight(
        transport::http_request const& request, transport::http_responder& out) const;
    /// The MCP path after the door checks: client authentication, then POST, DELETE or 405.
    boost::asio::awaitable<void> serve_mcp(
        transport::http_request const& request, transport::http_responder& out);
    /// `principal`: the authenticated client ("" without client auth); sessions bind to it.
    /// `scopes`: its JWT's scopes (its policy may depend on them).
    boost::asio::awaitable<void> post(transport::http_request const& request,
        transport::http_responder& out, std::string principal, std::vector<std::string> scopes,
        credentials_ptr credentials);
    /// A 2025 initialize: a new session, unless the request names a live one or none is free.
    boost::asio::awaitable<void> open_session(transport::http_request const& request,
        transport::http_responder& out, protocol::message msg, std::string const& principal,
        std::shared_ptr<protocol::tool_view const> view);
    /// The tools a POST sees (per-connection choices within its client's policy), or what is
    /// wrong with a choice.
    common::checked<std::shared_ptr<protocol::tool_view const>> view_for(
        transport::http_request const& request, std::string_view principal,
        std::vector<std::string> const& scopes) const;
    boost::asio::awaitable<void> remove(transport::http_request const& request,
        transport::http_responder& out, std::string principal);

    router& router_;
    session_registry& sessions_;
    transport::origin_policy origins_;
    endpoint_options options_;
    ops::ops_endpoint probes_; ///< /healthz, /readyz, /metrics on this port
    transport::gzip_cache gzip_; ///< compressed tools/list pages, made on first use
    /// The MCP path is empty or a probe's (/healthz, /readyz, /metrics): the probes win.
    bool path_shadows_probe_;
};

} // namespace toolgate::mcp
