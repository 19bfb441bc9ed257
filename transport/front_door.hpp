// The checks every HTTP endpoint of ours makes before it routes a request (the MCP endpoint and
// the operator's endpoint alike): exactly one Host header, an Origin and a Host the policy
// allows (DNS rebinding, docs/protocol-rules.md H26, H27), and the CORS headers an allowed
// browser page gets.
#pragma once

#include "transport/http_types.hpp"
#include "transport/origin_policy.hpp"

#include <optional>
#include <string>

namespace toolgate::transport {

/// An answer a request gets at the door: the status and a JSON-RPC error body.
struct door_refusal {
    unsigned status = 400;
    std::string body;
};

/// nullopt: the request may go on. Otherwise what to answer (400: more than one Host header;
/// 403: an Origin the policy refuses, or, with `loopback_bind`, a Host that is not a loopback
/// name); the connection should close after it. A refusal of Origin or Host is logged.
std::optional<door_refusal> check_front_door(
    http_request const& request, origin_policy const& origins, bool loopback_bind);

/// For a request that carries an Origin (one the policy allowed): the response headers that let
/// its page read our answers and the headers it needs (Fetch standard §3.2).
void allow_cross_origin(http_request const& request, http_responder& out);

} // namespace toolgate::transport
