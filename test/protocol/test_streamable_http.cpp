// The Streamable HTTP POST rules from strings: headers and bodies in, verdicts out. These are
// the rules the endpoint adapter applies (mcp/http_endpoint.cpp); the process tests in
// test/integration check that the adapter wires them up.
#include "protocol/streamable_http.hpp"

#include <boost/json/parse.hpp>
#include <catch2/catch.hpp>

#include <string>

using namespace toolgate::protocol;
using namespace toolgate::protocol::streamable_http;
namespace json = boost::json;

namespace {

constexpr char const* modern_meta
    = R"("_meta":{"io.modelcontextprotocol/protocolVersion":)"
      R"("2026-07-28","io.modelcontextprotocol/clientCapabilities":{}})";

post_view legacy_post(std::string_view body)
{
    post_view v;
    v.content_type = "application/json";
    v.accept = "application/json, text/event-stream";
    v.body = body;
    return v;
}

post_view modern_post(std::string_view body, std::string_view method)
{
    auto v = legacy_post(body);
    v.protocol_version = "2026-07-28";
    v.mcp_method = method;
    return v;
}

/// The error object of an immediate answer's body.
json::object error_of(immediate const& answer)
{
    return json::parse(answer.body).as_object().at("error").as_object();
}

immediate answered(verdict const& v)
{
    REQUIRE(std::holds_alternative<immediate>(v));
    return std::get<immediate>(v);
}

classified to_run(verdict v)
{
    REQUIRE(std::holds_alternative<classified>(v));
    return std::move(std::get<classified>(v));
}

} // namespace

TEST_CASE("a POST must be JSON and accept JSON or an event stream", "[streamable-http]")
{
    auto v = legacy_post("{}");
    v.content_type.reset();
    auto checked = check_post_headers(v);
    REQUIRE(checked.has_error());
    CHECK(checked.error().status == 415);

    v.content_type = "text/plain";
    CHECK(check_post_headers(v).error().status == 415);

    v.content_type = "application/json; charset=utf-8";
    v.accept = "text/html";
    auto refused = check_post_headers(v).error();
    CHECK(refused.status == 406);
    CHECK(error_of(refused).at("message").as_string().find("Not Acceptable") == 0);

    v.accept.reset(); // no Accept: either form will do
    auto both = check_post_headers(v).value();
    CHECK(both.json);
    CHECK(both.sse);

    v.accept = "application/json";
    auto json_only = check_post_headers(v).value();
    CHECK(json_only.json);
    CHECK_FALSE(json_only.sse);

    v.accept = "text/event-stream";
    auto sse_only = check_post_headers(v).value();
    CHECK_FALSE(sse_only.json);
    CHECK(sse_only.sse);
}

TEST_CASE("a body that is not JSON-RPC is answered at once", "[streamable-http]")
{
    auto parse = answered(classify_post(legacy_post("{\"jsonrpc\":"), {}));
    CHECK(parse.status == 400);
    CHECK(error_of(parse).at("code") == error_code::parse_error);

    auto not_rpc = answered(classify_post(legacy_post(R"({"id":7,"method":"ping"})"), {}));
    CHECK(not_rpc.status == 400);
    CHECK(error_of(not_rpc).at("code") == error_code::invalid_request);
    CHECK(json::parse(not_rpc.body).at("id") == 7); // the id is echoed when it can be read

    auto deep = std::string(100, '[') + std::string(100, ']');
    CHECK(answered(classify_post(legacy_post(deep), { 64 })).status == 400);
}

TEST_CASE("a batch needs a session, and is passed on whole", "[streamable-http]")
{
    auto const body
        = R"([{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"x"}])";
    auto refused = answered(classify_post(legacy_post(body), {}));
    CHECK(refused.status == 400);
    CHECK(error_of(refused).at("message").as_string().find("batch") != json::string::npos);

    auto v = legacy_post(body);
    v.session_id = "s-1";
    auto const& work = to_run(classify_post(v, {}));
    CHECK(work.kind == route::batch);
    CHECK(work.batch.size() == 2);
    CHECK_FALSE(work.message.has_value());
}

TEST_CASE("notifications and responses are routed as notifications", "[streamable-http]")
{
    auto const& note = to_run(classify_post(
        legacy_post(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"), {}));
    CHECK(note.kind == route::notification);
    auto const& response
        = to_run(classify_post(legacy_post(R"({"jsonrpc":"2.0","id":3,"result":{}})"), {}));
    CHECK(response.kind == route::notification);
}

TEST_CASE("2025 requests: initialize, session requests and sessionless ping", "[streamable-http]")
{
    auto const init = R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{}})";
    CHECK(to_run(classify_post(legacy_post(init), {})).kind == route::initialize);

    auto const list = R"({"jsonrpc":"2.0","id":"a","method":"tools/list"})";
    auto missing = answered(classify_post(legacy_post(list), {}));
    CHECK(missing.status == 400);
    CHECK(error_of(missing).at("message").as_string().find("Mcp-Session-Id") != json::string::npos);
    CHECK(json::parse(missing.body).at("id") == "a");

    auto in_session = legacy_post(list);
    in_session.session_id = "s-1";
    in_session.protocol_version = "2025-06-18";
    auto const& work = to_run(classify_post(in_session, {}));
    CHECK(work.kind == route::in_session);
    REQUIRE(work.message.has_value());
    CHECK(work.message->method() == "tools/list");
    CHECK_FALSE(work.meta.has_value());

    auto const ping = R"({"jsonrpc":"2.0","id":2,"method":"ping"})";
    CHECK(to_run(classify_post(legacy_post(ping), {})).kind == route::ping);
}

TEST_CASE("a 2025 request's MCP-Protocol-Version must name a 2025 revision", "[streamable-http]")
{
    auto v = legacy_post(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})");
    v.session_id = "s-1";
    v.protocol_version = "2026-07-28"; // the header claims the stateless revision, the body not
    auto claims_modern = answered(classify_post(v, {}));
    CHECK(claims_modern.status == 400);
    CHECK(error_of(claims_modern).at("code") == error_code::invalid_params);

    auto init = legacy_post(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{}})");
    init.protocol_version = "2026-07-28";
    CHECK(error_of(answered(classify_post(init, {}))).at("code") == error_code::header_mismatch);

    v.protocol_version = "banana\x01";
    auto unknown = answered(classify_post(v, {}));
    CHECK(unknown.status == 400);
    auto const message = std::string(error_of(unknown).at("message").as_string());
    CHECK(message.find("unsupported MCP-Protocol-Version") != std::string::npos);
    CHECK(message.find("banana\\x01") != std::string::npos); // control bytes shown escaped
}

TEST_CASE("2026-07-28 requests are checked once and carry their _meta", "[streamable-http]")
{
    auto const body = std::string(R"({"jsonrpc":"2.0","id":5,"method":"tools/list","params":{)")
        + modern_meta + "}}";
    auto const& work = to_run(classify_post(modern_post(body, "tools/list"), {}));
    CHECK(work.kind == route::modern);
    REQUIRE(work.meta.has_value());
    CHECK(work.meta->protocol_version == "2026-07-28");

    // A session header does not make a stateless request a session one.
    auto with_session = modern_post(body, "tools/list");
    with_session.session_id = "s-1";
    CHECK(to_run(classify_post(with_session, {})).kind == route::modern);

    auto wrong_method = answered(classify_post(modern_post(body, "tools/call"), {}));
    CHECK(wrong_method.status == 400);
    CHECK(error_of(wrong_method).at("code") == error_code::header_mismatch);

    auto no_version = modern_post(body, "tools/list");
    no_version.protocol_version.reset();
    auto missing = answered(classify_post(no_version, {}));
    CHECK(error_of(missing).at("code") == error_code::header_mismatch);
    CHECK(error_of(missing).at("message").as_string().find("MCP-Protocol-Version")
        != json::string::npos);

    auto no_method = modern_post(body, "tools/list");
    no_method.mcp_method.reset();
    CHECK(
        error_of(answered(classify_post(no_method, {}))).at("code") == error_code::header_mismatch);
}

TEST_CASE("an unsupported claimed revision lists the supported ones", "[streamable-http]")
{
    auto const body = R"({"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"_meta":{)"
                      R"("io.modelcontextprotocol/protocolVersion":"2099-01-01",)"
                      R"("io.modelcontextprotocol/clientCapabilities":{}}}})";
    auto v = modern_post(body, "tools/list");
    v.protocol_version = "2099-01-01";
    auto refused = answered(classify_post(v, {}));
    CHECK(refused.status == 400);
    auto const error = error_of(refused);
    CHECK(error.at("code") == error_code::unsupported_protocol_version);
    CHECK(error.at("data").at("requested") == "2099-01-01");
    CHECK(error.at("data").at("supported").as_array().front() == "2026-07-28");
}

TEST_CASE("a malformed _meta is an invalid-params error naming the key", "[streamable-http]")
{
    auto const body = R"({"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"_meta":{)"
                      R"("io.modelcontextprotocol/protocolVersion":"2026-07-28",)"
                      R"("io.modelcontextprotocol/clientCapabilities":[]}}})";
    auto refused = answered(classify_post(modern_post(body, "tools/list"), {}));
    CHECK(refused.status == 400);
    CHECK(error_of(refused).at("code") == error_code::invalid_params);
    CHECK(error_of(refused).at("message").as_string().find("clientCapabilities")
        != json::string::npos);
}

TEST_CASE("tools/call needs Mcp-Name naming the body's tool, plain or base64", "[streamable-http]")
{
    auto const body = std::string(R"({"jsonrpc":"2.0","id":9,"method":"tools/call","params":{)")
        + R"("name":"Tést","arguments":{},)" + modern_meta + "}}";
    auto v = modern_post(body, "tools/call");
    auto no_name = answered(classify_post(v, {}));
    CHECK(error_of(no_name).at("message").as_string().find("Mcp-Name") != json::string::npos);

    v.mcp_name = "=?base64?VMOpc3Q=?=";
    CHECK(to_run(classify_post(v, {})).kind == route::modern);

    v.mcp_name = "Other";
    auto other = answered(classify_post(v, {}));
    CHECK(error_of(other).at("code") == error_code::header_mismatch);

    v.mcp_name = "=?base64?VMOpc3Q?=";
    auto malformed = answered(classify_post(v, {}));
    CHECK(error_of(malformed).at("message").as_string().find("base64") != json::string::npos);
}

TEST_CASE("header values compare trimmed and decoded", "[streamable-http]")
{
    CHECK(decode_header_value(" \tplain\t ") == std::string("plain"));
    CHECK(decode_header_value("=?base64?VMOpc3Q=?=") == std::string("T\xc3\xa9st"));
    CHECK_FALSE(decode_header_value("=?base64?!!!!?=").has_value());
    CHECK(printable_header_value("a\nb") == "a\\x0ab");
    CHECK(printable_header_value(std::string(200, 'x'), 10) == "xxxxxxxxxx...");
}

TEST_CASE("failed session lookups get 404 or 400 with the right id", "[streamable-http]")
{
    auto gone = session_not_found(route::in_session, json::value(4));
    CHECK(gone.status == 404);
    CHECK(json::parse(gone.body).at("id") == 4);
    CHECK(error_of(gone).at("message").as_string().find("initialize again") != json::string::npos);

    auto gone_batch = session_not_found(route::batch, json::value(4));
    CHECK(gone_batch.status == 404);
    CHECK(json::parse(gone_batch.body).at("id").is_null());

    auto again = already_initialized(json::value("x"));
    CHECK(again.status == 400);
    CHECK(json::parse(again.body).at("id") == "x");
}

TEST_CASE("error codes map to HTTP statuses per revision", "[streamable-http]")
{
    CHECK(http_status_for(error_code::parse_error, false) == 400);
    CHECK(http_status_for(error_code::header_mismatch, true) == 400);
    CHECK(http_status_for(error_code::method_not_found, true) == 404);
    CHECK(http_status_for(error_code::method_not_found, false) == 200);
    CHECK(http_status_for(error_code::invalid_params, true) == 400);
    CHECK(http_status_for(error_code::invalid_params, false) == 200);
    CHECK(http_status_for(error_code::internal_error, true) == 200);
}
