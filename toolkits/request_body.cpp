// Wire text: argument values and request bodies (see request_body.hpp).
#include "toolkits/request_body.hpp"

#include "common/fnv.hpp"

#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/stream_parser.hpp>
#include <boost/url/encode.hpp>
#include <boost/url/rfc/unreserved_chars.hpp>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>

namespace toolgate::toolkits {
namespace {

namespace json = boost::json;
namespace urls = boost::urls;

std::string format_double(double d)
{
    // 2^53: beyond it a double no longer holds every integer, so print it as a double.
    constexpr double exact_limit = 9007199254740992.0;
    if (std::isfinite(d) && std::trunc(d) == d && std::fabs(d) < exact_limit) {
        return std::to_string(static_cast<std::int64_t>(d));
    }
    char buffer[32];
    auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, d);
    return ec == std::errc {} ? std::string(buffer, end) : std::string("0");
}

/// Sets `value` at the dotted `path` inside `body`, creating objects on the way. A segment
/// ending in `[]` is a one-element array of objects (`HistoryRecords[].Details` sends
/// `{"HistoryRecords":[{"Details": value}]}`, toolkits/README.md).
tool_result<void> set_dotted(
    json::object& body, std::string_view argument, std::string_view path, json::value const& value)
{
    json::object* node = &body;
    std::string_view rest = path;
    for (auto dot = rest.find('.'); dot != std::string_view::npos; dot = rest.find('.')) {
        auto segment = rest.substr(0, dot);
        bool const in_array = segment.ends_with("[]");
        if (in_array) {
            segment.remove_suffix(2);
        }
        auto* child = &(*node)[segment];
        if (in_array) {
            if (child->is_null()) {
                *child = json::array { json::object {} };
            }
            if (!child->is_array() || child->get_array().size() != 1) {
                return refuse("argument `" + std::string(argument) + "`: body property `"
                    + std::string(path) + "` collides with another argument's value");
            }
            child = &child->get_array().front();
        }
        if (child->is_null()) {
            *child = json::object {};
        }
        if (!child->is_object()) {
            return refuse("argument `" + std::string(argument) + "`: body property `"
                + std::string(path) + "` collides with another argument's value");
        }
        node = &child->as_object();
        rest = rest.substr(dot + 1);
    }
    if (node->contains(rest)) {
        return refuse("argument `" + std::string(argument) + "`: body property `"
            + std::string(path) + "` is already set by another argument");
    }
    node->emplace(rest, value);
    return {};
}

std::string quoted_form_name(std::string_view text)
{
    // HTML's multipart encoding: quotes and line breaks inside a quoted name are escaped.
    std::string out;
    for (char c : text) {
        switch (c) {
        case '"':
            out += "%22";
            break;
        case '\r':
            out += "%0D";
            break;
        case '\n':
            out += "%0A";
            break;
        default:
            out += c;
        }
    }
    return out;
}

std::string boundary_for(std::span<const form_field> fields, unsigned salt)
{
    std::uint64_t hash = common::fnv1a64_basis ^ salt;
    auto mix = [&](std::string_view s) { hash = common::fnv1a64(hash, s); };
    for (auto const& f : fields) {
        mix(f.name);
        mix(f.value);
        mix(f.filename);
    }
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
    return std::string("toolgate-boundary-") + hex;
}

std::string render_multipart(std::span<const form_field> fields, std::string const& boundary)
{
    std::string body;
    for (auto const& f : fields) {
        body += "--" + boundary + "\r\n";
        body += "Content-Disposition: form-data; name=\"" + quoted_form_name(f.name) + "\"";
        if (!f.filename.empty()) {
            body += "; filename=\"" + quoted_form_name(f.filename) + "\"\r\n";
            // The type comes from an argument: a line break in it must not start a header.
            body += "Content-Type: "
                + (f.content_type.empty() ? std::string("application/octet-stream")
                                          : quoted_form_name(f.content_type));
        }
        body += "\r\n\r\n" + f.value + "\r\n";
    }
    body += "--" + boundary + "--\r\n";
    return body;
}

/// 1-based line and column of byte `offset` in `text`.
std::pair<std::size_t, std::size_t> line_and_column(std::string_view text, std::size_t offset)
{
    std::size_t line = 1;
    std::size_t line_start = 0;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            line_start = i + 1;
        }
    }
    return { line, offset - line_start + 1 };
}

} // namespace

std::string format_scalar(json::value const& value)
{
    switch (value.kind()) {
    case json::kind::string:
        return std::string(value.get_string());
    case json::kind::bool_:
        return value.get_bool() ? "true" : "false";
    case json::kind::int64:
        return std::to_string(value.get_int64());
    case json::kind::uint64:
        return std::to_string(value.get_uint64());
    case json::kind::double_:
        return format_double(value.get_double());
    case json::kind::null:
        return {};
    default:
        return json::serialize(value);
    }
}

tool_result<std::string> make_json_body(std::span<const body_field> fields)
{
    json::value body;
    std::string_view whole_from;
    for (auto const& f : fields) {
        if (f.wire_name == entire_body) {
            if (!whole_from.empty()) {
                return refuse("arguments `" + std::string(whole_from) + "` and `"
                    + std::string(f.argument) + "` both claim the whole request body");
            }
            body = *f.value;
            whole_from = f.argument;
        }
    }
    for (auto const& f : fields) {
        if (f.wire_name == entire_body) {
            continue;
        }
        if (body.is_null()) {
            body = json::object {};
        }
        if (!body.is_object()) {
            return refuse("argument `" + std::string(f.argument)
                + "` cannot be added to the body given by `" + std::string(whole_from)
                + "`, which is not a JSON object");
        }
        auto placed = set_dotted(body.as_object(), f.argument, f.wire_name, *f.value);
        if (!placed) {
            return placed.error();
        }
    }
    if (body.is_null()) {
        body = json::object {}; // a body operation called without body arguments
    }
    return json::serialize(body);
}

std::string make_urlencoded_body(std::span<const form_field> fields)
{
    std::string body;
    for (auto const& f : fields) {
        body += body.empty() ? "" : "&";
        body += urls::encode(f.name, urls::unreserved_chars);
        body += '=';
        body += urls::encode(f.value, urls::unreserved_chars);
    }
    return body;
}

multipart_body make_multipart_body(std::span<const form_field> fields)
{
    for (unsigned salt = 0;; ++salt) {
        auto boundary = boundary_for(fields, salt);
        // A boundary that occurs inside a value would end that part early.
        bool clash = false;
        for (auto const& f : fields) {
            clash = clash || f.value.find(boundary) != std::string::npos;
        }
        if (!clash) {
            return { "multipart/form-data; boundary=" + boundary,
                render_multipart(fields, boundary) };
        }
    }
}

tool_result<std::string> check_request_body(std::string_view argument, std::string_view text)
{
    auto const first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) {
        return refuse("argument `" + std::string(argument)
            + "` is empty; expected a JSON text (call with mode `get_request_schema` "
              "to see its schema)");
    }
    auto const last = text.find_last_not_of(" \t\r\n");
    json::stream_parser parser;
    boost::system::error_code ec;
    auto const consumed = parser.write(text.data(), text.size(), ec);
    if (!ec) {
        parser.finish(ec);
    }
    if (ec) {
        auto const offset = ec == json::error::incomplete ? text.size() : consumed;
        auto const [line, column] = line_and_column(text, offset);
        return refuse("argument `" + std::string(argument) + "` is not valid JSON at line "
            + std::to_string(line) + ", column " + std::to_string(column) + ": " + ec.message());
    }
    return std::string(text.substr(first, last - first + 1));
}

} // namespace toolgate::toolkits
