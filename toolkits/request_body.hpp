// The text of a request: argument values as wire text, JSON bodies from body parameters,
// form bodies (urlencoded and multipart), and an M-tool's request_body check.
#pragma once

#include "toolkits/tool_error.hpp"

#include <boost/json/value.hpp>

#include <span>
#include <string>
#include <string_view>

namespace toolgate::toolkits {

/// A scalar argument as it travels in a path, query, header or form field: strings as given,
/// booleans `true`/`false`, integers (also integral doubles) without a fraction, other
/// numbers in their shortest round-trip form. Arrays and objects become compact JSON.
std::string format_scalar(boost::json::value const& value);

/// One body parameter with the caller's value. `wire_name` may be dotted (nesting) or
/// `(entire body)`. `argument` names it in error messages.
struct body_field {
    std::string_view argument;
    std::string_view wire_name;
    boost::json::value const* value;
};

/// The wire name that makes a parameter's value the whole JSON body.
inline constexpr std::string_view entire_body = "(entire body)";

/// Assembles a JSON body: `a.b` nests as {"a":{"b":...}}; an `(entire body)` value is the body
/// (other fields merge into it when it is an object). Refuses fields whose paths collide.
tool_result<std::string> make_json_body(std::span<const body_field> fields);

/// One form field. A multipart part with a non-empty `filename` is sent as a file.
struct form_field {
    std::string name;
    std::string value;
    std::string filename;
    std::string content_type; ///< file parts only; application/octet-stream when empty
};

/// `application/x-www-form-urlencoded` text (RFC 3986 unreserved characters kept, the rest
/// percent-encoded).
std::string make_urlencoded_body(std::span<const form_field> fields);

/// A multipart/form-data body and the Content-Type header value naming its boundary. The
/// boundary is derived from the content (so tests are stable) and never occurs inside it.
struct multipart_body {
    std::string content_type;
    std::string body;
};
multipart_body make_multipart_body(std::span<const form_field> fields);

/// Checks an M-tool's `request_body` text is one JSON value and returns it trimmed of outer
/// white space. On failure the message names `argument` and the line and column of the error.
tool_result<std::string> check_request_body(std::string_view argument, std::string_view text);

} // namespace toolgate::toolkits
