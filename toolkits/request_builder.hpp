// Request building: a validated tool call becomes an outbound_request, without credentials
// and without sending anything, so a dry run can show it as is. Auth adapters add
// credentials afterwards (toolkits/auth.hpp).
#pragma once

#include "protocol/tool_descriptor.hpp"
#include "toolkits/base_url.hpp"
#include "toolkits/tool_error.hpp"
#include "toolkits/tool_spec.hpp"
#include "transport/outbound.hpp"

#include <boost/json/object.hpp>

#include <optional>
#include <string>
#include <vector>

namespace toolgate::toolkits {

/// An identifier the caller put into the URL path (named in a 404 hint).
struct path_argument {
    std::string name; ///< the argument name the model used
    std::string value; ///< as given, before percent-encoding
};

/// A built request plus what shaping its answer needs.
struct prepared_request {
    /// Before authentication the URL may still hold `{UPPER_CASE}` secret placeholders.
    transport::outbound_request request;
    /// Secret values and what derives from them (hosts, encoded forms): never echoed back in
    /// errors or logs.
    std::vector<std::string> redactions;
    /// The credentials themselves (keys, tokens, their encoded forms; not hosts): masked even
    /// in a successful answer, should the platform echo the request (security review 14).
    std::vector<std::string> credential_values;
    /// Environment variables whose secrets the request carries (401/403 hints).
    std::vector<std::string> credential_variables;
    /// Variables whose secret names the request's host (`DESK_SUBDOMAIN`,
    /// `VECTORDB_SERVER_URL`): a resolve, connect or TLS failure points at them.
    std::vector<std::string> host_variables;
    /// Path identifiers sent, in URL order.
    std::vector<path_argument> path_arguments;
    /// True when a base-URL override replaced the platform's base.
    bool base_overridden = false;
};

/// The answer an M-tool gives without contacting its platform (mode `get_request_schema`),
/// or nullopt when the call has to be sent.
std::optional<protocol::call_result> answer_locally(
    tool_spec const& tool, boost::json::object const& arguments);

/// Builds the request for a call whose arguments passed validation. Refuses (as a tool error
/// naming the argument) what validation cannot see: header values with line breaks, empty
/// path segments, an M-tool `execute` without a valid `request_body` or its required extras.
/// Arguments the caller left out are not sent; no default is invented.
tool_result<prepared_request> build_request(toolkit_spec const& toolkit, tool_spec const& tool,
    boost::json::object const& arguments, base_url_overrides const& overrides);

} // namespace toolgate::toolkits
