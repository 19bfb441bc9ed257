// Log and progress notifications of a real tool call (issue 17 item 2): toolgate itself, its
// StoreApi pointed at the fake platform, over stdio (2025 handshake, logging/setLevel) and
// Streamable HTTP (2026-07-28 per-request log level in _meta).
#include "integration_support.hpp"
#include "support/fake_platform.hpp"

#include <fmt/format.h>

using namespace toolgate::testing;
namespace json = boost::json;
using namespace std::chrono_literals;

namespace {

std::vector<std::string> store_at(toolgate::test::fake_platform const& platform)
{
    return { "--toolkits", "StoreApi", "--tool-mode", "full", "--base-url",
        fmt::format("StoreApi=https://127.0.0.1:{}/store", platform.port()), "--ca-file",
        toolgate::test::fake_platform::ca_file() };
}

spawn_options with_token()
{
    spawn_options options;
    options.env = { "STORE_ACCESS_TOKEN=store-token-S3CR3T-for-the-platform" };
    return options;
}

std::string const folder_args = R"({"folder_unique_identifier":"f1"})";

/// The `data.message` texts of notifications/message, in order.
std::vector<std::string> messages(std::vector<json::object> const& notes)
{
    std::vector<std::string> out;
    for (auto const& n : notes) {
        out.emplace_back(n.at("params").at("data").at("message").as_string());
    }
    return out;
}

} // namespace

TEST_CASE("stdio: after logging/setLevel, a call logs its platform requests and a slow one "
          "reports progress, all before its result",
    "[integration][notifications]")
{
    toolgate::test::fake_platform platform;
    toolgate::test::fake_response limited;
    limited.status = 429;
    limited.headers = { { "Retry-After", "1" } };
    platform.push(limited);
    stdio_server server(store_at(platform), toolgate_bin, with_token());
    server.initialize();
    REQUIRE(server
                .request(R"({"jsonrpc":"2.0","id":1,"method":"logging/setLevel",)"
                         R"("params":{"level":"info"}})",
                    1)
                .contains("result"));
    server.send(call_request(
        "2", "StoreApi_GetFolderDetails", folder_args, R"("_meta":{"progressToken":"p"})"));
    auto const answer = server.response(2);
    auto const* is_error = answer.at("result").as_object().if_contains("isError");
    CHECK((is_error == nullptr || *is_error == false));
    auto const logs = server.notifications("notifications/message");
    auto const texts = messages(logs);
    std::string all;
    for (auto const& t : texts) {
        all += t + "\n";
    }
    INFO(all);
    REQUIRE(texts.size() == 3); // 429, the wait, 200 (sending is debug: below info)
    CHECK_THAT(texts[0],
        Catch::StartsWith("GET 127.0.0.1:") && Catch::Contains("/store/folders/f1: 429 in"));
    CHECK(logs[0].at("params").at("level") == "warning");
    CHECK(logs[0].at("params").at("logger") == "StoreApi.GetFolderDetails");
    CHECK_THAT(texts[1], Catch::Contains("waiting 1 s before attempt 2 of 3"));
    CHECK_THAT(texts[2], Catch::Contains(": 200 in") && Catch::EndsWith("(attempt 2 of 3)"));
    CHECK(logs[2].at("params").at("level") == "info");
    auto const progress = server.notifications("notifications/progress");
    REQUIRE_FALSE(progress.empty());
    CHECK(progress[0].at("params").at("progressToken") == "p");
    for (auto const& m : server.seen) {
        CHECK(json::serialize(m).find("S3CR3T") == std::string::npos);
    }

    // Without a progressToken and at level error, the same call reports nothing.
    server.seen.clear();
    REQUIRE(server
                .request(R"({"jsonrpc":"2.0","id":3,"method":"logging/setLevel",)"
                         R"("params":{"level":"error"}})",
                    3)
                .contains("result"));
    platform.push(limited);
    server.send(call_request("4", "StoreApi_GetFolderDetails", folder_args));
    server.response(4);
    CHECK(server.seen.empty());
}

TEST_CASE(
    "stdio: without logging/setLevel no log notification is sent", "[integration][notifications]")
{
    toolgate::test::fake_platform platform;
    stdio_server server(store_at(platform), toolgate_bin, with_token());
    server.initialize();
    server.send(call_request("2", "StoreApi_GetFolderDetails", folder_args));
    server.response(2);
    CHECK(server.notifications("notifications/message").empty());
}

TEST_CASE("http 2026-07-28: the per-request log level brings the call's logs on its event "
          "stream, and a refusal before sending is logged too",
    "[integration][notifications]")
{
    toolgate::test::fake_platform platform;
    http_server_process server(toolgate_bin, store_at(platform), with_token());
    auto const meta = modern_meta("2026-07-28", R"(,"io.modelcontextprotocol/logLevel":"debug")");
    auto response
        = mcp_post(server.port(), call_request("1", "StoreApi_GetFolderDetails", folder_args, meta),
            {}, modern_headers("tools/call", "StoreApi_GetFolderDetails"));
    REQUIRE(response.status == 200);
    REQUIRE_THAT(*response.header("content-type"), Catch::StartsWith("text/event-stream"));
    auto events = sse_data(response.body);
    REQUIRE(events.size() == 3); // sending (debug), 200 (info), the result
    auto const sending = parse_rpc(events[0]);
    CHECK(sending.at("method") == "notifications/message");
    CHECK(sending.at("params").at("level") == "debug");
    auto const answered = parse_rpc(events[1]);
    CHECK(answered.at("params").at("data").at("status") == 200);
    CHECK(parse_rpc(events[2]).at("id") == 1);

    auto refused
        = mcp_post(server.port(), call_request("2", "StoreApi_GetFolderDetails", "{}", meta), {},
            modern_headers("tools/call", "StoreApi_GetFolderDetails"));
    REQUIRE(refused.status == 200);
    events = sse_data(refused.body);
    REQUIRE(events.size() == 2);
    auto const why = parse_rpc(events[0]);
    CHECK(why.at("params").at("level") == "warning");
    CHECK_THAT(std::string(why.at("params").at("data").at("message").as_string()),
        Catch::StartsWith("not sent: ") && Catch::Contains("folder_unique_identifier"));
    CHECK(platform.request_count() == 1);
}
