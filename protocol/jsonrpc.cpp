// JSON-RPC 2.0 parsing and classification (https://www.jsonrpc.org/specification).
#include "protocol/jsonrpc.hpp"

#include <boost/json/serialize.hpp>
#include <boost/json/stream_parser.hpp>
#include <fmt/format.h>

namespace toolgate::protocol {
namespace json = boost::json;

namespace {

json::value const null_value;

invalid_message invalid(std::string message, json::value id = nullptr)
{
    return { { error_code::invalid_request, std::move(message), std::nullopt }, std::move(id) };
}

bool is_valid_id(json::value const& id)
{
    // MCP narrows JSON-RPC: ids are strings or integers, never null or fractional.
    return id.is_string() || id.is_int64() || id.is_uint64();
}

} // namespace

message::message(json::value doc, message_kind kind)
    : doc_(std::move(doc))
    , kind_(kind)
{
}

json::value const& message::id() const
{
    auto const* found = doc_.as_object().if_contains("id");
    return found ? *found : null_value;
}

std::string_view message::method() const
{
    auto const* found = doc_.as_object().if_contains("method");
    return found && found->is_string() ? std::string_view(found->get_string()) : std::string_view();
}

json::object const* message::params() const
{
    auto const* found = doc_.as_object().if_contains("params");
    return found && found->is_object() ? &found->get_object() : nullptr;
}

rpc_result<json::value> parse_json(std::string_view text, parse_limits limits)
{
    json::parse_options options;
    options.max_depth = limits.max_depth;
    json::stream_parser parser({}, options);
    boost::system::error_code ec;
    auto const used = parser.write(text.data(), text.size(), ec);
    if (!ec) {
        parser.finish(ec);
    }
    if (ec) {
        std::string what = ec == json::error::too_deep
            ? fmt::format("nesting deeper than {} levels", limits.max_depth)
            : ec.message();
        return rpc_error { error_code::parse_error,
            fmt::format("Parse error: {} at byte {}", what, used), std::nullopt };
    }
    return parser.release();
}

boost::system::result<message, invalid_message> classify(json::value doc)
{
    if (!doc.is_object()) {
        return invalid("Invalid Request: a message must be a JSON object");
    }
    auto const& obj = doc.get_object();
    json::value id = nullptr;
    bool const has_id = obj.contains("id");
    if (has_id && is_valid_id(obj.at("id"))) {
        id = obj.at("id");
    }
    auto const* version = obj.if_contains("jsonrpc");
    if (!version || !version->is_string() || version->get_string() != "2.0") {
        return invalid("Invalid Request: member \"jsonrpc\" must be \"2.0\"", id);
    }
    if (has_id && !is_valid_id(obj.at("id"))) {
        return invalid("Invalid Request: member \"id\" must be a string or an integer");
    }
    if (auto const* method = obj.if_contains("method")) {
        if (!method->is_string()) {
            return invalid("Invalid Request: member \"method\" must be a string", id);
        }
        if (auto const* params = obj.if_contains("params");
            params && !params->is_object() && !params->is_array()) {
            return invalid("Invalid Request: member \"params\" must be an object", id);
        }
        auto kind = has_id ? message_kind::request : message_kind::notification;
        return message(std::move(doc), kind);
    }
    if (has_id && (obj.contains("result") != obj.contains("error"))) {
        return message(std::move(doc), message_kind::response);
    }
    return invalid("Invalid Request: member \"method\" is missing", id);
}

std::string serialize_result(json::value const& id, json::value const& result)
{
    std::string out = R"({"jsonrpc":"2.0","id":)";
    out += json::serialize(id);
    out += R"(,"result":)";
    out += json::serialize(result);
    out += '}';
    return out;
}

std::string serialize_error(json::value const& id, int code, std::string message)
{
    return serialize_error(id, rpc_error { code, std::move(message), std::nullopt });
}

std::string serialize_error(json::value const& id, rpc_error const& error)
{
    json::object err;
    err["code"] = error.code;
    err["message"] = error.message;
    if (error.data) {
        err["data"] = *error.data;
    }
    std::string out = R"({"jsonrpc":"2.0","id":)";
    out += json::serialize(id);
    out += R"(,"error":)";
    out += json::serialize(err);
    out += '}';
    return out;
}

std::string serialize_notification(std::string_view method, json::object params)
{
    json::object msg;
    msg["jsonrpc"] = "2.0";
    msg["method"] = method;
    msg["params"] = std::move(params);
    return json::serialize(msg);
}

std::string serialize_request(json::value const& id, std::string_view method, json::object params)
{
    json::object msg;
    msg["jsonrpc"] = "2.0";
    msg["id"] = id;
    msg["method"] = method;
    msg["params"] = std::move(params);
    return json::serialize(msg);
}

} // namespace toolgate::protocol
