// Close-name suggestions for unknown tools and arguments.
#include "protocol/suggest.hpp"

#include <catch2/catch.hpp>

using namespace toolgate::protocol;
using toolgate::protocol::tool_descriptor;

TEST_CASE("edit distance counts insertions, deletions and substitutions up to a limit",
    "[toolkits][suggest]")
{
    CHECK(edit_distance_within("kitten", "sitting", 5) == 3);
    CHECK(edit_distance_within("", "abc", 5) == 3);
    CHECK(edit_distance_within("Folder", "folder", 5) == 0);
    CHECK(edit_distance_within("kitten", "sitting", 2) == 3); // past the limit: limit + 1
    CHECK(edit_distance_within("a", std::string(1000, 'b'), 4) == 5); // the length gap decides
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
