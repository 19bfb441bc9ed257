// Tool modes, pinned tools, read-only mode and per-connection choices on the real catalogue
// (issue 12), over stdio and Streamable HTTP, in both protocol generations.
#include "integration_support.hpp"
#include "support/fake_platform.hpp"

#include <boost/json/serialize.hpp>
#include <fmt/format.h>

using namespace toolgate::testing;

namespace {

std::vector<std::string> listed_names(json::value const& answer)
{
    std::vector<std::string> out;
    for (auto const& t : answer.at("result").at("tools").as_array()) {
        out.emplace_back(t.at("name").as_string());
    }
    return out;
}

std::string const list_request = R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})";

std::string modern_list(std::string const& id)
{
    return R"({"jsonrpc":"2.0","id":)" + id + R"(,"method":"tools/list","params":{)" + modern_meta()
        + "}}";
}

http_response post_to(
    std::uint16_t port, std::string const& target, std::string const& body, header_pairs extra = {})
{
    auto headers = mcp_headers();
    headers.insert(headers.end(), extra.begin(), extra.end());
    return http_request(port, "POST", target, headers, body);
}

} // namespace

TEST_CASE(
    "discovery: 1150 tools are listed as three meta-tools in a few kilobytes", "[discovery][stdio]")
{
    stdio_server server({}, toolgate_bin);
    auto const init = server.initialize();
    CHECK_THAT(std::string(init.at("instructions").as_string()),
        Catch::Contains("toolgate_search_tools") && Catch::Contains("1150 tools"));
    server.send(list_request);
    auto const line = server.response(2);
    auto const names = listed_names(line);
    CHECK(names
        == std::vector<std::string> {
            "toolgate_search_tools", "toolgate_describe_tools", "toolgate_call_tool" });
    CHECK(json::serialize(line).size() <= 6 * 1024);
    CHECK_THAT(server.process().stderr_text(), Catch::Contains("tool mode discovery (auto"));

    // Search, describe and call, all by the meta-tools; and the same call made directly.
    server.send(call_request("3", "toolgate_search_tools",
        R"({"query":"delete a webhook of a board","toolkit":"KanbanApi"})"));
    auto const found = server.response(3);
    auto const& hits = found.at("result").at("structuredContent").at("tools").as_array();
    REQUIRE_FALSE(hits.empty());
    std::string const name(hits[0].at("name").as_string());
    CHECK(name.starts_with("KanbanApi_"));
    server.send(call_request("4", "toolgate_describe_tools", R"({"names":[")" + name + R"("]})"));
    auto const described = server.response(4);
    CHECK(described.at("result").at("structuredContent").at("tools").as_array().size() == 1);
    server.send(
        call_request("5", "toolgate_call_tool", R"({"name":")" + name + R"(","arguments":{}})"));
    server.send(call_request("6", name, "{}"));
    auto const via_meta = server.response(5);
    auto const direct = server.response(6);
    CHECK(via_meta.at("result") == direct.at("result"));
}

TEST_CASE("discovery: with only the meta-tools, a request for each toolkit is found by search "
          "and called",
    "[discovery][stdio]")
{
    // Issue 12's "done when": a client that sees only the three meta-tools finds a tool of every
    // toolkit from a plain request (no toolkit filter: all 1150 tools compete) and calls it
    // through toolgate_call_tool, which reaches the platform. Every toolkit points at one fake
    // platform, each under its own path prefix.
    struct errand {
        std::string toolkit;
        std::string prefix;
        std::string request;
        std::string tool;
        std::string arguments;
        std::string path; ///< where the call must arrive
    };
    std::vector<errand> const errands {
        { "StoreApi", "/store", "show the contents of folder 12345 in file storage",
            "StoreApi_RetrieveFolderItems", R"({"folder_identifier":"12345"})",
            "/store/folders/12345/items" },
        { "CoreEngineApi", "/engine", "is the tool engine up and healthy",
            "CoreEngineApi_CheckEngineHealth", "{}", "/engine/v1/health" },
        { "SearchApi", "/search", "list all of our websets", "SearchApi_ListWebsets", "{}",
            "/search/websets/v0/websets" },
        { "LedgerApi", "/ledger", "list the invoices in our accounting",
            "LedgerApi_RetrieveInvoices", R"({"ledger_tenant_id":"tenant-1"})",
            "/ledger/Invoices" },
        { "DeskApi", "/desk", "list the tickets on the IT service desk", "DeskApi_ListDeskTickets",
            "{}", "/desk/tickets" },
        { "KanbanApi", "/kanban", "who are the members of board 5f1e", "KanbanApi_GetBoardMembers",
            R"({"board_id":"5f1e"})", "/kanban/boards/5f1e/members" },
        { "VectorDbApi", "/vector", "show the schema of the vector database",
            "VectorDbApi_RetrieveDatabaseSchema", "{}", "/vector/schema" },
        { "DeployApi", "/deploy", "list the projects on the deployment platform",
            "DeployApi_RetrieveProjectsList", "{}", "/deploy/v10/projects" },
    };
    toolgate::test::fake_platform platform;
    std::vector<std::string> args { "--ca-file", toolgate::test::fake_platform::ca_file() };
    for (auto const& e : errands) {
        args.insert(
            args.end(), { "--base-url", fmt::format("{}={}", e.toolkit, platform.url(e.prefix)) });
    }
    spawn_options options;
    // Credentials of a realistic length: shorter ones are refused (review 3 item 19).
    options.env = { "STORE_ACCESS_TOKEN=fake-token", "ENGINE_API_KEY=fake-token",
        "SEARCH_API_KEY=fake-token", "LEDGER_ACCESS_TOKEN=fake-token", "DESK_SUBDOMAIN=acme",
        "DESK_API_KEY=fake-token", "KANBAN_API_KEY=fake-token", "KANBAN_TOKEN=fake-token",
        "VECTORDB_API_KEY=fake-token", "VECTORDB_SERVER_URL=https://vector.invalid",
        "DEPLOY_ACCESS_TOKEN=fake-token" };
    stdio_server server(args, toolgate_bin, options);
    server.initialize();
    server.send(list_request);
    REQUIRE(listed_names(server.response(2)).size() == 3); // the meta-tools only

    int id = 10;
    for (auto const& e : errands) {
        INFO(e.toolkit << ": " << e.request);
        server.send(call_request(std::to_string(++id), "toolgate_search_tools",
            json::serialize(json::object { { "query", e.request }, { "limit", 5 } })));
        auto const found = server.response(id);
        std::vector<std::string> names;
        for (auto const& hit : found.at("result").at("structuredContent").at("tools").as_array()) {
            names.emplace_back(hit.at("name").as_string());
        }
        INFO("found: " << fmt::format("{}", fmt::join(names, ", ")));
        CHECK(std::find(names.begin(), names.end(), e.tool) != names.end());

        server.send(call_request(
            std::to_string(++id), "toolgate_describe_tools", R"({"names":[")" + e.tool + R"("]})"));
        auto const described = server.response(id);
        auto const& tools = described.at("result").at("structuredContent").at("tools").as_array();
        REQUIRE(tools.size() == 1);
        CHECK(tools[0].as_object().contains("inputSchema"));

        auto const before = platform.request_count();
        server.send(call_request(std::to_string(++id), "toolgate_call_tool",
            R"({"name":")" + e.tool + R"(","arguments":)" + e.arguments + "}"));
        auto const called = server.response(id);
        auto const* is_error = called.at("result").as_object().if_contains("isError");
        CHECK((is_error == nullptr || *is_error == false));
        REQUIRE(platform.request_count() == before + 1);
        CHECK(platform.requests().back().path() == e.path);
    }
}

TEST_CASE(
    "discovery: modes by flag, by the selection's size, and pinned tools", "[discovery][stdio]")
{
    SECTION("--tool-mode full lists the whole catalogue")
    {
        stdio_server server({ "--tool-mode", "full" }, toolgate_bin);
        server.initialize();
        server.send(list_request);
        CHECK(listed_names(server.response(2)).size() == 1150);
    }
    SECTION("auto lists a small selection in full")
    {
        stdio_server server({ "--toolkits", "CoreEngineApi" }, toolgate_bin);
        auto const init = server.initialize();
        CHECK_THAT(std::string(init.at("instructions").as_string()),
            Catch::Contains("All 29 tools are listed"));
        server.send(list_request);
        CHECK(listed_names(server.response(2)).size() == 29);
    }
    SECTION("--pin lists chosen tools beside the meta-tools")
    {
        stdio_server server(
            { "--pin", "KanbanApi.GetBoardMembers", "--pin", "DeployApi_ListAliases" },
            toolgate_bin);
        server.initialize();
        server.send(list_request);
        auto const names = listed_names(server.response(2));
        CHECK(names.size() == 5);
        CHECK(std::find(names.begin(), names.end(), "DeployApi_ListAliases") != names.end());
    }
}

TEST_CASE("discovery: --read-only hides and refuses tools that change data", "[discovery][stdio]")
{
    stdio_server server({ "--read-only", "--toolkits", "KanbanApi:read,DeployApi" }, toolgate_bin);
    auto const init = server.initialize();
    CHECK_THAT(std::string(init.at("instructions").as_string()), Catch::Contains("read-only"));
    server.send(call_request("3", "DeployApi_DeleteProject", R"({"project_id_or_name":"p"})"));
    auto const refused = server.response(3);
    REQUIRE(refused.contains("error"));
    CHECK_THAT(std::string(refused.at("error").at("message").as_string()),
        Catch::Contains("read-only") && Catch::Contains("--read-only"));
    server.send(
        call_request("4", "toolgate_search_tools", R"({"query":"delete a project","limit":50})"));
    auto const found = server.response(4); // kept: the loop below reads into it
    for (auto const& hit : found.at("result").at("structuredContent").at("tools").as_array()) {
        CHECK(hit.at("read_only") == true);
    }
}

TEST_CASE("discovery: per-connection choices over HTTP narrow what is served", "[discovery][http]")
{
    http_server_process server(toolgate_bin);
    auto const port = server.port();

    SECTION("query parameters: a toolset, the full mode, a private cache scope")
    {
        auto const listed = post_to(port, "/mcp?toolkits=KanbanApi:read&mode=full",
            modern_list("1"), modern_headers("tools/list"));
        REQUIRE(listed.status == 200);
        auto const body = rpc_body(listed);
        auto const names = listed_names(body);
        REQUIRE_FALSE(names.empty());
        for (auto const& n : names) {
            CHECK(n.starts_with("KanbanApi_"));
        }
        CHECK(names.size() < 246);
        CHECK(body.at("result").at("cacheScope") == "private");
        // The server's own listing stays public and in discovery mode.
        auto const own
            = rpc_body(post_to(port, "/mcp", modern_list("2"), modern_headers("tools/list")));
        CHECK(own.at("result").at("cacheScope") == "public");
        CHECK(listed_names(own).size() == 3);
    }
    SECTION("a tool outside the connection's selection is unknown there")
    {
        auto const body
            = R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"DeployApi_ListAliases","arguments":{},)"
            + modern_meta() + "}}";
        auto const answer = rpc_body(post_to(port, "/mcp?toolkits=KanbanApi", body,
            modern_headers("tools/call", "DeployApi_ListAliases")));
        CHECK(error_code_of(answer) == -32602);
        CHECK_THAT(std::string(answer.at("error").at("message").as_string()),
            Catch::Contains("Unknown tool"));
    }
    SECTION("headers do the same, and the read-only choice refuses with the way out")
    {
        auto const session = http_initialize(port);
        auto const refused = rpc_body(mcp_post(port,
            call_request("4", "DeployApi_DeleteProject", R"({"project_id_or_name":"p"})"), session,
            { { "MCP-Protocol-Version", "2025-11-25" }, { "Toolgate-Read-Only", "1" } }));
        CHECK_THAT(std::string(refused.at("error").at("message").as_string()),
            Catch::Contains("read-only"));
    }
    SECTION("bad choices get 400 naming the parameter")
    {
        auto const bad_mode = post_to(port, "/mcp?mode=everything", list_request);
        CHECK(bad_mode.status == 400);
        CHECK_THAT(bad_mode.body, Catch::Contains("`mode`"));
        auto const bad_kit
            = post_to(port, "/mcp", list_request, { { "Toolgate-Toolkits", "NopeApi" } });
        CHECK(bad_kit.status == 400);
        CHECK_THAT(bad_kit.body, Catch::Contains("NopeApi") && Catch::Contains("served"));
    }
}
