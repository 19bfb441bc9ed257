// Close-name suggestions for unknown tools and arguments.
#include "protocol/suggest.hpp"

#include <catch2/catch.hpp>

using namespace toolgate::protocol;
using toolgate::protocol::tool_descriptor;

TEST_CASE("edit distance counts insertions, deletions and substitutions", "[toolkits][suggest]")
{
    CHECK(edit_distance("kitten", "sitting") == 3);
    CHECK(edit_distance("", "abc") == 3);
    CHECK(edit_distance("Folder", "folder") == 0);
}

TEST_CASE("argument names get close suggestions only", "[toolkits][suggest]")
{
    std::vector<std::string_view> names { "folder_identifier", "ensure_unchanged_etag" };
    CHECK(suggest_names("folder_identifer", names)
        == std::vector<std::string> { "folder_identifier" });
    CHECK(suggest_names("zzz", names).empty());
}

TEST_CASE("unknown tools get close tool names in wire spelling", "[toolkits][suggest]")
{
    std::vector<tool_descriptor> tools(3);
    tools[0].name = "StoreApi_DeleteFolder";
    tools[0].dotted_name = "StoreApi.DeleteFolder";
    tools[1].name = "StoreApi_DeleteFile";
    tools[1].dotted_name = "StoreApi.DeleteFile";
    tools[2].name = "KanbanApi_GetBoard";
    tools[2].dotted_name = "KanbanApi.GetBoard";
    auto s = suggest_tools("StoreApi.DeleteFolders", tools);
    REQUIRE_FALSE(s.empty());
    CHECK(s.front() == "StoreApi_DeleteFolder");
    CHECK(suggest_tools("DeleteFolder", tools).front() == "StoreApi_DeleteFolder");
    CHECK(suggest_tools("Nothing.Similar.At.All", tools).empty());
}
