// Request building from a tool's binding (see request_builder.hpp). Each argument goes where
// its parameter's `in` says; percent-encoding is Boost.URL's, with RFC 3986 unreserved
// characters as the only ones left alone, so no value can change the path or the query.
#include "toolkits/request_builder.hpp"

#include "common/ascii.hpp"
#include "toolkits/request_body.hpp"
#include "toolkits/schema_check.hpp"
#include "toolkits/wire_forms.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/url/encode.hpp>
#include <boost/url/rfc/unreserved_chars.hpp>

#include <algorithm>
#include <cctype>
#include <deque>

namespace toolgate::toolkits {
using common::to_lower_ascii;
namespace {

namespace json = boost::json;
namespace urls = boost::urls;
using transport::header_list;

/// Header arguments are identifiers, etags, tenant ids: anything longer is a mistake or an
/// attack, and Beast refuses header fields past 64 KiB by throwing (security review 1).
constexpr std::size_t max_header_argument_bytes = 8 * 1024;

/// Wire behaviour the catalogue format does not express, per tool and argument (STYLE §5:
/// a short, named table, each entry with a test in test_request_builder.cpp).
enum class quirk_kind {
    /// The specification calls the value URL-encoded: it is sent as given, and only what
    /// could break out of the query value (`&`, `#`, spaces, bytes outside ASCII, a `%`
    /// that starts no escape) is encoded (docs/decisions.md: wire details).
    pre_encoded_query,
    /// The value is a file part of a multipart/form-data body, whatever `in` says
    /// (docs/decisions.md: KanbanApi.AddAttachmentToKanbanCard's `file_attachment`).
    multipart_file,
};

struct wire_quirk {
    std::string_view toolkit;
    std::string_view tool;
    std::string_view argument;
    quirk_kind kind;
    std::string_view filename_from = {}; ///< multipart_file: argument naming the file
    std::string_view content_type_from = {}; ///< multipart_file: argument giving its type
};

constexpr wire_quirk wire_quirks[] = {
    { "DeskApi", "ListAssets", "asset_filter_query", quirk_kind::pre_encoded_query },
    { "DeskApi", "ListDeskAgents", "query_filter", quirk_kind::pre_encoded_query },
    { "KanbanApi", "AddAttachmentToKanbanCard", "file_attachment", quirk_kind::multipart_file,
        "attachment_name", "attachment_mime_type" },
};

wire_quirk const* find_quirk(
    toolkit_spec const& toolkit, tool_spec const& tool, param_spec const& param)
{
    for (auto const& q : wire_quirks) {
        if (q.toolkit == toolkit.name && q.tool == tool.name && q.argument == param.name) {
            return &q;
        }
    }
    return nullptr;
}

std::string arg_name(param_spec const& p)
{
    return "argument `" + std::string(p.name) + "`";
}

bool is_secret_placeholder(std::string_view name)
{
    return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    });
}

bool is_credential_header(std::string_view name)
{
    static constexpr std::string_view names[]
        = { "authorization", "proxy-authorization", "cookie", "x-api-key" };
    return std::find(std::begin(names), std::end(names), to_lower_ascii(name)) != std::end(names);
}

/// Replaces the header `name` (any case) or appends it.
void set_header(header_list& headers, std::string_view name, std::string value)
{
    std::erase_if(headers, [&](auto const& h) { return common::iequals_ascii(h.first, name); });
    headers.emplace_back(std::string(name), std::move(value));
}

std::string encode_component(std::string_view text)
{
    return urls::encode(text, urls::unreserved_chars);
}

/// A path segment value: `/`, `?`, `#`, `%` and the rest are encoded.
std::string encode_path_value(std::string_view value)
{
    return encode_component(value);
}

/// Whether `value` is a dot segment (`.`, `..`) once percent-decoded, as many times as a
/// server might decode it (`%2e%2E`, `.%252e`, ...). Platforms that normalise such segments
/// (RFC 3986 §6.2.2, WHATWG URL) would turn `/projects/{id}/env/{key}` into another
/// operation's path, so these values are refused.
bool is_dot_segment(std::string_view value)
{
    std::string text(value);
    for (int round = 0; round < 4; ++round) {
        if (!text.empty() && text.size() <= 2 && text.find_first_not_of('.') == std::string::npos) {
            return true;
        }
        std::string decoded;
        for (std::size_t i = 0; i < text.size(); ++i) {
            if (text[i] == '%' && i + 2 < text.size()
                && std::isxdigit(static_cast<unsigned char>(text[i + 1])) != 0
                && std::isxdigit(static_cast<unsigned char>(text[i + 2])) != 0) {
                decoded += static_cast<char>(std::stoi(text.substr(i + 1, 2), nullptr, 16));
                i += 2;
            } else {
                decoded += text[i];
            }
        }
        if (decoded == text) {
            return false;
        }
        text = std::move(decoded);
    }
    return false;
}

bool is_hex(char c)
{
    return std::isxdigit(static_cast<unsigned char>(c)) != 0;
}

std::string encode_pre_encoded(std::string_view value)
{
    static constexpr std::string_view kept = "-._~!$'()*+,;=:@/?";
    std::string out;
    for (std::size_t i = 0; i < value.size(); ++i) {
        unsigned char const c = static_cast<unsigned char>(value[i]);
        bool const escape
            = c == '%' && i + 2 < value.size() && is_hex(value[i + 1]) && is_hex(value[i + 2]);
        if (std::isalnum(c) != 0 || kept.find(static_cast<char>(c)) != std::string_view::npos
            || escape) {
            out += static_cast<char>(c);
        } else {
            static constexpr char digits[] = "0123456789ABCDEF";
            out += '%';
            out += digits[c >> 4];
            out += digits[c & 0xF];
        }
    }
    return out;
}

/// Everything collected from the arguments before the request is assembled.
struct request_parts {
    std::string query; ///< encoded, `&`-joined
    header_list headers;
    std::vector<body_field> body;
    std::vector<form_field> form;
    bool multipart = false;
    std::string request_body; ///< M-tool JSON text
    /// Arguments turned from their published form into the platform's (wire_forms.hpp);
    /// `body` points into it, so it never reallocates.
    std::deque<json::value> converted;
};

void add_query(std::string& query, std::string_view key, std::string_view encoded_value)
{
    query += query.empty() ? "" : "&";
    query += encode_component(key);
    query += '=';
    query += encoded_value;
}

void add_query_param(
    request_parts& parts, param_spec const& p, json::value const& value, wire_quirk const* quirk)
{
    if (!value.is_array()) {
        auto text = format_scalar(value);
        add_query(parts.query, p.wire_name,
            quirk != nullptr && quirk->kind == quirk_kind::pre_encoded_query
                ? encode_pre_encoded(text)
                : encode_component(text));
        return;
    }
    auto const& items = value.get_array();
    if (items.empty()) {
        return; // nothing to say; an empty `k=` could read as one empty value
    }
    if (p.array_fmt == array_format::comma) {
        std::string joined;
        for (auto const& item : items) {
            joined += joined.empty() ? "" : ",";
            joined += encode_component(format_scalar(item));
        }
        add_query(parts.query, p.wire_name, joined);
        return;
    }
    for (auto const& item : items) {
        add_query(parts.query, p.wire_name, encode_component(format_scalar(item)));
    }
}

tool_result<void> add_header_param(
    request_parts& parts, prepared_request& out, param_spec const& p, json::value const& value)
{
    std::string text;
    if (value.is_array()) {
        for (auto const& item : value.get_array()) {
            text += text.empty() ? "" : ",";
            text += format_scalar(item);
        }
    } else {
        text = format_scalar(value);
    }
    // A CR or LF would end the header and let the value forge headers or a body; other
    // control characters have no business in a header either (RFC 9110 §5.5).
    if (std::any_of(text.begin(), text.end(), [](char c) {
            auto const u = static_cast<unsigned char>(c);
            return (u < 0x20 && c != '\t') || u == 0x7F;
        })) {
        return refuse(arg_name(p)
            + ": a header value must not contain line breaks (CR or "
              "LF), NUL or other control characters; nothing was sent");
    }
    if (text.size() > max_header_argument_bytes) {
        return refuse(arg_name(p) + ": at most " + std::to_string(max_header_argument_bytes)
            + " bytes are allowed in a header value (got " + std::to_string(text.size())
            + "); nothing was sent");
    }
    if (is_credential_header(p.wire_name)) {
        out.request.secret_headers.push_back(to_lower_ascii(p.wire_name));
        out.redactions.push_back(text);
    }
    set_header(parts.headers, p.wire_name, std::move(text));
    return {};
}

void add_form_param(request_parts& parts, param_spec const& p, json::value const& value,
    json::object const& arguments, wire_quirk const* quirk)
{
    if (quirk != nullptr && quirk->kind == quirk_kind::multipart_file) {
        form_field field { std::string(p.wire_name), format_scalar(value), "attachment", {} };
        if (auto const* name = arguments.if_contains(quirk->filename_from);
            name && !name->is_null()) {
            field.filename = format_scalar(*name);
        }
        if (auto const* type = arguments.if_contains(quirk->content_type_from);
            type && !type->is_null()) {
            field.content_type = format_scalar(*type);
        }
        parts.form.push_back(std::move(field));
        parts.multipart = true;
        return;
    }
    if (value.is_array()) {
        for (auto const& item : value.get_array()) {
            parts.form.push_back({ std::string(p.wire_name), format_scalar(item), {}, {} });
        }
        return;
    }
    parts.form.push_back({ std::string(p.wire_name), format_scalar(value), {}, {} });
}

/// Fills `{wire_name}` placeholders with encoded path arguments; `{UPPER_CASE}` secret
/// placeholders stay for the auth adapter.
tool_result<std::string> fill_path(std::string_view url, tool_spec const& tool,
    json::object const& arguments, prepared_request& out)
{
    std::string filled;
    std::size_t pos = 0;
    for (auto open = url.find('{'); open != std::string_view::npos; open = url.find('{', pos)) {
        auto const close = url.find('}', open);
        if (close == std::string_view::npos) {
            break;
        }
        filled.append(url.substr(pos, open - pos));
        pos = close + 1;
        auto const name = url.substr(open + 1, close - open - 1);
        if (is_secret_placeholder(name)) {
            filled.append(url.substr(open, close - open + 1));
            continue;
        }
        auto p = std::find_if(tool.params.begin(), tool.params.end(), [&](param_spec const& s) {
            return s.in == param_location::path && s.wire_name == name;
        });
        if (p == tool.params.end()) {
            return refuse("tool " + std::string(tool.name) + ": the URL placeholder {"
                + std::string(name) + "} has no parameter; nothing was sent");
        }
        auto const* value = arguments.if_contains(p->name);
        if (value == nullptr || value->is_null()) {
            return refuse(arg_name(*p) + " is required: it fills {" + std::string(name)
                + "} in the URL path");
        }
        auto text = format_scalar(*value);
        if (text.empty()) {
            // An empty segment would turn `/folders/{id}/items` into another operation.
            return refuse(arg_name(*p) + " must not be empty: it fills a URL path segment");
        }
        if (is_dot_segment(text)) {
            return refuse(arg_name(*p)
                + " must not be `.` or `..` (in any encoding): it fills "
                  "a URL path segment; nothing was sent");
        }
        filled += encode_path_value(text);
        out.path_arguments.push_back({ std::string(p->name), std::move(text) });
    }
    filled.append(url.substr(std::min(pos, url.size())));
    return filled;
}

/// A parsed `request_body` checked against the tool's body schema: a JSON object unless the
/// schema asks for an array, with every field as the schema says (security review 17).
tool_result<void> check_body_against_schema(
    tool_spec const& tool, param_spec const& p, std::string_view text)
{
    boost::system::error_code ec;
    auto value = json::parse(text, ec);
    if (ec) {
        return {}; // check_request_body has already said what is wrong
    }
    if (tool.request_body_schema.empty()) {
        if (!value.is_object()) {
            return refuse("argument `" + std::string(p.name) + "` must be a JSON object");
        }
        return {};
    }
    if (schema_wants_array(tool.request_body_schema) ? !value.is_array() : !value.is_object()) {
        return refuse("argument `" + std::string(p.name) + "` must be a JSON "
            + (schema_wants_array(tool.request_body_schema) ? "array" : "object"));
    }
    return check_against_schema(p.name, tool.request_body_schema, value);
}

/// An M-tool call in mode `execute`: the mode is right, `request_body` and the extras
/// needed for executing are there, and the body parses.
tool_result<void> check_m_tool(
    tool_spec const& tool, json::object const& arguments, request_parts& parts)
{
    std::string missing;
    for (auto const& p : tool.params) {
        auto const* value = arguments.if_contains(p.name);
        bool const given = value != nullptr && !value->is_null();
        if (p.in == param_location::mode) {
            if (!given || !value->is_string() || value->get_string() != "execute") {
                return refuse(arg_name(p) + ": expected `get_request_schema` or `execute`");
            }
        } else if (p.in == param_location::request_body && given) {
            auto text
                = value->is_string() ? std::string(value->get_string()) : json::serialize(*value);
            auto checked = check_request_body(p.name, text);
            if (!checked) {
                return checked.error();
            }
            if (auto conforms = check_body_against_schema(tool, p, *checked); !conforms) {
                return refuse(std::move(conforms.error().message)
                    + " (call with mode `get_request_schema` for the schema); nothing "
                      "was sent");
            }
            parts.request_body = std::move(*checked);
        } else if ((p.required_when_executing || p.in == param_location::request_body) && !given) {
            missing += missing.empty() ? "`" : ", `";
            missing += std::string(p.name) + "`";
        }
    }
    if (!missing.empty()) {
        return refuse("mode `execute` needs " + missing
            + " (call with mode `get_request_schema` to see the body's schema)");
    }
    return {};
}

/// Puts every given query, header, body and form argument into `parts`.
tool_result<void> collect_arguments(toolkit_spec const& toolkit, tool_spec const& tool,
    json::object const& arguments, request_parts& parts, prepared_request& out)
{
    bool marker_given = false;
    bool usemarker_open = false;
    for (auto const& p : tool.params) {
        auto const* quirk = find_quirk(toolkit, tool, p);
        auto const* value = arguments.if_contains(p.name);
        usemarker_open = usemarker_open
            || (p.in == param_location::query && p.wire_name == "usemarker" && value == nullptr);
        if (value == nullptr || value->is_null()) {
            continue; // never send what the caller did not give, not even a default
        }
        if (has_wire_forms(p.schema)) {
            auto wire = to_wire_form(p.name, p.schema, *value);
            if (!wire) {
                return wire.error();
            }
            value = &parts.converted.emplace_back(std::move(*wire));
        }
        if (quirk != nullptr && quirk->kind == quirk_kind::multipart_file) {
            add_form_param(parts, p, *value, arguments, quirk);
            continue;
        }
        switch (p.in) {
        case param_location::query:
            marker_given = marker_given || p.wire_name == "marker";
            add_query_param(parts, p, *value, quirk);
            break;
        case param_location::header:
            if (auto added = add_header_param(parts, out, p, *value); !added) {
                return added.error();
            }
            break;
        case param_location::body:
            parts.body.push_back({ p.name, p.wire_name, value });
            break;
        case param_location::form:
            add_form_param(parts, p, *value, arguments, nullptr);
            break;
        case param_location::path:
        case param_location::mode:
        case param_location::request_body:
            break; // handled by fill_path and check_m_tool
        }
    }
    // Box pages by marker only when asked to (docs/decisions.md: wire details).
    if (marker_given && usemarker_open) {
        add_query(parts.query, "usemarker", "true");
    }
    return {};
}

/// Sets the body and its Content-Type: an M-tool's request_body, a form, or a JSON body from
/// body arguments. A body operation (POST, PUT, PATCH) called without body arguments still
/// sends an empty object.
tool_result<void> attach_body(
    tool_spec const& tool, request_parts& parts, transport::outbound_request& request)
{
    if (!parts.request_body.empty()) {
        request.body = std::move(parts.request_body);
        set_header(parts.headers, "Content-Type", "application/json");
        return {};
    }
    if (!parts.form.empty()) {
        if (parts.multipart || tool.http.body_content_type.starts_with("multipart/")) {
            auto body = make_multipart_body(parts.form);
            request.body = std::move(body.body);
            set_header(parts.headers, "Content-Type", std::move(body.content_type));
        } else {
            request.body = make_urlencoded_body(parts.form);
            set_header(parts.headers, "Content-Type", "application/x-www-form-urlencoded");
        }
        return {};
    }
    bool const takes_body = std::any_of(tool.params.begin(), tool.params.end(),
        [](auto const& p) { return p.in == param_location::body; });
    bool const bodiless_method = request.method == "GET" || request.method == "DELETE";
    if (parts.body.empty() && (!takes_body || bodiless_method)) {
        return {};
    }
    auto body = make_json_body(parts.body);
    if (!body) {
        return body.error();
    }
    request.body = std::move(*body);
    set_header(parts.headers, "Content-Type", "application/json");
    return {};
}

} // namespace

std::optional<protocol::call_result> answer_locally(
    tool_spec const& tool, json::object const& arguments)
{
    if (!tool.m_tool) {
        return std::nullopt;
    }
    auto const* mode = arguments.if_contains("mode");
    if (mode == nullptr || !mode->is_string() || mode->get_string() != "get_request_schema") {
        return std::nullopt;
    }
    auto result = protocol::call_result::text(std::string(tool.request_body_schema));
    boost::system::error_code ec;
    auto schema = json::parse(tool.request_body_schema, ec);
    if (!ec) {
        result.structured = std::move(schema);
    }
    return result;
}

tool_result<prepared_request> build_request(toolkit_spec const& toolkit, tool_spec const& tool,
    json::object const& arguments, base_url_overrides const& overrides)
{
    prepared_request out;
    request_parts parts;
    for (auto const& h : tool.http.headers) {
        set_header(parts.headers, h.name, std::string(h.value));
    }
    if (tool.m_tool) {
        if (auto checked = check_m_tool(tool, arguments, parts); !checked) {
            return checked.error();
        }
    }
    auto url_template = resolve_url_template(toolkit, tool, overrides);
    if (!url_template) {
        return url_template.error();
    }
    out.base_overridden = overrides.find(toolkit.name).has_value();
    auto url = fill_path(*url_template, tool, arguments, out);
    if (!url) {
        return url.error();
    }
    if (auto collected = collect_arguments(toolkit, tool, arguments, parts, out); !collected) {
        return collected.error();
    }
    auto& request = out.request;
    request.method = std::string(tool.http.method);
    request.url = std::move(*url);
    if (!parts.query.empty()) {
        request.url += '?';
        request.url += parts.query;
    }
    if (auto attached = attach_body(tool, parts, request); !attached) {
        return attached.error();
    }
    request.headers = std::move(parts.headers);
    return out;
}

} // namespace toolgate::toolkits
