// Sign-in pages on the MCP port (see sign_in_route.hpp).
#include "mcp/sign_in_route.hpp"

#include <spdlog/spdlog.h>

namespace toolgate::mcp {

// `out`, `service` and `origins` belong to the endpoint, which awaits this coroutine.
boost::asio::awaitable<void> serve_sign_in_page(transport::http_request request,
    transport::http_responder& out, credentials::sign_in_service& service,
    transport::origin_policy const& origins, bool loopback_bind)
{
    auto const* host = request.header("host");
    auto const* origin = request.header("origin");
    bool const host_ok
        = !loopback_bind || host == nullptr || transport::origin_policy::is_loopback_host(*host);
    bool const origin_ok = origins.allows_origin(origin) || service.is_own_origin(origin);
    credentials::web_page page;
    if (!host_ok || !origin_ok) {
        spdlog::warn("http: sign-in page refused to {}: Origin or Host not allowed", request.peer);
        out.close_after_response();
        page = credentials::problem_page(
            403, "Not allowed", "This page does not answer requests from there.");
    } else {
        page = co_await service.serve(std::move(request));
    }
    co_await out.respond(page.status, std::move(page.headers), std::move(page.body));
}

} // namespace toolgate::mcp
