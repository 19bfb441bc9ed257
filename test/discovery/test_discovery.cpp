// The discovery meta-tools over the real catalogue: the search index's words and ranking, the
// search, describe and call meta-tools, and how a request's view narrows all three.
#include "discovery/discovery.hpp"
#include "discovery/search_index.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <catch2/catch.hpp>

using namespace toolgate;
using namespace toolgate::toolkits;
using namespace toolgate::discovery;
namespace json = boost::json;

namespace {

class recording_executor final : public tool_executor {
public:
    std::vector<std::string> calls;
    boost::asio::awaitable<protocol::call_result> execute(
        toolkit_spec const& toolkit, tool_spec const& tool, json::object, call_context&) override
    {
        calls.push_back(std::string(toolkit.name) + "." + std::string(tool.name));
        co_return protocol::call_result::text("sent");
    }
};

class view_context final : public call_context {
public:
    explicit view_context(protocol::tool_view const* v = nullptr)
        : view_(v)
    {
    }
    void report_progress(double, std::optional<double>, std::string_view) override { }
    void log(log_level, std::string_view, json::value) override { }
    std::string_view protocol_version() const override { return "2025-11-25"; }
    protocol::tool_view const* view() const override { return view_; }

private:
    protocol::tool_view const* view_;
};

struct fixture {
    recording_executor executor;
    catalogue_provider catalogue { make_selection({}, {}), executor };
    discovery_provider discovery { catalogue, search_entries(catalogue) };

    protocol::tool_descriptor const& tool(std::string_view name)
    {
        for (auto const& t : discovery.tools()) {
            if (t.name == name) {
                return t;
            }
        }
        FAIL("no tool " << name);
        throw std::logic_error("unreachable");
    }

    protocol::call_result call(std::string_view name, std::string_view arguments,
        protocol::tool_view const* view = nullptr)
    {
        boost::asio::io_context io;
        view_context context(view);
        std::optional<protocol::call_result> result;
        boost::asio::co_spawn(io,
            discovery.call(tool(name), json::parse(arguments).as_object(), context),
            [&](std::exception_ptr e, protocol::call_result r) {
                REQUIRE_FALSE(e);
                result = std::move(r);
            });
        io.run();
        REQUIRE(result);
        return std::move(*result);
    }
};

json::object answer_of(protocol::call_result const& r)
{
    REQUIRE(r.structured);
    return r.structured->as_object();
}

std::vector<std::string> names_in(json::object const& answer)
{
    std::vector<std::string> out;
    for (auto const& t : answer.at("tools").as_array()) {
        out.emplace_back(t.at("name").as_string());
    }
    return out;
}

} // namespace

TEST_CASE("search words: identifiers split, stopwords dropped, light stemming", "[discovery]")
{
    CHECK(search_tokens("GetFolderItems") == std::vector<std::string> { "get", "folder", "item" });
    CHECK(search_tokens("XMLFileUploads of the team")
        == std::vector<std::string> { "xml", "fil", "upload", "team" });
    CHECK(search_tokens("archived archiving archives")
        == std::vector<std::string> { "archiv", "archiv", "archiv" });
    CHECK(search_tokens("list_user_ids") == std::vector<std::string> { "list", "user", "id" });
}

namespace {
/// The position of the entry `index` ranks first for `query`; fails the test when none matches.
std::size_t best(search_index const& index, std::string_view query)
{
    auto const hits = index.search(
        query, [](std::size_t) { return true; }, 10);
    INFO("query: " << query);
    REQUIRE_FALSE(hits.empty());
    return hits.front().position;
}
} // namespace

TEST_CASE("the index ranks by field-weighted words and widens by synonyms", "[discovery]")
{
    std::vector<search_entry> entries {
        { "DeleteCard", "Delete a card", "Deletes a card for good.", "card_id The card.", "", "" },
        { "ArchiveCard", "Archive a card", "Closes a card; it can be reopened.", "", "", "" },
        { "ListBoards", "List boards", "Boards of a member.", "member_id", "", "" },
    };
    search_index index(entries);
    auto const all = [](std::size_t) { return true; };
    auto hits = index.search("remove the task", all, 10);
    REQUIRE_FALSE(hits.empty());
    CHECK(hits.front().position == 0); // remove ~ delete, task ~ card
    CHECK(best(index, "boards") == 2);
    CHECK(index.search("quantum flux", all, 10).empty());
    auto only_archive = [](std::size_t p) { return p == 1; };
    auto filtered = index.search("card", only_archive, 10);
    REQUIRE(filtered.size() == 1);
    CHECK(filtered.front().position == 1);
    CHECK(index.search("card", all, 1).size() == 1);
}

TEST_CASE("everyday words reach the catalogue's terms through the synonym table", "[discovery]")
{
    std::vector<search_entry> entries {
        { "AddPropertyToCollection", "Add a property", "Adds a property to a collection.", "", "",
            "" },
        { "RemoveMemberFromBoard", "Remove a member", "Takes a member off a board.", "", "", "" },
        { "PauseProject", "Pause a project", "Stops serving a project until resumed.", "", "", "" },
        { "InvalidateToken", "Invalidate a token", "The token stops working.", "", "", "" },
        { "ListProjects", "List projects", "Projects of a team.", "", "", "" },
    };
    search_index index(entries);
    auto const top = [&](std::string_view query) { return entries[best(index, query)].name; };
    CHECK(top("a field for the table") == "AddPropertyToCollection");
    CHECK(top("kick the contractor") == "RemoveMemberFromBoard");
    CHECK(top("put it on hold") == "PauseProject");
    CHECK(top("expire the leaked credential") == "InvalidateToken");
}

TEST_CASE("a name's words as written tell the list from the single item", "[discovery]")
{
    std::vector<search_entry> entries {
        { "GetInvoiceDetails", "Get an invoice", "Reads one invoice with its lines.", "", "", "" },
        { "RetrieveInvoices", "List invoices", "Lists invoices, a page at a time.", "", "", "" },
    };
    search_index index(entries);
    // Stemmed, "invoice" and "invoices" are one word; as written, each names one tool.
    CHECK(best(index, "show me the invoices") == 1);
    CHECK(best(index, "show me invoice 42") == 0);
}

TEST_CASE("what a request asks to do is read from phrases too", "[discovery]")
{
    std::vector<search_entry> entries {
        { "GetCard", "Get a card", "Reads one card.", "", "", "" },
        { "DeleteCard", "Delete a card", "Deletes a card for good.", "", "", "" },
        { "CreateCard", "Create a card", "Makes a new card.", "", "", "" },
        { "UpdateCard", "Update a card", "Changes a card.", "", "", "" },
    };
    search_index index(entries);
    // "get" alone asks to read; "get rid of" asks to delete, "set up" to create.
    CHECK(best(index, "get the card") == 0);
    CHECK(best(index, "get rid of the card") == 1);
    CHECK(best(index, "set up a card") == 2);
    CHECK(best(index, "set the card") == 3);
}

TEST_CASE("give me asks to see, give someone asks to grant", "[discovery]")
{
    std::vector<search_entry> entries {
        { "GetUserRoles", "Get a user's roles", "Reads the roles a user holds.", "", "", "" },
        { "AssignUserRoles", "Assign roles to a user", "Grants a user more roles.", "", "", "" },
    };
    search_index index(entries);
    CHECK(best(index, "give me the roles of user 7") == 0);
    CHECK(best(index, "give Priya the editor role") == 1);
}

TEST_CASE("a request that names a platform lifts that toolkit's tools", "[discovery]")
{
    // Two toolkits with the same tool; only their platform words tell them apart.
    std::vector<search_entry> entries {
        { "DeleteProject", "Delete a project", "Deletes a project for good.", "", "DeployApi",
            "DeployApi web deployment platform" },
        { "DeleteProject", "Delete a project", "Deletes a project for good.", "", "DeskApi",
            "DeskApi IT service desk platform" },
        { "ListProjects", "List projects", "Lists projects.", "", "DeskApi",
            "DeskApi IT service desk platform" },
    };
    search_index index(entries);
    CHECK(best(index, "delete the project on the service desk") == 1);
    CHECK(best(index, "delete the deployment's project") == 0);
    // "platform" is every toolkit's word here, so it names none of them: the toolkit with the
    // better-scoring tools (two mention projects) wins.
    CHECK(best(index, "delete a project on the platform") == 1);
}

TEST_CASE("another tool named in backticks does not lend this one its words", "[discovery]")
{
    std::vector<search_entry> entries {
        { "CheckEngineHealth", "Check the engine",
            "Is the engine up? Otherwise use "
            "`CoreApi_GetWorkerHealthStatus` or `CoreApi.ListWorkerPools`.",
            "", "", "" },
        { "ListWidgets", "List widgets", "Widgets, with their worker pools.", "", "", "" },
    };
    search_index index(entries);
    auto const all = [](std::size_t) { return true; };
    auto hits = index.search("worker pools", all, 10);
    REQUIRE(hits.size() == 1);
    CHECK(hits.front().position == 1);
    // Backticked words that are not tool names still count.
    std::vector<search_entry> plain { { "SetMode", "Set a mode", "Sets `fast` mode.", "", "",
        "" } };
    CHECK(search_index(plain).search("fast", all, 10).size() == 1);
}

TEST_CASE("toolgate_search_tools ranks the catalogue and says how to go on", "[discovery]")
{
    fixture f;
    auto r = f.call(search_tools_name, R"({"query":"list the boards of a member","limit":5})");
    CHECK_FALSE(r.is_error);
    auto const answer = answer_of(r);
    auto const names = names_in(answer);
    REQUIRE_FALSE(names.empty());
    CHECK(names.size() <= 5);
    CHECK(names.front().starts_with("KanbanApi_"));
    auto const& first = answer.at("tools").as_array().front().as_object();
    CHECK(first.contains("summary"));
    CHECK(first.at("required").is_array());
    CHECK(first.at("read_only").is_bool());

    SECTION("filters: toolkit and read-only")
    {
        auto only = answer_of(f.call(search_tools_name,
            R"({"query":"delete","toolkit":"deployapi","read_only_only":true})"));
        for (auto const& t : only.at("tools").as_array()) {
            CHECK(std::string_view(t.at("name").as_string()).starts_with("DeployApi_"));
            CHECK(t.at("read_only") == true);
        }
    }
    SECTION("an empty result says how to broaden the query")
    {
        auto none = answer_of(f.call(search_tools_name, R"({"query":"zzqx quux"})"));
        CHECK(none.at("tools").as_array().empty());
        CHECK(std::string_view(none.at("hint").as_string()).find("fewer") != std::string::npos);
    }
    SECTION("bad arguments are named")
    {
        auto bad = f.call(search_tools_name, R"({"query":"x","limit":99})");
        CHECK(bad.is_error);
        CHECK(bad.content[0].text.find("`limit`") != std::string::npos);
        auto kit = f.call(search_tools_name, R"({"query":"x","toolkit":"NopeApi"})");
        CHECK(kit.is_error);
        CHECK(kit.content[0].text.find("served: ") != std::string::npos);
    }
}

TEST_CASE("toolgate_describe_tools gives full definitions and a did-you-mean", "[discovery]")
{
    fixture f;
    auto const answer = answer_of(f.call(describe_tools_name,
        R"({"names":["KanbanApi.GetBoardMembers","KanbanApi_GetBoardMember"]})"));
    auto const& tools = answer.at("tools").as_array();
    REQUIRE(tools.size() == 1);
    CHECK(tools[0].at("name") == "KanbanApi_GetBoardMembers");
    CHECK(tools[0].at("inputSchema").at("type") == "object");
    CHECK(tools[0].at("annotations").at("readOnlyHint") == true);
    auto const& unknown = answer.at("unknown").as_array();
    REQUIRE(unknown.size() == 1);
    CHECK(json::serialize(unknown[0].at("did_you_mean")).find("KanbanApi_GetBoardMembers")
        != std::string::npos);
}

TEST_CASE("toolgate_call_tool answers as the tool itself does", "[discovery]")
{
    fixture f;
    auto const direct = f.call("KanbanApi_GetBoardMembers", R"({"board_id":"b1"})");
    auto const meta = f.call(
        call_tool_name, R"({"name":"KanbanApi.GetBoardMembers","arguments":{"board_id":"b1"}})");
    CHECK(meta.is_error == direct.is_error);
    CHECK(meta.content[0].text == direct.content[0].text);
    CHECK(f.executor.calls
        == std::vector<std::string> { "KanbanApi.GetBoardMembers", "KanbanApi.GetBoardMembers" });

    // Argument problems come back exactly as a direct call's.
    auto const bad_direct = f.call("KanbanApi_GetBoardMembers", R"({"bord_id":"b1"})");
    auto const bad_meta = f.call(
        call_tool_name, R"({"name":"KanbanApi_GetBoardMembers","arguments":{"bord_id":"b1"}})");
    CHECK(bad_meta.is_error);
    CHECK(bad_meta.content[0].text == bad_direct.content[0].text);

    auto const unknown = f.call(call_tool_name, R"({"name":"KanbanApi_GetBoardMember"})");
    CHECK(unknown.is_error);
    CHECK(unknown.content[0].text.find("did you mean") != std::string::npos);
    auto const nested = f.call(call_tool_name, R"({"name":"toolgate_search_tools"})");
    CHECK(nested.is_error);
    CHECK(f.executor.calls.size() == 2);
}

TEST_CASE("a request's view narrows search, describe and call", "[discovery]")
{
    fixture f;
    protocol::tool_view view;
    view.callable.assign(f.discovery.tools().size(), false);
    std::size_t kept = 0;
    for (std::size_t i = 0; i < f.discovery.tools().size(); ++i) {
        auto const& t = f.discovery.tools()[i];
        view.callable[i] = t.name.starts_with("KanbanApi_") && t.hints.read_only;
        kept += view.callable[i] ? 1 : 0;
    }
    REQUIRE(kept > 10);
    view.refusal = "this connection is read-only";
    auto const found = answer_of(f.call(search_tools_name, R"({"query":"delete a card"})", &view));
    for (auto const& name : names_in(found)) {
        CHECK(name.starts_with("KanbanApi_"));
    }
    auto const described = answer_of(f.call(describe_tools_name,
        R"({"names":["KanbanApi_DeleteKanbanCard","DeployApi_ListAliases"]})", &view));
    CHECK(described.at("tools").as_array().empty());
    auto const refused = f.call(call_tool_name,
        R"({"name":"KanbanApi_DeleteKanbanCard","arguments":{"card_id":"c"}})", &view);
    CHECK(refused.is_error);
    CHECK(refused.content[0].text.find("read-only") != std::string::npos);
    CHECK(f.executor.calls.empty());
}
