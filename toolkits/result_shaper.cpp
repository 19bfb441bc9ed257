// Result shaping (see result_shaper.hpp): successful answers by media type, then the wording
// of failed calls. The model reads those errors to decide what to do next, so each says what
// happened and, where we know, what would help.
#include "toolkits/result_shaper.hpp"

#include "common/ascii.hpp"
#include "common/base64.hpp"
#include "common/json_scan.hpp"
#include "common/masking.hpp"
#include "common/utf8.hpp"
#include "toolkits/request_body.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/parse_options.hpp>

#include <algorithm>
#include <cctype>
#include <cstring>

namespace toolgate::toolkits {
namespace {

namespace json = boost::json;
using common::is_valid_utf8;
using protocol::call_result;
using protocol::content_block;
using transport::outbound_failure;

std::string label(toolkit_spec const& toolkit, tool_spec const& tool)
{
    return std::string(toolkit.name) + "." + std::string(tool.name);
}

std::string join_names(std::vector<std::string> const& names)
{
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i) {
        out += i == 0 ? "" : (i + 1 == names.size() ? " or " : ", ");
        out += names[i];
    }
    return out;
}

std::string credential_hint(prepared_request const& sent, unsigned status)
{
    auto const where = sent.credential_variables.empty()
        ? std::string("the credentials given in the arguments")
        : "the credential in " + join_names(sent.credential_variables);
    if (status == 401) {
        return "the platform did not accept " + where
            + ": check that it is set, complete "
              "and not expired";
    }
    return "the platform refused the operation with " + where
        + ": the account or token may lack the permission or scope it needs";
}

std::string not_found_hint(prepared_request const& sent)
{
    std::string hint;
    if (sent.path_arguments.empty()) {
        hint = "the platform has no such operation or resource";
    } else {
        hint = "nothing was found for ";
        for (std::size_t i = 0; i < sent.path_arguments.size(); ++i) {
            auto const& a = sent.path_arguments[i];
            hint += (i == 0 ? "" : ", ") + a.name + " = `" + a.value + "`";
        }
        hint += ": check the identifier";
        hint += sent.path_arguments.size() == 1 ? "" : "s";
    }
    if (sent.base_overridden) {
        hint += " (the toolkit's base URL is overridden: check that it serves this path)";
    }
    return hint;
}

std::string rate_limit_hint(std::string const& retry_after)
{
    std::string hint = "rate limited by the platform: retry later";
    if (retry_after.empty()) {
        return hint;
    }
    // Retry-After is either delay-seconds or an HTTP date (RFC 9110 section 10.2.3).
    bool const seconds = retry_after.find_first_not_of("0123456789") == std::string::npos;
    return hint
        + (seconds ? " (it asks to wait " + retry_after + " seconds)"
                   : " (it asks to wait until " + retry_after + ")");
}

std::string status_hint(prepared_request const& sent, transport::outbound_response const& response)
{
    auto const status = response.status;
    switch (status) {
    case 401:
    case 403:
        return credential_hint(sent, status);
    case 404:
        return not_found_hint(sent);
    case 409:
        return "the request conflicts with the item's current state: read it again first";
    case 412:
        return "the item's etag no longer matches the one sent (If-Match): fetch the item again "
               "for its current etag, then retry";
    case 429:
        return rate_limit_hint(response.header("Retry-After"));
    default:
        break;
    }
    if (status >= 500) {
        return "the platform failed to handle the request: retrying later may help";
    }
    if (status >= 300 && status < 400) {
        return "the platform redirected the request, which was not followed";
    }
    return {};
}

/// Cuts `text` to at most `limit` bytes without splitting a UTF-8 sequence.
std::string cut(std::string_view text, std::size_t limit)
{
    auto end = std::min(limit, text.size());
    while (end > 0 && end < text.size() && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) {
        --end;
    }
    return std::string(text.substr(0, end));
}

std::string quoted_body(
    transport::outbound_response const& response, prepared_request const& sent, std::size_t limit)
{
    if (response.body.empty()) {
        return {};
    }
    if (!is_valid_utf8(response.body)) {
        return "\nThe platform's answer was " + std::to_string(response.body.size())
            + " bytes of binary data (not shown).";
    }
    boost::system::error_code ec;
    (void)boost::json::parse(response.body, ec);
    auto text = redact(ec ? response.body : common::minify_json(response.body), sent.redactions);
    if (text.size() <= limit) {
        return "\nThe platform said: " + text;
    }
    auto shown = cut(text, limit);
    auto const shown_size = shown.size();
    return "\nThe platform said: " + std::move(shown) + "\n(cut to " + std::to_string(shown_size)
        + " of " + std::to_string(text.size()) + " bytes)";
}

bool changes_things(std::string_view method)
{
    return method != "GET" && method != "HEAD" && method != "OPTIONS";
}

/// The scheme and authority of the request URL, for failures the transport described
/// without naming the host.
std::string origin_of(std::string_view url)
{
    auto const scheme_end = url.find("://");
    auto const host_start = scheme_end == std::string_view::npos ? 0 : scheme_end + 3;
    auto const host_end = url.find_first_of("/?", host_start);
    return std::string(url.substr(0, host_end));
}

std::string_view failure_phase(outbound_failure failure)
{
    switch (failure) {
    case outbound_failure::bad_url:
        return "the request URL could not be used";
    case outbound_failure::resolve:
        return "the platform's host name could not be resolved";
    case outbound_failure::connect:
        return "could not connect to the platform";
    case outbound_failure::tls:
        return "the TLS handshake with the platform failed (certificate or host name not trusted)";
    case outbound_failure::timeout:
        return "the platform did not answer before the deadline";
    case outbound_failure::cancelled:
        return "the call was cancelled before the platform answered";
    case outbound_failure::too_large:
        return "the platform's answer exceeded the response size limit";
    case outbound_failure::protocol:
        return "the platform's answer was not valid HTTP";
    case outbound_failure::none:
        break;
    }
    return "the call failed";
}

std::string reason_phrase(transport::outbound_response const& response)
{
    if (!response.reason.empty()) {
        return response.reason;
    }
    switch (response.status) {
    case 200:
        return "OK";
    case 201:
        return "Created";
    case 202:
        return "Accepted";
    case 204:
        return "No Content";
    case 304:
        return "Not Modified";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 409:
        return "Conflict";
    case 412:
        return "Precondition Failed";
    case 413:
        return "Content Too Large";
    case 415:
        return "Unsupported Media Type";
    case 422:
        return "Unprocessable Content";
    case 429:
        return "Too Many Requests";
    case 500:
        return "Internal Server Error";
    case 502:
        return "Bad Gateway";
    case 503:
        return "Service Unavailable";
    case 504:
        return "Gateway Timeout";
    default:
        return "";
    }
}

call_result status_error_result(toolkit_spec const& toolkit, tool_spec const& tool,
    prepared_request const& sent, transport::outbound_response const& response,
    std::size_t body_limit)
{
    // Appended piece by piece: g++ 12 warns falsely (-Wrestrict) on "literal" + temporary.
    auto message = label(toolkit, tool);
    message += " failed: HTTP ";
    message += std::to_string(response.status);
    if (auto reason = reason_phrase(response); !reason.empty()) {
        message += ' ';
        message += redact(std::move(reason), sent.redactions);
    }
    message += '.';
    if (auto hint = status_hint(sent, response); !hint.empty()) {
        message += "\nHint: " + redact(std::move(hint), sent.redactions);
    }
    message += quoted_body(response, sent, body_limit);
    return call_result::error(std::move(message));
}

call_result failure_result(toolkit_spec const& toolkit, tool_spec const& tool,
    prepared_request const& sent, transport::outbound_result const& result)
{
    auto message = label(toolkit, tool) + " failed: " + std::string(failure_phase(result.failure));
    auto detail = result.detail.empty() ? "platform " + origin_of(sent.request.url) : result.detail;
    message += " (" + redact(std::move(detail), sent.redactions) + ").";
    bool const host_problem = result.failure == outbound_failure::resolve
        || result.failure == outbound_failure::connect || result.failure == outbound_failure::tls;
    if (host_problem && !sent.host_variables.empty()) {
        // The host came from a secret (issue 14 item 7): say which setting to check, never
        // what it holds (docs/decisions.md: those hosts are secrets too).
        message += " The host comes from " + join_names(sent.host_variables) + ": check that "
            + (sent.host_variables.size() == 1 ? "it names" : "they name") + " your "
            + std::string(toolkit.name) + " account's server (its value is not shown).";
    }
    bool const unknown_outcome = result.failure == outbound_failure::timeout
        || result.failure == outbound_failure::cancelled
        || result.failure == outbound_failure::protocol
        || result.failure == outbound_failure::too_large;
    if (unknown_outcome && changes_things(sent.request.method)) {
        message += " The platform may still have carried out the operation: check before "
                   "repeating it.";
    }
    return call_result::error(std::move(message));
}

bool has_control_bytes(std::string_view body)
{
    return std::any_of(body.begin(), body.end(), [](char c) {
        auto const u = static_cast<unsigned char>(c);
        return u < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f';
    });
}

std::string media_type_of(transport::outbound_response const& response)
{
    auto const header = response.header("Content-Type");
    std::string_view const type = header;
    return common::to_lower_ascii(common::trim_ows(type.substr(0, type.find(';'))));
}

bool is_json_type(std::string_view type)
{
    return type == "application/json" || type == "text/json" || type.ends_with("+json");
}

bool is_text_type(std::string_view type)
{
    static constexpr std::string_view textual[]
        = { "application/xml", "application/javascript", "application/x-www-form-urlencoded",
              "application/yaml", "application/x-yaml", "application/x-ndjson", "application/csv" };
    return type.starts_with("text/") || type.ends_with("+xml")
        || std::find(std::begin(textual), std::end(textual), type) != std::end(textual);
}

std::optional<json::value> parse_json(std::string_view body)
{
    json::parse_options options;
    options.max_depth = 256; // platform answers nest deeper than Boost.JSON's default of 32
    boost::system::error_code ec;
    auto value = json::parse(body, ec, {}, options);
    if (ec) {
        return std::nullopt;
    }
    return value;
}

call_result json_result(std::string_view body, json::value value)
{
    // The original text, minified, keeps the platform's number spellings (a re-serialised
    // value would turn 1.5 into 1.5E0).
    auto result = call_result::text(common::minify_json(body));
    result.structured = std::move(value);
    result.json_answer = true;
    return result;
}

call_result binary_result(toolkit_spec const& toolkit, tool_spec const& tool,
    std::string_view media_type, std::string_view body)
{
    call_result result;
    content_block block;
    block.text = common::base64_encode(body);
    block.mime_type = media_type.empty() ? "application/octet-stream" : std::string(media_type);
    if (media_type.starts_with("image/")) {
        block.type = content_block::kind::image;
    } else {
        block.type = content_block::kind::resource;
        block.uri = "toolgate://" + std::string(toolkit.name) + "/" + std::string(tool.name)
            + "/response";
    }
    result.content.push_back(std::move(block));
    return result;
}

call_result success_result(toolkit_spec const& toolkit, tool_spec const& tool,
    transport::outbound_response response, shaping_options const& options)
{
    auto const label = std::string(toolkit.name) + "." + std::string(tool.name);
    if (response.status == 304) {
        return call_result::text(label
            + ": the item is unchanged (HTTP 304 Not Modified): the "
              "version the request named is still current");
    }
    if (response.status == 204 || response.body.empty()) {
        return call_result::text(label + ": the platform answered with no content (HTTP "
            + std::to_string(response.status) + " " + reason_phrase(response) + ")");
    }
    auto const type = media_type_of(response);
    if (type.starts_with("image/")) {
        return binary_result(toolkit, tool, type, response.body);
    }
    bool const maybe_json = is_json_type(type) || type.empty();
    if (maybe_json && response.body.size() > options.structured_limit && is_json_type(type)) {
        // Neither parsed nor minified here: the next step (toolkits/result_limits.hpp) cuts a
        // large answer from its text as it came, and minifies it only when it passes whole.
        auto result = call_result::text(std::move(response.body));
        result.json_answer = true;
        return result;
    }
    if (maybe_json) {
        if (auto value = parse_json(response.body)) {
            return json_result(response.body, std::move(*value));
        }
    }
    // A declared text type is trusted; an untyped body must also look like text.
    bool const textual = is_text_type(type) || (maybe_json && !has_control_bytes(response.body));
    if (textual && is_valid_utf8(response.body)) {
        return call_result::text(std::move(response.body));
    }
    return binary_result(toolkit, tool, type, response.body);
}

} // namespace

std::string redact(std::string text, std::span<const std::string> secrets)
{
    return common::mask_secrets(std::move(text), secrets);
}

call_result shape_result(toolkit_spec const& toolkit, tool_spec const& tool,
    prepared_request const& sent, transport::outbound_result result, shaping_options const& options)
{
    if (result.failure != transport::outbound_failure::none) {
        return failure_result(toolkit, tool, sent, result);
    }
    auto const status = result.response.status;
    if ((status >= 200 && status < 300) || status == 304) {
        auto const& body = result.response.body;
        bool const echoes_credential = std::any_of(sent.credential_values.begin(),
            sent.credential_values.end(),
            [&](std::string const& v) { return !v.empty() && body.find(v) != std::string::npos; });
        if (echoes_credential) {
            // The platform echoed the request (a URL with a query credential, say): the
            // caller gets the answer with the toolkit's own credentials masked.
            result.response.body = redact(std::move(result.response.body), sent.credential_values);
        }
        return success_result(toolkit, tool, std::move(result.response), options);
    }
    return status_error_result(toolkit, tool, sent, result.response, options.error_body_limit);
}

} // namespace toolgate::toolkits
