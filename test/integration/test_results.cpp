// Results a model can read, through the built server and the fake platform: a list over the
// budget comes back cut, with the note and `_meta["io.toolgate/truncated"]`, in both protocol
// eras (2025-11-25 over stdio, 2026-07-28 stateless over HTTP); the note's next call continues
// the list; `--max-result-tokens 0`, the cap, a malformed path (nothing sent), the reserved
// arguments in the listing and the instructions, and toolgate_call_tool's fields/max_tokens.
#include "integration_support.hpp"
#include "support/fake_platform.hpp"

#include <boost/json/serialize.hpp>
#include <boost/url/parse.hpp>
#include <fmt/format.h>

using namespace toolgate::testing;
using namespace std::chrono_literals;

namespace {

constexpr std::size_t tickets = 95;

/// Help-desk tickets, `page`/`per_page` (30 by default), about 2 KB each.
toolgate::test::fake_response desk(toolgate::test::recorded_request const& request)
{
    std::size_t page = 1;
    std::size_t per_page = 30;
    auto url = boost::urls::parse_origin_form(request.target);
    for (auto const& p : url->params()) {
        if (p.key == "page") {
            page = std::stoul(std::string(p.value));
        } else if (p.key == "per_page") {
            per_page = std::stoul(std::string(p.value));
        }
    }
    json::array list;
    for (auto i = (page - 1) * per_page; i < std::min(tickets, page * per_page); ++i) {
        list.push_back(json::object { { "id", 5000 + i }, { "n", i },
            { "subject", fmt::format("VPN drops every {} minutes", i % 17 + 1) },
            { "description_text", std::string(1900, 'v') } });
    }
    return { 200, { { "Content-Type", "application/json" } },
        json::serialize(json::object { { "tickets", std::move(list) } }) };
}

spawn_options desk_secrets()
{
    spawn_options options;
    options.env = { "DESK_SUBDOMAIN=acme", "DESK_API_KEY=desk-key-1" };
    return options;
}

std::vector<std::string> server_args(
    toolgate::test::fake_platform const& platform, std::vector<std::string> extra = {})
{
    std::vector<std::string> args { "--toolkits", "DeskApi", "--ca-file",
        toolgate::test::fake_platform::ca_file(), "--base-url",
        "DeskApi=" + platform.url("/desk") };
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

std::vector<std::int64_t> shown_tickets(json::value const& result)
{
    std::vector<std::int64_t> out;
    for (auto const& t : result.at("structuredContent").at("tickets").as_array()) {
        out.push_back(t.at("n").as_int64());
    }
    return out;
}

/// Checks a cut result: JSON text = structuredContent, the note, the meta; returns the meta.
json::object check_cut(json::value const& result, std::size_t budget_tokens)
{
    INFO(json::serialize(result));
    auto const& content = result.at("content").as_array();
    REQUIRE(content.size() == 2);
    CHECK(json::parse(content[0].at("text").as_string()) == result.at("structuredContent"));
    CHECK_THAT(std::string(content[1].at("text").as_string()),
        Catch::StartsWith("[toolgate] Cut to fit") && Catch::Contains("Next call"));
    std::size_t text = 0;
    for (auto const& c : content) {
        text += c.at("text").as_string().size();
    }
    CHECK(text <= budget_tokens * 4);
    return result.at("_meta").at("io.toolgate/truncated").as_object();
}

} // namespace

TEST_CASE(
    "results: a list over the budget is cut with a note, 2025-11-25 over stdio", "[results][stdio]")
{
    toolgate::test::fake_platform platform;
    platform.set_handler(desk);
    stdio_server server(
        server_args(platform, { "--max-result-tokens", "4000", "--tool-mode", "full" }),
        toolgate_bin, desk_secrets());
    auto const init = server.initialize();
    CHECK_THAT(std::string(init.at("instructions").as_string()),
        Catch::Contains("`_fields`") && Catch::Contains("`_max_tokens`"));
    server.send(R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})");
    auto const listed = server.response(2);
    REQUIRE(listed.at("result").at("tools").as_array().size() == 214);
    for (auto const& tool : listed.at("result").at("tools").as_array()) {
        auto const& properties = tool.at("inputSchema").at("properties").as_object();
        CHECK(properties.contains("_fields"));
        CHECK(properties.contains("_max_tokens"));
    }

    std::vector<int> seen(tickets, 0);
    json::object arguments;
    for (int id = 10; id < 40; ++id) {
        server.send(call_request(
            std::to_string(id), "DeskApi_ListDeskTickets", json::serialize(arguments)));
        auto const result = server.response(id).at("result");
        for (auto n : shown_tickets(result)) {
            ++seen.at(static_cast<std::size_t>(n));
        }
        auto const* meta = result.as_object().if_contains("_meta");
        if (meta == nullptr) {
            // Fitted: the platform's own next page, as a model goes on, until a short one.
            REQUIRE(arguments.contains("entries_per_page"));
            auto const size = arguments.at("entries_per_page").as_int64();
            if (static_cast<std::int64_t>(shown_tickets(result).size()) < size) {
                break;
            }
            arguments["page_number"] = arguments.at("page_number").as_int64() + 1;
            continue;
        }
        auto const truncated = check_cut(result, 4000);
        arguments = truncated.at("next_arguments").as_object();
    }
    for (std::size_t i = 0; i < tickets; ++i) {
        INFO("ticket " << i);
        CHECK(seen[i] == 1);
    }
    auto const requests = platform.requests();
    REQUIRE(requests.size() > 3);
    CHECK(requests[0].query().empty());
    CHECK_THAT(requests[1].query(), Catch::Contains("per_page="));
}

TEST_CASE("results: a cut list in 2026-07-28, stateless over HTTP", "[results][http][modern]")
{
    toolgate::test::fake_platform platform;
    platform.set_handler(desk);
    http_server_process server(
        toolgate_bin, server_args(platform, { "--max-result-tokens", "4000" }), desk_secrets());
    auto const body = R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":)"
                      R"("DeskApi_ListDeskTickets","arguments":{},)"
        + modern_meta() + "}}";
    auto const response = mcp_post(
        server.port(), body, {}, modern_headers("tools/call", "DeskApi_ListDeskTickets"));
    REQUIRE(response.status == 200);
    auto const result = rpc_body(response).at("result");
    auto const meta = check_cut(result, 4000);
    CHECK(meta.at("lists").at(0).at("path") == "tickets");
    CHECK(meta.at("lists").at(0).at("of") == 30);
    CHECK(meta.at("next_arguments").at("page_number").is_int64());
}

TEST_CASE("results: --max-result-tokens 0 leaves answers whole, the cap bounds _max_tokens",
    "[results][stdio]")
{
    toolgate::test::fake_platform platform;
    platform.set_handler(desk);
    {
        stdio_server server(
            server_args(platform, { "--max-result-tokens", "0" }), toolgate_bin, desk_secrets());
        server.initialize();
        server.send(call_request("5", "DeskApi_ListDeskTickets", "{}"));
        auto const result = server.response(5).at("result");
        CHECK(result.at("content").as_array().size() == 1);
        CHECK_FALSE(result.as_object().contains("_meta"));
        CHECK(result.at("structuredContent").at("tickets").as_array().size() == 30);
    }
    stdio_server server(
        server_args(platform, { "--max-result-tokens", "1000", "--max-result-tokens-cap", "3000" }),
        toolgate_bin, desk_secrets());
    server.initialize();
    server.send(call_request("6", "DeskApi_ListDeskTickets", R"({"_max_tokens":90000})"));
    auto const result = server.response(6).at("result");
    auto const meta = check_cut(result, 3000);
    CHECK(meta.at("budget_tokens") == 3000);
    CHECK_THAT(std::string(result.at("content").at(1).at("text").as_string()),
        Catch::Contains("over the server's cap"));
}

TEST_CASE("results: a malformed path is a tool error and nothing is sent, and toolgate_call_tool "
          "takes fields and max_tokens",
    "[results][stdio]")
{
    toolgate::test::fake_platform platform;
    platform.set_handler(desk);
    stdio_server server(
        server_args(platform, { "--tool-mode", "discovery" }), toolgate_bin, desk_secrets());
    server.initialize();
    server.send(call_request("7", "DeskApi_ListDeskTickets", R"({"_fields":["tickets[].id."]})"));
    auto const refused = server.response(7).at("result");
    CHECK(refused.at("isError") == true);
    CHECK_THAT(std::string(refused.at("content").at(0).at("text").as_string()),
        Catch::Contains("the path `tickets[].id.` is malformed: it ends with a dot"));
    CHECK(platform.request_count() == 0);

    server.send(call_request("8", "toolgate_call_tool",
        R"({"name":"DeskApi_ListDeskTickets","arguments":{},"fields":["tickets[].id"],)"
        R"("max_tokens":500})"));
    auto const called = server.response(8).at("result");
    INFO(json::serialize(called));
    auto const& ids = called.at("structuredContent").at("tickets").as_array();
    CHECK(ids.size() == 30);
    CHECK(ids[0] == json::parse(R"({"id":5000})"));
    CHECK(platform.requests().back().query().find("fields") == std::string::npos);
}
