// Header checks for stateless (2026-07-28) requests over Streamable HTTP.
#include "server/modern_headers.hpp"

#include "protocol/names.hpp"
#include "protocol/request_meta.hpp"
#include "protocol/versions.hpp"
#include "transport/http_text.hpp"

#include <boost/json/array.hpp>
#include <fmt/format.h>
#include <openssl/evp.h>

namespace toolgate::server {
namespace json = boost::json;
using protocol::rpc_error;
using protocol::error_code::header_mismatch;
using transport::trim_ows;

namespace {

rpc_error mismatch(std::string message)
{
    return { header_mismatch, std::move(message), std::nullopt };
}

} // namespace

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
    if (!v.starts_with(prefix) || !v.ends_with("?=")) {
        return std::string(v);
    }
    auto encoded = v.substr(prefix.size(), v.size() - prefix.size() - 2);
    if (encoded.size() % 4 != 0) {
        return std::nullopt;
    }
    std::string out(encoded.size() / 4 * 3, '\0');
    int const n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
        reinterpret_cast<unsigned char const*>(encoded.data()), static_cast<int>(encoded.size()));
    if (n < 0) {
        return std::nullopt;
    }
    // EVP_DecodeBlock counts padding as data: drop one byte per '='.
    std::size_t size = static_cast<std::size_t>(n);
    for (auto it = encoded.rbegin(); it != encoded.rend() && *it == '='; ++it) {
        --size;
    }
    out.resize(size);
    return out;
}

std::optional<rpc_error> check_modern_request(
    transport::http_request const& request, protocol::message const& msg)
{
    auto const* params = msg.params();
    auto const claimed = protocol::claimed_version(params);
    auto const* version_header = request.header("mcp-protocol-version");
    auto const* method_header = request.header("mcp-method");
    auto const* name_header = request.header("mcp-name");

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
    auto meta = protocol::read_request_meta(params);
    if (auto const* error = std::get_if<rpc_error>(&meta)) {
        return *error;
    }
    if (!protocol::is_modern_version(claimed)) {
        json::object data;
        json::array supported;
        for (auto v : protocol::supported_versions()) {
            supported.emplace_back(v);
        }
        data["supported"] = std::move(supported);
        data["requested"] = claimed;
        return rpc_error { protocol::error_code::unsupported_protocol_version,
            fmt::format("Unsupported protocol version \"{}\"", claimed),
            json::value(std::move(data)) };
    }
    if (!version_header) {
        return mismatch("Header mismatch: the MCP-Protocol-Version header is required");
    }
    if (!method_header) {
        return mismatch("Header mismatch: the Mcp-Method header is required");
    }
    if (msg.method() == protocol::names::tools_call) {
        auto const* name = params ? params->if_contains("name") : nullptr;
        if (!name_header) {
            return mismatch("Header mismatch: the Mcp-Name header is required for tools/call");
        }
        auto decoded = decode_header_value(*name_header);
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
    return std::nullopt;
}

} // namespace toolgate::server
