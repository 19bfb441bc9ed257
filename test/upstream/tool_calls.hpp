// Generated calls for every catalogue tool, and the request each must produce, computed from
// the catalogue's data on its own (never by calling the request builder): arguments that
// satisfy every parameter's type, enum, format, limits and lengths and the named validation
// rules; the method, path, query, headers, credentials and body that must reach the platform;
// and the comparison with what the fake platform recorded.
#pragma once

#include "support/fake_platform.hpp"
#include "toolkits/tool_spec.hpp"

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace toolgate::upstream_test {

using string_pairs = std::vector<std::pair<std::string, std::string>>;

/// Which arguments a generated call gives.
enum class variant {
    required_only, ///< required ones (and, for M-tools, what executing needs)
    all, ///< every parameter (except what a named rule excludes)
};

std::string_view variant_name(variant v);

/// The request_body a generated M-tool call sends: an instance of the tool's body schema
/// (required fields only, or every field for `all`), as JSON text.
std::string body_instance(toolkits::tool_spec const& tool, variant v);

/// Schema-valid arguments for `tool`: strings `v_<param>` (in the `all` variant with a tail
/// of characters that must be percent-encoded), distinctive integers, `true`, two-item arrays,
/// objects built from the parameter's schema; M-tools in mode `execute` with `body_instance`.
boost::json::object make_arguments(
    toolkits::toolkit_spec const& toolkit, toolkits::tool_spec const& tool, variant v);

/// Arguments for an M-tool's `get_request_schema` mode (the mode and the required ones).
boost::json::object schema_request_arguments(
    toolkits::toolkit_spec const& toolkit, toolkits::tool_spec const& tool);

struct file_part {
    std::string name;
    std::string filename; ///< "" when the caller named none (anything goes)
    std::string content_type; ///< "" when the caller gave none (anything goes)
    std::string value;
};

/// What the fake platform must receive.
struct expected_request {
    std::string method;
    std::string path; ///< exact raw path, percent-encoded
    string_pairs query; ///< decoded, sorted; nothing else may be there
    string_pairs headers; ///< lower-case names; each must be there exactly once with this value
    std::vector<std::string> absent_headers; ///< lower-case names that must not be there
    enum class body_kind { empty, json, urlencoded, multipart } body = body_kind::empty;
    boost::json::value json; ///< body_kind::json
    string_pairs form; ///< urlencoded: decoded, sorted; multipart: the non-file parts
    std::vector<file_part> files; ///< multipart file parts
};

/// The request for a call of `tool` with `arguments`, when every toolkit's base URL is
/// overridden by `<origin>/<Toolkit>` and the credentials are fake_secrets().
expected_request expect_request(toolkits::toolkit_spec const& toolkit,
    toolkits::tool_spec const& tool, boost::json::object const& arguments);

/// Every difference between `expected` and `seen`, one per line; "" when they agree.
std::string compare(expected_request const& expected, test::recorded_request const& seen);

// Wire helpers, shared with the focused tests.
std::string percent_encode(std::string_view text); ///< RFC 3986 unreserved characters kept
std::string percent_decode(std::string_view text);
string_pairs parse_pairs(std::string_view text); ///< `a=b&c=d`, decoded, in order
std::string base64(std::string_view bytes);

} // namespace toolgate::upstream_test
