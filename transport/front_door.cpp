// The door's checks (see front_door.hpp).
#include "transport/front_door.hpp"

#include "protocol/errors.hpp"
#include "protocol/jsonrpc.hpp"
#include "protocol/text.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace toolgate::transport {

std::optional<door_refusal> check_front_door(
    http_request const& request, origin_policy const& origins, bool loopback_bind)
{
    // RFC 9112 §3.2: a request with more than one Host is invalid; which one would we check?
    auto const hosts = std::count_if(request.headers.begin(), request.headers.end(),
        [](auto const& h) { return h.first == "host"; });
    if (hosts > 1) {
        return door_refusal { 400,
            protocol::serialize_error(nullptr, protocol::error_code::invalid_request,
                "Bad Request: more than one Host header") };
    }
    // H26/H27: refuse browsers from other origins, and rebinding through a foreign Host.
    auto const* host = request.header("host");
    auto const* origin = request.header("origin");
    if (origins.allows_origin(origin)
        && (!loopback_bind || !host || origin_policy::is_loopback_host(*host))) {
        return std::nullopt;
    }
    spdlog::warn("http: refused Origin `{}` / Host `{}` from {} (allow more origins with "
                 "--allowed-origin)",
        origin ? protocol::clipped(*origin, 100) : std::string("-"),
        host ? protocol::clipped(*host, 100) : std::string("-"), request.peer);
    return door_refusal { 403,
        protocol::serialize_error(nullptr, protocol::error_code::invalid_request,
            "Forbidden: Origin or Host not allowed") };
}

void allow_cross_origin(http_request const& request, http_responder& out)
{
    auto const* origin = request.header("origin");
    if (origin == nullptr) {
        return;
    }
    out.add_response_header("Access-Control-Allow-Origin", *origin);
    out.add_response_header("Vary", "Origin");
    out.add_response_header(
        "Access-Control-Expose-Headers", "Mcp-Session-Id, WWW-Authenticate, MCP-Protocol-Version");
}

} // namespace toolgate::transport
