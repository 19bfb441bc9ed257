// The list-splitting rule: separators, trimming, empty items.
#include "common/split_list.hpp"

#include <catch2/catch.hpp>

using toolgate::common::split_list;
using strings = std::vector<std::string>;

TEST_CASE("a comma list is cut at commas, items trimmed, empty items dropped", "[common]")
{
    CHECK(split_list("StoreApi,KanbanApi") == strings { "StoreApi", "KanbanApi" });
    CHECK(split_list(" StoreApi ,\tKanbanApi\r") == strings { "StoreApi", "KanbanApi" });
    CHECK(split_list(",a,, ,b,") == strings { "a", "b" });
    // Order and repeats are the caller's to judge.
    CHECK(split_list("b,a,b") == strings { "b", "a", "b" });
    // A space inside an item is part of it; only the blanks around it go.
    CHECK(split_list("mcp read , x") == strings { "mcp read", "x" });
}

TEST_CASE("an empty or blank list has no items", "[common]")
{
    CHECK(split_list("").empty());
    CHECK(split_list(" \t ").empty());
    CHECK(split_list(",,,").empty());
}

TEST_CASE("a list may be cut at any of several separators", "[common]")
{
    CHECK(split_list("a b,c\td", " ,\t") == strings { "a", "b", "c", "d" });
    CHECK(split_list("  a   b  ", " ") == strings { "a", "b" });
    // Only the separators given cut: a comma stays inside an item of a space-separated list.
    CHECK(split_list("a,b c", " ") == strings { "a,b", "c" });
}
