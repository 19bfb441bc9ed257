// Streamable HTTP POST rules. Rule ids (H…, B…, L…) and sections (§…) are those of
// docs/protocol-rules.md, which says where each comes from.
#include "protocol/streamable_http.hpp"

#include "common/ascii.hpp"
#include "common/base64.hpp"
#include "protocol/names.hpp"
#include "protocol/versions.hpp"

#include <fmt/format.h>

namespace toolgate::protocol::streamable_http {
namespace json = boost::json;
using common::trim_ows;

namespace {

immediate bad_request(json::value const& id, std::string message)
{
    return { 400, serialize_error(id, error_code::invalid_request, std::move(message)) };
}

rpc_error mismatch(std::string message)
{
    return { error_code::header_mismatch, std::move(message), std::nullopt };
}

bool contains(std::optional<std::string_view> header, std::string_view token)
{
    return header && header->find(token) != std::string_view::npos;
}

/// H… for 2025 requests: MCP-Protocol-Version, when sent, names a 2025 revision we serve.
boost::system::result<void, immediate> check_legacy_version_header(
    post_view const& request, message const& msg)
{
    if (!request.protocol_version) {
        return {};
    }
    auto const v = *request.protocol_version;
    if (is_modern_version(v)) {
        // §2 rules 3 and 5: the header claims the stateless revision but the body does not.
        bool const init = msg.method() == names::initialize;
        rpc_error error { init ? error_code::header_mismatch : error_code::invalid_params,
            init ? "Header mismatch: initialize does not exist in revision 2026-07-28"
                 : "Invalid params: MCP-Protocol-Version names 2026-07-28 but params._meta "
                   "lacks its protocol version and client capabilities",
            std::nullopt };
        return immediate { 400, serialize_error(msg.id(), error) };
    }
    if (!is_legacy_version(v)) {
        // H17: malformed or unsupported.
        return bad_request(msg.id(),
            fmt::format(
                "Bad Request: unsupported MCP-Protocol-Version \"{}\"", printable_header_value(v)));
    }
    return {};
}

} // namespace

unsigned http_status_for(int code, bool modern)
{
    switch (code) {
    case error_code::parse_error:
    case error_code::invalid_request:
    case error_code::header_mismatch:
    case error_code::missing_client_capability:
    case error_code::unsupported_protocol_version:
        return 400;
    case error_code::method_not_found:
        return modern ? 404 : 200;
    case error_code::invalid_params:
        return modern ? 400 : 200; // the modern envelope error; handler errors override
    default:
        return 200;
    }
}

std::string printable_header_value(std::string_view value, std::size_t limit)
{
    std::string out;
    for (unsigned char c : value) {
        if (out.size() >= limit) {
            out += "...";
            break;
        }
        if (c >= 0x20 && c < 0x7f) {
            out += static_cast<char>(c);
        } else {
            out += fmt::format("\\x{:02x}", c);
        }
    }
    return out;
}

std::optional<std::string> decode_header_value(std::string_view raw)
{
    auto v = trim_ows(raw);
    constexpr std::string_view prefix = "=?base64?";
    if (!v.starts_with(prefix) || !v.ends_with("?=") || v.size() < prefix.size() + 2) {
        return std::string(v);
    }
    return common::base64_decode(v.substr(prefix.size(), v.size() - prefix.size() - 2));
}

boost::system::result<accepts, immediate> check_post_headers(post_view const& request)
{
    if (!request.content_type || !request.content_type->starts_with("application/json")) {
        return immediate { 415,
            serialize_error(nullptr, error_code::invalid_request,
                "Unsupported Media Type: POST a JSON-RPC message as application/json") };
    }
    // H3: no Accept, or */*, takes both forms.
    accepts taken;
    if (!request.accept || contains(request.accept, "*/*")) {
        taken = { true, true };
    } else {
        taken.json = contains(request.accept, "application/json")
            || contains(request.accept, "application/*");
        taken.sse
            = contains(request.accept, "text/event-stream") || contains(request.accept, "text/*");
    }
    if (!taken.json && !taken.sse) {
        return immediate { 406,
            serialize_error(nullptr, error_code::invalid_request,
                "Not Acceptable: accept application/json and/or text/event-stream") };
    }
    return taken;
}

verdict classify_post(post_view const& request, parse_limits limits)
{
    auto parsed = parse_json(request.body, limits);
    if (!parsed) {
        return immediate { 400, serialize_error(nullptr, parsed.error()) };
    }
    auto& doc = *parsed;
    if (doc.is_array()) {
        // B1/B2: a batch belongs to a 2025-03-26 session.
        if (!request.session_id) {
            return batch_needs_session();
        }
        classified out;
        out.kind = route::batch;
        out.batch = std::move(doc.get_array());
        return out;
    }
    auto message_or_error = classify(std::move(doc));
    if (!message_or_error) {
        auto const& bad = message_or_error.error();
        return immediate { 400, serialize_error(bad.id, bad.error) };
    }
    classified out;
    out.message.emplace(std::move(*message_or_error));
    auto const& msg = *out.message;
    if (!msg.is_request()) {
        out.kind = route::notification; // H5
        return out;
    }
    // §2: the claim in `_meta` decides the revision; a claim naming a 2025 revision is legacy.
    if (has_version_claim(msg.params()) && !is_legacy_version(claimed_version(msg.params()))) {
        auto meta = check_modern_request(request, msg);
        if (!meta) {
            unsigned const status = http_status_for(meta.error().code, true);
            return immediate { status, serialize_error(msg.id(), meta.error()) };
        }
        out.kind = route::modern;
        out.meta.emplace(std::move(*meta));
        return out;
    }
    if (auto checked = check_legacy_version_header(request, msg); !checked) {
        return checked.error();
    }
    auto const method = msg.method();
    if (method == names::initialize) {
        out.kind = route::initialize;
    } else if (request.session_id) {
        out.kind = route::in_session;
    } else if (method == names::ping) {
        out.kind = route::ping; // L9: ping needs no session
    } else {
        // H13
        return bad_request(
            msg.id(), "Bad Request: Mcp-Session-Id header is required; call initialize first");
    }
    return out;
}

rpc_result<request_meta> check_modern_request(post_view const& request, message const& msg)
{
    auto const* params = msg.params();
    auto const claimed = claimed_version(params);
    auto const& version_header = request.protocol_version;
    auto const& method_header = request.mcp_method;

    if (version_header && trim_ows(*version_header) != claimed) {
        return mismatch(fmt::format("Header mismatch: MCP-Protocol-Version is \"{}\" but "
                                    "_meta names \"{}\"",
            printable_header_value(trim_ows(*version_header)), claimed));
    }
    if (method_header && trim_ows(*method_header) != msg.method()) {
        return mismatch(fmt::format("Header mismatch: Mcp-Method is \"{}\" but the body's "
                                    "method is \"{}\"",
            printable_header_value(trim_ows(*method_header)), msg.method()));
    }
    auto meta = read_request_meta(params);
    if (!meta) {
        return meta.error();
    }
    if (!is_modern_version(claimed)) {
        return unsupported_version_error(claimed);
    }
    if (!version_header) {
        return mismatch("Header mismatch: the MCP-Protocol-Version header is required");
    }
    if (!method_header) {
        return mismatch("Header mismatch: the Mcp-Method header is required");
    }
    if (msg.method() == names::tools_call) {
        auto const* name = params ? params->if_contains("name") : nullptr;
        if (!request.mcp_name) {
            return mismatch("Header mismatch: the Mcp-Name header is required for tools/call");
        }
        auto decoded = decode_header_value(*request.mcp_name);
        if (!decoded) {
            return mismatch("Header mismatch: Mcp-Name is not valid =?base64?...?= text");
        }
        if (!name || !name->is_string() || *decoded != std::string_view(name->get_string())) {
            return mismatch(fmt::format("Header mismatch: Mcp-Name is \"{}\" but the body names "
                                        "tool \"{}\"",
                printable_header_value(*decoded),
                name && name->is_string() ? std::string_view(name->get_string())
                                          : std::string_view()));
        }
    }
    return std::move(*meta);
}

immediate session_not_found(route kind, json::value const& id)
{
    // H14: the client must initialize again; a batch or notification names no request.
    bool const request = kind == route::in_session;
    return { 404,
        serialize_error(request ? id : json::value(nullptr), error_code::invalid_request,
            request ? "Session not found: initialize again" : "Session not found") };
}

immediate batch_needs_session()
{
    return bad_request(nullptr, "Invalid Request: a batch needs a 2025-03-26 session");
}

immediate already_initialized(json::value const& id)
{
    // L7
    return bad_request(id,
        "Invalid Request: this session is already initialized; send initialize without "
        "Mcp-Session-Id to start another");
}

} // namespace toolgate::protocol::streamable_http
