// The operator's endpoints: /healthz (liveness), /readyz (readiness: 503 from the moment
// shutdown begins) and /metrics (the Prometheus page, behind client authentication unless
// --metrics-public). The MCP endpoint hands these paths over on the MCP port; on a port of
// their own (--metrics-listen) this is the whole HTTP handler, with the same door checks.
#pragma once

#include "auth/client_auth.hpp"
#include "transport/http_types.hpp"
#include "transport/origin_policy.hpp"

#include <atomic>
#include <functional>

namespace toolgate::ops {

class server_metrics;

struct ops_options {
    /// /readyz answers 200 while this is true, 503 once it is false; null: /readyz is not
    /// served. Outlives the endpoint.
    std::atomic<bool> const* ready = nullptr;
    /// Served at /metrics; null: not here. Outlives the endpoint.
    server_metrics const* metrics = nullptr;
    bool metrics_public = false; ///< /metrics without client authentication
    auth::client_auth const* auth = nullptr; ///< null: no client authentication
    /// Whether the shared state store is connected, told in /readyz's body; empty: no store.
    /// Readiness does not depend on it: tools that need no store keep working without it.
    std::function<bool()> store_connected;
};

class ops_endpoint final : public transport::http_handler {
public:
    /// `origins` and `loopback_bind` are the door checks of a port of its own.
    explicit ops_endpoint(ops_options options,
        transport::origin_policy origins = transport::origin_policy(), bool loopback_bind = true);

    /// The probes answered before any check (a load balancer sends no Origin and may name any
    /// Host): GET or HEAD of /healthz, and of /readyz when readiness is served.
    bool is_probe(transport::http_request const& request) const;
    boost::asio::awaitable<void> answer_probe(
        transport::http_request const& request, transport::http_responder& out) const;
    /// Whether `request` asks for /metrics and it is served here.
    bool is_metrics(transport::http_request const& request) const
    {
        return options_.metrics != nullptr && request.path == "/metrics";
    }
    /// /metrics, after the door checks: GET or HEAD only, client authentication unless public.
    boost::asio::awaitable<void> serve_metrics(
        transport::http_request const& request, transport::http_responder& out) const;

    /// A port of its own: the probes, then /metrics behind the door checks; 404 for the rest.
    boost::asio::awaitable<void> handle(
        transport::http_request request, transport::http_responder& out) override;

private:
    ops_options options_;
    transport::origin_policy origins_;
    bool loopback_bind_;
};

} // namespace toolgate::ops
