// JSON-RPC 2.0 framing rules (docs/protocol-rules.md J1–J5): parsing, classification and
// serialisation, without any MCP method semantics.
#include "protocol/jsonrpc.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <catch2/catch.hpp>

#include <string>

using namespace toolgate::protocol;
namespace json = boost::json;

namespace {

json::value parsed(std::string_view text)
{
    auto out = parse_json(text);
    REQUIRE(out.has_value());
    return *out;
}

invalid_message refused(std::string_view text)
{
    auto out = classify(parsed(text));
    INFO(text);
    REQUIRE(out.has_error());
    return out.error();
}

message accepted(std::string_view text)
{
    auto out = classify(parsed(text));
    INFO(text);
    REQUIRE(out.has_value());
    return *out;
}

std::string nested_arrays(std::size_t depth)
{
    return std::string(depth, '[') + std::string(depth, ']');
}

} // namespace

TEST_CASE("text that is not JSON is a -32700 parse error naming where it stopped", "[protocol]")
{
    auto text = GENERATE(as<std::string> {}, "{", "not json", R"({"jsonrpc":"2.0",})", "",
        R"({"a":1} trailing)", "\x01");
    CAPTURE(text);
    auto out = parse_json(text);
    REQUIRE(out.has_error());
    auto const& error = out.error();
    CHECK(error.code == error_code::parse_error);
    CHECK_THAT(error.message, Catch::Contains("Parse error") && Catch::Contains("at byte"));
}

TEST_CASE(
    "nesting past the depth limit is a parse error, and the limit itself is fine", "[protocol]")
{
    parse_limits limits;
    limits.max_depth = 8;
    CHECK(parse_json(nested_arrays(8), limits).has_value());
    auto out = parse_json(nested_arrays(9), limits);
    REQUIRE(out.has_error());
    CHECK(out.error().code == error_code::parse_error);
    CHECK_THAT(out.error().message, Catch::Contains("nesting deeper than 8"));

    // The default limit (64) protects against stack exhaustion from hostile input.
    CHECK(parse_json(nested_arrays(100000)).has_error());
}

TEST_CASE("a parse error is serialised with id null (docs/decisions.md, J5)", "[protocol]")
{
    auto text
        = serialize_error(nullptr, { error_code::parse_error, "Parse error: x", std::nullopt });
    auto doc = json::parse(text).as_object();
    CHECK(doc.at("jsonrpc") == "2.0");
    CHECK(doc.at("id").is_null());
    CHECK(doc.at("error").at("code") == -32700);
    CHECK_FALSE(doc.contains("result")); // J3: never both
}

TEST_CASE("a message without jsonrpc 2.0 is -32600 and keeps its id (J1)", "[protocol]")
{
    auto text = GENERATE(as<std::string> {}, R"({"id":7,"method":"ping"})",
        R"({"jsonrpc":"1.0","id":7,"method":"ping"})", R"({"jsonrpc":2.0,"id":7,"method":"ping"})");
    auto bad = refused(text);
    CHECK(bad.error.code == error_code::invalid_request);
    CHECK_THAT(bad.error.message, Catch::Contains("jsonrpc"));
    CHECK(bad.id == 7);
}

TEST_CASE("ids that are null, fractional, boolean or structured are -32600 (J2)", "[protocol]")
{
    auto id = GENERATE(as<std::string> {}, "null", "1.5", "1e3", "true", "{}", "[1]");
    CAPTURE(id);
    auto bad = refused(R"({"jsonrpc":"2.0","id":)" + id + R"(,"method":"ping"})");
    CHECK(bad.error.code == error_code::invalid_request);
    CHECK_THAT(bad.error.message, Catch::Contains("\"id\""));
    CHECK(bad.id.is_null()); // an id we cannot echo is answered with null
}

TEST_CASE("string and integer ids keep their type (J2)", "[protocol]")
{
    CHECK(accepted(R"({"jsonrpc":"2.0","id":"1","method":"ping"})").id() == json::value("1"));
    CHECK(accepted(R"({"jsonrpc":"2.0","id":1,"method":"ping"})").id() == json::value(1));
    CHECK(accepted(R"({"jsonrpc":"2.0","id":-3,"method":"ping"})").id().is_int64());
    CHECK(accepted(R"({"jsonrpc":"2.0","id":18446744073709551615,"method":"ping"})")
              .id()
              .is_uint64());
    CHECK(serialize_result(json::value("1"), json::object())
        == R"({"jsonrpc":"2.0","id":"1","result":{}})");
    CHECK(serialize_result(json::value(1), json::object())
        == R"({"jsonrpc":"2.0","id":1,"result":{}})");
}

TEST_CASE("a method that is not a string is -32600 with the id echoed", "[protocol]")
{
    auto method = GENERATE(as<std::string> {}, "1", "null", "[\"ping\"]", "{}");
    auto bad = refused(R"({"jsonrpc":"2.0","id":"a","method":)" + method + "}");
    CHECK(bad.error.code == error_code::invalid_request);
    CHECK_THAT(bad.error.message, Catch::Contains("method"));
    CHECK(bad.id == "a");
}

TEST_CASE("params that are neither object nor array are -32600", "[protocol]")
{
    auto bad = refused(R"({"jsonrpc":"2.0","id":2,"method":"ping","params":"x"})");
    CHECK(bad.error.code == error_code::invalid_request);
    CHECK_THAT(bad.error.message, Catch::Contains("params"));
}

TEST_CASE("a value that is not an object is -32600", "[protocol]")
{
    auto text = GENERATE(as<std::string> {}, "1", "\"ping\"", "null", "true");
    CAPTURE(text);
    auto bad = refused(text);
    CHECK(bad.error.code == error_code::invalid_request);
    CHECK(bad.id.is_null());
}

TEST_CASE("messages are classified as request, notification or response", "[protocol]")
{
    auto request = accepted(R"({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}})");
    CHECK(request.kind() == message_kind::request);
    CHECK(request.is_request());
    CHECK(request.method() == "tools/list");
    CHECK(request.params() != nullptr);

    auto notification = accepted(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
    CHECK(notification.kind() == message_kind::notification);
    CHECK(notification.is_notification());
    CHECK(notification.id().is_null());
    CHECK(notification.params() == nullptr);

    auto result = accepted(R"({"jsonrpc":"2.0","id":5,"result":{}})");
    CHECK(result.kind() == message_kind::response);
    auto error = accepted(R"({"jsonrpc":"2.0","id":"x","error":{"code":1,"message":"m"}})");
    CHECK(error.kind() == message_kind::response);
}

TEST_CASE("a response with both result and error, or neither, is -32600 (J3)", "[protocol]")
{
    auto text = GENERATE(as<std::string> {},
        R"({"jsonrpc":"2.0","id":5,"result":{},"error":{"code":1,"message":"m"}})",
        R"({"jsonrpc":"2.0","id":5})");
    auto bad = refused(text);
    CHECK(bad.error.code == error_code::invalid_request);
    CHECK(bad.id == 5);
}

TEST_CASE("unknown members are accepted and ignored (J6)", "[protocol]")
{
    auto msg = accepted(R"({"jsonrpc":"2.0","id":1,"method":"ping","extra":{"x":1}})");
    CHECK(msg.is_request());
}

TEST_CASE("errors carry their data, notifications are compact single-line text (S1)", "[protocol]")
{
    rpc_error error { error_code::invalid_params, "Invalid params: x",
        json::value({ { "k", 1 } }) };
    auto doc = json::parse(serialize_error(json::value(3), error)).as_object();
    CHECK(doc.at("id") == 3);
    CHECK(doc.at("error").at("data").at("k") == 1);

    json::object params;
    params["text"] = "line one\nline two";
    auto note = serialize_notification("notifications/message", params);
    CHECK(note.find('\n') == std::string::npos);
    auto parsed_note = json::parse(note).as_object();
    CHECK(parsed_note.at("method") == "notifications/message");
    CHECK_FALSE(parsed_note.contains("id")); // J4: a notification has no id
}
