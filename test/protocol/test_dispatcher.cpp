// MCP method rules of protocol::dispatcher for both eras: the 2025 lifecycle (L…, LG…, C…),
// tools/call decisions (TC…) and the 2026-07-28 stateless envelope (docs/protocol-rules.md §2–§6).
#include "protocol/names.hpp"
#include "protocol/versions.hpp"
#include "protocol_fixture.hpp"

using namespace toolgate::protocol;
using toolgate::testing::error_code_of;
using toolgate::testing::modern_meta;
using toolgate::testing::protocol_fixture;
namespace json = boost::json;

namespace {

std::string const init_params = R"("capabilities":{},"clientInfo":{"name":"test","version":"1"})";

std::string initialize_text(std::string const& version)
{
    return R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":")"
        + version + R"(",)" + init_params + "}}";
}

tool_call as_call(outcome out)
{
    REQUIRE(std::holds_alternative<tool_call>(out));
    return std::get<tool_call>(std::move(out));
}

json::array supported_array()
{
    json::array out;
    for (auto v : supported_versions()) {
        out.emplace_back(v);
    }
    return out;
}

} // namespace

// --- 2025 lifecycle --------------------------------------------------------------------------

TEST_CASE("L1: requests other than ping before initialize are -32600", "[protocol]")
{
    protocol_fixture f;
    auto text = GENERATE(as<std::string> {}, R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})",
        R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"StoreApi_GetOrder"}})",
        R"({"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"info"}})");
    auto reply = f.reply_to(text);
    auto answer = json::parse(reply.flatten()).as_object();
    CHECK(error_code_of(answer) == error_code::invalid_request);
    CHECK_THAT(std::string(answer.at("error").at("message").as_string()),
        Catch::Contains("before initialize"));
    CHECK(answer.at("id") == 1);
    CHECK(reply.http_status == 400);
    CHECK_FALSE(f.session.initialized);
}

TEST_CASE("L9: ping answers {} before and after initialize", "[protocol]")
{
    protocol_fixture f;
    auto before = f.answer(R"({"jsonrpc":"2.0","id":"p","method":"ping"})");
    CHECK(before.at("id") == "p");
    CHECK(before.at("result") == json::object());
    f.initialize();
    auto after = f.answer(R"({"jsonrpc":"2.0","id":2,"method":"ping","params":{}})");
    CHECK(after.at("result") == json::object());
    CHECK_FALSE(after.at("result").as_object().contains("resultType")); // legacy stays legacy
}

TEST_CASE("L3: initialize echoes a supported version and counter-offers 2025-11-25 otherwise",
    "[protocol]")
{
    auto [requested, expected] = GENERATE(table<std::string, std::string>({
        { "2025-03-26", "2025-03-26" }, { "2025-06-18", "2025-06-18" },
        { "2025-11-25", "2025-11-25" }, { "2024-01-01", "2025-11-25" },
        { "2024-11-05", "2025-11-25" }, { "banana", "2025-11-25" },
        { "2026-07-28", "2025-11-25" }, // L5: never the stateless revision
    }));
    CAPTURE(requested);
    protocol_fixture f;
    auto reply = f.reply_to(initialize_text(requested));
    CHECK(reply.opened_session);
    CHECK(reply.http_status == 200);
    auto result = json::parse(reply.flatten()).at("result").as_object();
    CHECK(result.at("protocolVersion") == json::value(expected));
    CHECK(f.session.initialized);
    CHECK(f.session.version == expected);
}

TEST_CASE(
    "L2/C1–C3: the initialize result declares tools and logging and names the server", "[protocol]")
{
    protocol_fixture f;
    auto result = f.answer(initialize_text("2025-11-25")).at("result").as_object();
    auto const& caps = result.at("capabilities").as_object();
    CHECK(caps.contains("tools"));
    CHECK_FALSE(caps.at("tools").as_object().contains("listChanged"));
    CHECK(caps.contains("logging"));
    for (auto absent : { "resources", "prompts", "completions", "tasks" }) {
        CHECK_FALSE(caps.contains(absent));
    }
    CHECK(result.at("serverInfo").at("name") == "toolgate");
    CHECK(result.at("serverInfo").at("version") == "9.8.7");
    CHECK_FALSE(result.contains("resultType"));
}

TEST_CASE("L4: initialize without a protocolVersion or clientInfo is -32602 with "
          "data.supported",
    "[protocol]")
{
    auto params = GENERATE(as<std::string> {},
        R"({"capabilities":{},"clientInfo":{"name":"t","version":"1"}})",
        R"({"protocolVersion":20251125,"clientInfo":{"name":"t","version":"1"}})",
        R"({"protocolVersion":"2025-11-25","capabilities":{}})",
        R"({"protocolVersion":"2025-11-25","clientInfo":"me"})");
    CAPTURE(params);
    protocol_fixture f;
    auto reply
        = f.reply_to(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":)" + params + "}");
    CHECK_FALSE(reply.opened_session);
    auto answer = json::parse(reply.flatten()).as_object();
    CHECK(error_code_of(answer) == error_code::invalid_params);
    CHECK(answer.at("error").at("data").at("supported") == supported_array());
    CHECK_FALSE(f.session.initialized);
}

TEST_CASE("L7: a second initialize on a live session is -32600 (400 over HTTP)", "[protocol]")
{
    protocol_fixture f;
    f.initialize("2025-06-18");
    auto reply = f.reply_to(initialize_text("2025-11-25"));
    CHECK_FALSE(reply.opened_session);
    CHECK(reply.http_status == 400);
    CHECK(error_code_of(json::parse(reply.flatten()).as_object()) == error_code::invalid_request);
    CHECK(f.session.version == "2025-06-18"); // the first negotiation stands
}

TEST_CASE("LG1: logging/setLevel answers {} and sets the session's level", "[protocol]")
{
    protocol_fixture f;
    f.initialize();
    CHECK_FALSE(f.session.level.has_value()); // LG3: nothing before setLevel
    auto answer = f.answer(
        R"({"jsonrpc":"2.0","id":3,"method":"logging/setLevel","params":{"level":"warning"}})");
    CHECK(answer.at("result") == json::object());
    REQUIRE(f.session.level.has_value());
    CHECK(*f.session.level == log_level::warning);

    // The level reaches later tool calls of the session.
    auto const call = as_call(f.send(
        R"({"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"StoreApi_GetOrder"}})"));
    REQUIRE(call.level.has_value());
    CHECK(*call.level == log_level::warning);
}

TEST_CASE("LG2: an unknown or missing log level is -32602 and leaves the level alone", "[protocol]")
{
    protocol_fixture f;
    f.initialize();
    f.reply_to(
        R"({"jsonrpc":"2.0","id":3,"method":"logging/setLevel","params":{"level":"error"}})");
    auto params = GENERATE(as<std::string> {}, R"({"level":"verbose"})", R"({"level":"INFO"})",
        R"({"level":3})", "{}");
    CAPTURE(params);
    auto answer = f.answer(
        R"({"jsonrpc":"2.0","id":5,"method":"logging/setLevel","params":)" + params + "}");
    CHECK(error_code_of(answer) == error_code::invalid_params);
    CHECK(*f.session.level == log_level::error);
}

TEST_CASE("every one of the eight log levels is accepted by logging/setLevel", "[protocol]")
{
    auto level = GENERATE(as<std::string> {}, "debug", "info", "notice", "warning", "error",
        "critical", "alert", "emergency");
    protocol_fixture f;
    f.initialize();
    auto answer
        = f.answer(R"({"jsonrpc":"2.0","id":3,"method":"logging/setLevel","params":{"level":")"
            + level + R"("}})");
    CHECK(answer.at("result") == json::object());
    CHECK(to_string(*f.session.level) == level);
}

TEST_CASE("C3: undeclared methods are -32601 on a legacy session (status 200)", "[protocol]")
{
    protocol_fixture f;
    f.initialize();
    auto method = GENERATE(as<std::string> {}, "resources/list", "prompts/list",
        "completion/complete", "tasks/get", "no/such/method");
    auto reply = f.reply_to(R"({"jsonrpc":"2.0","id":9,"method":")" + method + R"("})");
    CHECK(reply.http_status == 200);
    auto answer = json::parse(reply.flatten()).as_object();
    CHECK(error_code_of(answer) == error_code::method_not_found);
    CHECK_THAT(std::string(answer.at("error").at("message").as_string()), Catch::Contains(method));
}

TEST_CASE("J4: notifications and responses are never answered", "[protocol]")
{
    protocol_fixture f;
    auto text
        = GENERATE(as<std::string> {}, R"({"jsonrpc":"2.0","method":"notifications/initialized"})",
            R"({"jsonrpc":"2.0","method":"no/such/notification"})",
            R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{}})",
            R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":null}})",
            R"({"jsonrpc":"2.0","id":4,"result":{}})",
            R"({"jsonrpc":"2.0","id":4,"error":{"code":-1,"message":"m"}})");
    CAPTURE(text);
    CHECK(std::holds_alternative<no_reply>(f.send(text)));
}

TEST_CASE(
    "CN1: notifications/cancelled names the request to cancel, with its id type", "[protocol]")
{
    protocol_fixture f;
    auto out = f.send(
        R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"7","reason":"x"}})");
    REQUIRE(std::holds_alternative<cancel_call>(out));
    CHECK(std::get<cancel_call>(out).request_id == json::value("7"));
    out = f.send(
        R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}})");
    REQUIRE(std::holds_alternative<cancel_call>(out));
    CHECK(std::get<cancel_call>(out).request_id == json::value(7));
}

// --- tools/call ------------------------------------------------------------------------------

TEST_CASE(
    "TC1: tools/call hands back the tool, its arguments and the session's revision", "[protocol]")
{
    protocol_fixture f;
    f.initialize("2025-06-18");
    auto const call = as_call(f.send(
        R"({"jsonrpc":"2.0","id":"c1","method":"tools/call","params":{"name":"KanbanApi_GetCard","arguments":{"id":"x"}}})"));
    REQUIRE(call.tool != nullptr);
    CHECK(call.tool->name == "KanbanApi_GetCard");
    CHECK(call.arguments.at("id") == "x");
    CHECK(call.id == json::value("c1"));
    CHECK(call.version == "2025-06-18");
    CHECK_FALSE(call.modern);
    CHECK(call.progress_token.is_null());
    CHECK_FALSE(call.level.has_value());
}

TEST_CASE("TC1: missing or null arguments mean {}", "[protocol]")
{
    protocol_fixture f;
    f.initialize();
    auto params = GENERATE(as<std::string> {}, R"({"name":"StoreApi_GetOrder"})",
        R"({"name":"StoreApi_GetOrder","arguments":null})");
    auto const call = as_call(
        f.send(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":)" + params + "}"));
    CHECK(call.arguments.empty());
}

TEST_CASE("both spellings of a tool name find the same tool", "[protocol]")
{
    protocol_fixture f;
    f.initialize();
    auto name = GENERATE(as<std::string> {}, "StoreApi_DeleteOrder", "StoreApi.DeleteOrder");
    auto const call = as_call(f.send(
        R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":")" + name + R"("}})"));
    REQUIRE(call.tool != nullptr);
    CHECK(call.tool->name == "StoreApi_DeleteOrder");
}

TEST_CASE("PG1: a progressToken is copied with its type", "[protocol]")
{
    protocol_fixture f;
    f.initialize();
    auto token = GENERATE(as<std::string> {}, R"("tok")", "42");
    auto const call = as_call(f.send(
        R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"StoreApi_GetOrder","_meta":{"progressToken":)"
        + token + "}}}"));
    CHECK(call.progress_token == json::parse(token));
}

TEST_CASE("tools/call without a string name, or with non-object arguments, is -32602", "[protocol]")
{
    protocol_fixture f;
    f.initialize();
    auto params = GENERATE(as<std::string> {}, "{}", R"({"name":5})",
        R"({"name":"StoreApi_GetOrder","arguments":[1]})",
        R"({"name":"StoreApi_GetOrder","arguments":"x"})");
    CAPTURE(params);
    auto reply
        = f.reply_to(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":)" + params + "}");
    CHECK(reply.http_status == 200);
    CHECK(error_code_of(json::parse(reply.flatten()).as_object()) == error_code::invalid_params);
}

TEST_CASE("TC6: an unknown tool is -32602 naming it, with close names as suggestions", "[protocol]")
{
    protocol_fixture f;
    f.initialize();
    auto answer = f.answer(
        R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"StoreApi_GetOrdr"}})");
    CHECK(error_code_of(answer) == error_code::invalid_params);
    auto const& error = answer.at("error").as_object();
    CHECK_THAT(std::string(error.at("message").as_string()),
        Catch::Contains("Unknown tool: StoreApi_GetOrdr")
            && Catch::Contains("did you mean StoreApi_GetOrder"));
    CHECK(error.at("data").at("tool") == "StoreApi_GetOrdr");
    auto const& suggestions = error.at("data").at("suggestions").as_array();
    REQUIRE_FALSE(suggestions.empty());
    CHECK(suggestions.front() == "StoreApi_GetOrder");

    // Nothing close: no suggestions member at all.
    auto far = f.answer(
        R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"Zzzzzzzzzzzzzzzz"}})");
    CHECK(error_code_of(far) == error_code::invalid_params);
    CHECK_FALSE(far.at("error").at("data").as_object().contains("suggestions"));
}

TEST_CASE(
    "call_reply shapes a legacy result without resultType and a modern one with it", "[protocol]")
{
    protocol_fixture f;
    tool_call call;
    call.id = 8;
    call.tool = &f.tools.front();
    call.version = "2025-11-25";
    auto legacy = json::parse(f.dispatcher.call_reply(call, call_result::text("hi"))).as_object();
    CHECK(legacy.at("id") == 8);
    CHECK(legacy.at("result").at("content").at(0).at("text") == "hi");
    CHECK_FALSE(legacy.at("result").as_object().contains("resultType"));

    call.version = "2026-07-28";
    call.modern = true;
    auto modern = json::parse(f.dispatcher.call_reply(call, call_result::text("hi"))).as_object();
    auto const& result = modern.at("result").as_object();
    CHECK(result.at("resultType") == "complete");
    CHECK(result.at("_meta").at(names::meta_server_info).at("name") == "toolgate");
    CHECK_FALSE(result.contains("ttlMs")); // §6: not on tools/call
    CHECK_FALSE(result.contains("cacheScope"));
}

// --- 2026-07-28 ------------------------------------------------------------------------------

TEST_CASE(
    "§2: modern requests need no initialize and leave the legacy session untouched", "[protocol]")
{
    protocol_fixture f;
    auto answer = f.answer(
        R"({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{)" + modern_meta() + "}}");
    CHECK(answer.contains("result"));
    CHECK_FALSE(f.session.initialized);
    CHECK(f.session.version.empty());
}

TEST_CASE(
    "§5: server/discover lists versions, capabilities, cache fields and serverInfo", "[protocol]")
{
    protocol_fixture f;
    auto reply = f.reply_to(R"({"jsonrpc":"2.0","id":"d","method":"server/discover","params":{)"
        + modern_meta() + "}}");
    CHECK(reply.http_status == 200);
    CHECK_FALSE(reply.opened_session);
    auto answer = json::parse(reply.flatten()).as_object();
    CHECK(answer.at("id") == "d");
    auto const& result = answer.at("result").as_object();
    CHECK(result.at("supportedVersions") == supported_array());
    CHECK(result.at("supportedVersions").at(0) == "2026-07-28");
    CHECK(result.at("capabilities").as_object().contains("tools"));
    CHECK(result.at("capabilities").as_object().contains("logging"));
    CHECK(result.at("resultType") == "complete");
    CHECK(result.at("ttlMs").as_int64() >= 0);
    CHECK(result.at("cacheScope") == "public");
    CHECK(result.at("_meta").at(names::meta_server_info).at("name") == "toolgate");
    CHECK(result.at("_meta").at(names::meta_server_info).at("version") == "9.8.7");
    CHECK_FALSE(result.contains("serverInfo")); // only in _meta
}

TEST_CASE("§6: tools/list under a claim carries resultType, ttlMs, cacheScope and serverInfo",
    "[protocol]")
{
    protocol_fixture f;
    auto result = f.answer(R"({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{)"
                       + modern_meta() + "}}")
                      .at("result")
                      .as_object();
    CHECK(result.at("resultType") == "complete");
    CHECK(result.at("ttlMs").is_number());
    CHECK(result.at("cacheScope") == "public");
    CHECK(result.at("_meta").at(names::meta_server_info).at("name") == "toolgate");
    CHECK(result.at("tools").as_array().size() == 5);
}

TEST_CASE("§4: a malformed _meta under a claim is -32602 with status 400", "[protocol]")
{
    auto meta = GENERATE(as<std::string> {},
        // no clientCapabilities
        R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"})",
        // capabilities not an object
        R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":[]})",
        // version not a string
        R"("_meta":{"io.modelcontextprotocol/protocolVersion":20260728,"io.modelcontextprotocol/clientCapabilities":{}})",
        // clientInfo not an object
        R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":"me"})",
        // unknown logLevel
        R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"loud"})");
    CAPTURE(meta);
    protocol_fixture f;
    auto reply
        = f.reply_to(R"({"jsonrpc":"2.0","id":11,"method":"tools/list","params":{)" + meta + "}}");
    CHECK(reply.http_status == 400);
    auto answer = json::parse(reply.flatten()).as_object();
    CHECK(error_code_of(answer) == error_code::invalid_params);
    CHECK(answer.at("id") == 11); // §3: every error carries the request id
    CHECK_THAT(std::string(answer.at("error").at("message").as_string()), Catch::Contains("_meta"));
}

TEST_CASE("§4: clientInfo is optional on a modern request", "[protocol]")
{
    protocol_fixture f;
    auto answer = f.answer(
        R"({"jsonrpc":"2.0","id":1,"method":"server/discover","params":{)" + modern_meta() + "}}");
    CHECK(answer.contains("result"));
}

TEST_CASE("§3 row 5: an unserved claimed version is -32022 with data.supported and "
          "data.requested",
    "[protocol]")
{
    auto version = GENERATE(as<std::string> {}, "2099-01-01", "2024-11-05", "v999", "");
    CAPTURE(version);
    protocol_fixture f;
    auto reply = f.reply_to(R"({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{)"
        + modern_meta(version) + "}}");
    CHECK(reply.http_status == 400);
    auto answer = json::parse(reply.flatten()).as_object();
    CHECK(error_code_of(answer) == error_code::unsupported_protocol_version);
    auto const& data = answer.at("error").at("data").as_object();
    CHECK(data.at("supported") == supported_array());
    CHECK(data.at("requested") == json::value(version));
}

TEST_CASE("§2: removed methods under a claim are -32601 with status 404", "[protocol]")
{
    auto method = GENERATE(as<std::string> {}, "initialize", "ping", "logging/setLevel",
        "resources/subscribe", "resources/unsubscribe", "prompts/list", "subscriptions/listen");
    CAPTURE(method);
    protocol_fixture f;
    auto reply = f.reply_to(R"({"jsonrpc":"2.0","id":1,"method":")" + method
        + R"(","params":{"level":"info",)" + modern_meta() + "}}");
    CHECK(reply.http_status == 404);
    CHECK_FALSE(reply.opened_session);
    CHECK(error_code_of(json::parse(reply.flatten()).as_object()) == error_code::method_not_found);
    CHECK_FALSE(f.session.initialized);
    CHECK_FALSE(f.session.level.has_value());
}

TEST_CASE("§2: a claim naming a legacy version goes the legacy way", "[protocol]")
{
    protocol_fixture f;
    // Legacy path: before initialize, tools/list is refused (L1) rather than served statelessly.
    auto refused = f.answer(R"({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{)"
        + modern_meta("2025-11-25") + "}}");
    CHECK(error_code_of(refused) == error_code::invalid_request);
    // ... and initialize under such a claim opens a session.
    auto reply = f.reply_to(
        R"({"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-06-18",)"
        + init_params + "," + modern_meta("2025-06-18") + "}}");
    CHECK(reply.opened_session);
    auto listed = f.answer(R"({"jsonrpc":"2.0","id":3,"method":"tools/list","params":{)"
        + modern_meta("2025-06-18") + "}}");
    CHECK_FALSE(listed.at("result").as_object().contains("resultType"));
}

TEST_CASE("§2: a _meta holding only a progressToken is not a claim", "[protocol]")
{
    protocol_fixture f;
    auto answer = f.answer(
        R"({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"progressToken":1}}})");
    CHECK(error_code_of(answer) == error_code::invalid_request); // legacy: not initialized
}

TEST_CASE("§2 stdio rule 4: server/discover without a claim is -32602", "[protocol]")
{
    protocol_fixture f;
    auto params = GENERATE(
        as<std::string> {}, "", R"(,"params":{})", R"(,"params":{"_meta":{"progressToken":1}})");
    auto answer = f.answer(R"({"jsonrpc":"2.0","id":1,"method":"server/discover")" + params + "}");
    CHECK(error_code_of(answer) == error_code::invalid_params);
    CHECK(answer.at("id") == 1);
    // ... also on an initialized legacy session.
    f.initialize();
    CHECK(error_code_of(f.answer(R"({"jsonrpc":"2.0","id":2,"method":"server/discover"})"))
        == error_code::invalid_params);
}

TEST_CASE(
    "§8: a modern tools/call carries its own log level, progress token and revision", "[protocol]")
{
    protocol_fixture f;
    auto const with_level = as_call(f.send(
        R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"StoreApi_GetOrder",)"
        + modern_meta(
            "2026-07-28", R"(,"io.modelcontextprotocol/logLevel":"notice","progressToken":"pt")")
        + "}}"));
    CHECK(with_level.modern);
    CHECK(with_level.version == "2026-07-28");
    REQUIRE(with_level.level.has_value());
    CHECK(*with_level.level == log_level::notice);
    CHECK(with_level.progress_token == "pt");

    // No logLevel: no notifications/message, even after a legacy setLevel on this connection.
    f.initialize();
    f.reply_to(
        R"({"jsonrpc":"2.0","id":3,"method":"logging/setLevel","params":{"level":"debug"}})");
    auto const without = as_call(f.send(
        R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"StoreApi_GetOrder",)"
        + modern_meta() + "}}"));
    CHECK(without.modern);
    CHECK_FALSE(without.level.has_value());
}

TEST_CASE(
    "§3 row 10: an unknown tool under a claim is -32602 in-band with status 200", "[protocol]")
{
    protocol_fixture f;
    auto reply = f.reply_to(
        R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"Nope_Tool",)"
        + modern_meta() + "}}");
    CHECK(reply.http_status == 200);
    CHECK(error_code_of(json::parse(reply.flatten()).as_object()) == error_code::invalid_params);
}

TEST_CASE("error_reply maps codes to Streamable HTTP statuses per era", "[protocol]")
{
    protocol_fixture f;
    auto status = [&](int code, bool modern) {
        return f.dispatcher.error_reply(json::value(1), { code, "m", std::nullopt }, modern)
            .http_status;
    };
    CHECK(status(error_code::parse_error, false) == 400);
    CHECK(status(error_code::invalid_request, false) == 400);
    CHECK(status(error_code::method_not_found, false) == 200);
    CHECK(status(error_code::method_not_found, true) == 404);
    CHECK(status(error_code::invalid_params, false) == 200);
    CHECK(status(error_code::invalid_params, true) == 400);
    CHECK(status(error_code::header_mismatch, true) == 400);
    CHECK(status(error_code::unsupported_protocol_version, true) == 400);
    CHECK(status(error_code::internal_error, true) == 200);
}
