// Cutting a tool name into its toolkit and tool parts, in both spellings.
#include "common/tool_names.hpp"

#include <catch2/catch.hpp>

using namespace toolgate::common;

TEST_CASE("a tool name's toolkit is the part before its first '.' or '_'", "[common]")
{
    CHECK(toolkit_of("StoreApi.DeleteFolder") == "StoreApi");
    CHECK(toolkit_of("StoreApi_DeleteFolder") == "StoreApi");
    CHECK(tool_part_of("StoreApi.DeleteFolder") == "DeleteFolder");
    CHECK(tool_part_of("StoreApi_DeleteFolder") == "DeleteFolder");
    // The first separator cuts: what follows is the tool's, whichever characters it holds.
    CHECK(toolkit_of("Test.slow_echo") == "Test");
    CHECK(tool_part_of("Test.slow_echo") == "slow_echo");
    CHECK(tool_part_of("Test_a.b") == "a.b");
}

TEST_CASE("a name without a separator has no toolkit and is all tool", "[common]")
{
    CHECK(toolkit_of("DeleteFolder").empty());
    CHECK(tool_part_of("DeleteFolder") == "DeleteFolder");
    CHECK(toolkit_of("").empty());
    CHECK(tool_part_of("").empty());
}

TEST_CASE("a name that starts with its separator has an empty toolkit", "[common]")
{
    CHECK(toolkit_of("_DeleteFolder").empty());
    CHECK(tool_part_of("_DeleteFolder") == "DeleteFolder");
    CHECK(toolkit_of(".DeleteFolder").empty());
    CHECK(tool_part_of("StoreApi.").empty());
}

TEST_CASE("toolgate's meta-tools belong to no toolkit and keep their whole name", "[common]")
{
    CHECK(toolkit_of("toolgate_search_tools").empty());
    CHECK(tool_part_of("toolgate_search_tools") == "toolgate_search_tools");
    CHECK(toolkit_of("toolgate_call_tool").empty());
    // Only the exact prefix marks one: a toolkit whose name merely starts alike is a toolkit.
    CHECK(toolkit_of("toolgateApi_Get") == "toolgateApi");
    static_assert(toolkit_of("KanbanApi_GetCard") == "KanbanApi");
}
