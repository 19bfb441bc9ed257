// --toolkits / --tools selection: lists, globs, both spellings, errors.
#include "toolkits/selection.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>

using namespace toolgate::toolkits;

namespace {
selection make(std::vector<std::string> kits, std::vector<std::string> tools)
{
    return make_selection(kits, tools);
}
} // namespace

TEST_CASE("glob patterns match with star and question mark", "[toolkits][selection]")
{
    CHECK(glob_match("Get*", "GetFolderDetails"));
    CHECK(glob_match("*", ""));
    CHECK(glob_match("Delete?older", "DeleteFolder"));
    CHECK(glob_match("*Folder*", "RetrieveFolderItems"));
    CHECK_FALSE(glob_match("Get*", "RetrieveFolderItems"));
    CHECK_FALSE(glob_match("get*", "GetFolderDetails"));
}

TEST_CASE("an empty selection serves every tool", "[toolkits][selection]")
{
    auto sel = make({}, {});
    CHECK(sel.tools().size() == 1150);
    CHECK(sel == selection {});
    CHECK(sel.key() == "toolkits=*;tools=*");
}

TEST_CASE("toolkit lists are comma-separated and repeatable", "[toolkits][selection]")
{
    auto sel = make({ "StoreApi, KanbanApi", "DeployApi" }, {});
    CHECK(sel.tools().size() == 188 + 246 + 194);
    CHECK(sel.key() == "toolkits=DeployApi,KanbanApi,StoreApi;tools=*");
}

TEST_CASE("tool globs select across toolkits in either spelling", "[toolkits][selection]")
{
    auto sel = make({}, { "StoreApi.Get*", "DeployApi_*" });
    auto tools = sel.tools();
    REQUIRE_FALSE(tools.empty());
    std::size_t deploy = 0;
    for (auto const& t : tools) {
        if (t.toolkit->name == "StoreApi") {
            CHECK(t.tool->name.starts_with("Get"));
        } else {
            CHECK(t.toolkit->name == "DeployApi");
            ++deploy;
        }
    }
    CHECK(deploy == 194);
    CHECK(make({}, { "StoreApi" }).tools().size() == 188);
}

TEST_CASE("toolkits and tools together select their intersection", "[toolkits][selection]")
{
    auto sel = make({ "StoreApi" }, { "*.DeleteFolder" });
    auto tools = sel.tools();
    REQUIRE(tools.size() == 1);
    CHECK(tools[0].tool->name == "DeleteFolder");
}

TEST_CASE("an unknown toolkit is a clear error", "[toolkits][selection]")
{
    CHECK_THROWS_WITH(make({ "StoreAPI" }, {}),
        Catch::Contains("unknown toolkit `StoreAPI`") && Catch::Contains("StoreApi"));
}

TEST_CASE("a tool pattern that matches nothing is an error", "[toolkits][selection]")
{
    CHECK_THROWS_WITH(make({}, { "StoreApi.NoSuch*" }), Catch::Contains("matches no tool"));
    CHECK_THROWS_AS(make({ "KanbanApi" }, { "StoreApi.*" }), selection_error);
}

TEST_CASE("toolsets: Toolkit:read serves a toolkit's read-only tools, read-only mode all of them",
    "[toolkits][selection]")
{
    auto const reads
        = make_selection(std::vector<std::string> { "KanbanApi:read", "CoreEngineApi" }, {});
    std::size_t kanban = 0;
    for (auto const& ref : reads.tools()) {
        if (ref.toolkit->name == "KanbanApi") {
            ++kanban;
            CHECK(ref.tool->read_only);
        }
    }
    CHECK(kanban > 0);
    CHECK(kanban < find_toolkit("KanbanApi")->tools.size());
    CHECK(reads.key().find("KanbanApi:read") != std::string::npos);

    auto const only_reads = make_selection({}, {}, true);
    for (auto const& ref : only_reads.tools()) {
        CHECK(ref.tool->read_only);
    }
    CHECK_THROWS_WITH(make_selection(std::vector<std::string> { "KanbanApi:write" }, {}),
        Catch::Contains("unknown toolset") && Catch::Contains("KanbanApi:read"));
    CHECK_THROWS_WITH(make_selection(std::vector<std::string> { "NopeApi:read" }, {}),
        Catch::Contains("unknown toolkit `NopeApi`"));
}
