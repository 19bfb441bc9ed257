// Dry runs (see dry_run.hpp): the shown request is the built one with its secrets masked by
// the same rule as errors and logs (common/masking.hpp), so what a dry run shows and what a
// log line shows of one request never disagree.
#include "toolkits/dry_run.hpp"

#include "common/ascii.hpp"
#include "common/masking.hpp"
#include "common/utf8.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>

namespace toolgate::toolkits {
namespace {

namespace json = boost::json;

std::string qualified(toolkit_spec const& toolkit, tool_spec const& tool)
{
    return std::string(toolkit.name) + "." + std::string(tool.name);
}

bool is_secret_header(prepared_request const& prepared, std::string_view name)
{
    auto const& names = prepared.request.secret_headers;
    return std::any_of(names.begin(), names.end(),
        [&](std::string const& secret) { return common::iequals_ascii(secret, name); });
}

/// Every value to mask: the secrets themselves and what derives from them (hosts, encodings).
std::vector<std::string> masked_values(prepared_request const& prepared)
{
    auto values = prepared.redactions;
    values.insert(
        values.end(), prepared.credential_values.begin(), prepared.credential_values.end());
    return values;
}

/// The body as the platform would read it: JSON as JSON, text as text, binary by its size.
json::value shown_body(
    transport::outbound_request const& request, std::span<const std::string> secrets)
{
    if (request.body.empty()) {
        return nullptr;
    }
    if (!common::is_valid_utf8(request.body)) {
        json::object binary;
        binary["binary_bytes"] = request.body.size();
        return binary;
    }
    auto text = common::mask_secrets(request.body, secrets);
    boost::system::error_code ec;
    auto parsed = json::parse(text, ec);
    if (!ec) {
        return parsed;
    }
    return json::value(text);
}

json::object shown_headers(prepared_request const& prepared, std::span<const std::string> secrets)
{
    json::object headers;
    for (auto const& [name, value] : prepared.request.headers) {
        auto masked = common::mask_secrets(value, secrets);
        // A credential header whose value holds no known secret (a caller-given token under a
        // credential name is masked by value already): mask it whole rather than guess.
        if (is_secret_header(prepared, name)
            && masked.find(common::secret_mask) == std::string::npos) {
            masked = common::secret_mask;
        }
        headers[name] = masked;
    }
    return headers;
}

protocol::call_result json_result(json::object answer)
{
    auto result = protocol::call_result::text(json::serialize(answer));
    result.structured = json::value(std::move(answer));
    return result;
}

} // namespace

protocol::call_result show_request(
    toolkit_spec const& toolkit, tool_spec const& tool, prepared_request const& prepared)
{
    auto const secrets = masked_values(prepared);
    json::object request;
    request["method"] = prepared.request.method;
    request["url"] = common::mask_secrets(prepared.request.url, secrets);
    request["headers"] = shown_headers(prepared, secrets);
    request["body"] = shown_body(prepared.request, secrets);
    json::object answer;
    answer["dry_run"] = true;
    answer["sent"] = false;
    answer["tool"] = qualified(toolkit, tool);
    answer["request"] = std::move(request);
    answer["note"] = "Nothing was sent. This is the request the call would send, credentials "
                     "shown as ***; call again without _dry_run to send it.";
    return json_result(std::move(answer));
}

protocol::call_result show_local_answer(toolkit_spec const& toolkit, tool_spec const& tool)
{
    json::object answer;
    answer["dry_run"] = true;
    answer["sent"] = false;
    answer["tool"] = qualified(toolkit, tool);
    answer["request"] = nullptr;
    answer["note"] = "toolgate answers this call itself (the request body's schema): no request "
                     "would reach the platform. Call again without _dry_run for the answer.";
    return json_result(std::move(answer));
}

} // namespace toolgate::toolkits
