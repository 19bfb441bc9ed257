// The operator's endpoints (see ops_endpoint.hpp).
#include "ops/ops_endpoint.hpp"

#include "auth/authenticate.hpp"
#include "ops/metrics.hpp"
#include "protocol/errors.hpp"
#include "protocol/jsonrpc.hpp"
#include "transport/front_door.hpp"

#include <spdlog/spdlog.h>

namespace toolgate::ops {
namespace asio = boost::asio;
using transport::header_list;
using transport::http_request;
using transport::http_responder;

namespace {

header_list json_headers()
{
    return { { "Content-Type", "application/json" } };
}

bool is_get(http_request const& request)
{
    return request.method == "GET" || request.method == "HEAD";
}

} // namespace

ops_endpoint::ops_endpoint(
    ops_options options, transport::origin_policy origins, bool loopback_bind)
    : options_(options)
    , origins_(std::move(origins))
    , loopback_bind_(loopback_bind)
{
}

bool ops_endpoint::is_probe(http_request const& request) const
{
    return is_get(request)
        && (request.path == "/healthz" || (request.path == "/readyz" && options_.ready));
}

asio::awaitable<void> ops_endpoint::answer_probe(
    http_request const& request, http_responder& out) const
{
    if (request.path == "/healthz") {
        co_await out.respond(200, json_headers(), R"({"status":"ok"})");
        co_return;
    }
    // Readiness, not liveness: 503 from the moment shutdown begins, so that a load balancer
    // stops sending new work here while calls in flight finish.
    bool const ready = options_.ready->load();
    unsigned const status = ready ? 200 : 503;
    std::string body = ready ? R"({"status":"ready")" : R"({"status":"shutting down")";
    if (options_.store_connected) {
        // Told, not judged: every replica shares one store, so taking replicas out for it
        // would stop the tools that do not need it too (docs/operations.md).
        body += options_.store_connected() ? R"(,"state_store":"connected")"
                                           : R"(,"state_store":"unavailable")";
    }
    body += "}";
    co_await out.respond(status, json_headers(), std::move(body));
}

asio::awaitable<void> ops_endpoint::serve_metrics(
    http_request const& request, http_responder& out) const
{
    if (!is_get(request)) {
        header_list headers = json_headers();
        headers.emplace_back("Allow", "GET, HEAD");
        co_await out.respond(405, std::move(headers),
            protocol::serialize_error(nullptr, protocol::error_code::invalid_request,
                "Method not allowed: GET /metrics"));
        co_return;
    }
    if (!options_.metrics_public) {
        auto client = auth::authenticate(options_.auth, request);
        if (!client) {
            // A refused client keeps no connection slot (security review 6).
            out.close_after_response();
            auto answer = std::move(client.error());
            co_await out.respond(answer.status, std::move(answer.headers), std::move(answer.body));
            co_return;
        }
        out.mark_authenticated();
    }
    header_list headers { { "Content-Type", std::string(metrics::content_type) },
        { "Cache-Control", "no-store" } };
    co_await out.respond(200, std::move(headers), options_.metrics->render());
}

asio::awaitable<void> ops_endpoint::handle(http_request request, http_responder& out)
{
    if (is_probe(request)) {
        co_await answer_probe(request, out);
        co_return;
    }
    if (!is_metrics(request)) {
        co_await out.respond(404, json_headers(),
            protocol::serialize_error(nullptr, protocol::error_code::invalid_request, "Not found"));
        co_return;
    }
    if (auto refused = transport::check_front_door(request, origins_, loopback_bind_)) {
        out.close_after_response();
        co_await out.respond(refused->status, json_headers(), std::move(refused->body));
        co_return;
    }
    transport::allow_cross_origin(request, out);
    if (request.method == "OPTIONS") {
        // A browser page's preflight carries no credentials: answered before authentication.
        header_list headers;
        if (request.header("origin")) {
            headers.emplace_back("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS");
            headers.emplace_back("Access-Control-Allow-Headers", "Authorization");
            headers.emplace_back("Access-Control-Max-Age", "600");
        }
        headers.emplace_back("Allow", "GET, HEAD, OPTIONS");
        co_await out.respond(204, std::move(headers), {});
        co_return;
    }
    co_await serve_metrics(request, out);
}

} // namespace toolgate::ops
