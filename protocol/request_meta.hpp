// The per-request `_meta` of the stateless revision (2026-07-28): version, client
// capabilities and info, log level, progress token.
#pragma once

#include "protocol/errors.hpp"
#include "protocol/log_level.hpp"
#include "protocol/trace_context.hpp"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace toolgate::protocol {

/// True when `params._meta` carries the protocol-version key: what counts is presence
/// (a `_meta` holding only a progressToken is a legacy request).
bool has_version_claim(boost::json::object const* params);

/// The claimed version string ("" when the claim is not a string).
std::string claimed_version(boost::json::object const* params);

struct request_meta {
    std::string protocol_version;
    boost::json::object client_capabilities;
    std::optional<boost::json::object> client_info;
    std::optional<log_level> level; ///< notifications/message only when set
};

/// Validates a claimed `_meta` (MCP 2026-07-28 basic/index): protocolVersion a string,
/// clientCapabilities an object, clientInfo an object when present, logLevel a known level.
/// Failures are -32602 naming the key.
rpc_result<request_meta> read_request_meta(boost::json::object const* params);

/// Every revision served, newest first, as a JSON array (server/discover, -32022 data).
boost::json::array supported_version_list();

/// -32022 for a claimed revision we do not serve; `data` lists ours and echoes the claim.
rpc_error unsupported_version_error(std::string_view requested);

/// `params._meta.progressToken` (string or integer), or null.
boost::json::value progress_token_of(boost::json::object const* params);

/// The W3C trace context in `params._meta`: `parent` when `traceparent` is well formed (a
/// malformed one is ignored, as the spec says), and `state` (`tracestate`) only beside it.
struct meta_trace {
    std::optional<trace_parent> parent;
    std::string state;
};
meta_trace trace_of(boost::json::object const* params);

} // namespace toolgate::protocol
