// Close-name suggestions for unknown tools and arguments.
#include "protocol/suggest.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

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

namespace {

/// The full Levenshtein table, ignoring ASCII case: what the banded one must agree with.
std::size_t reference_distance(std::string_view a, std::string_view b)
{
    auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; };
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i) {
        d[i][0] = i;
    }
    for (std::size_t j = 0; j <= b.size(); ++j) {
        d[0][j] = j;
    }
    for (std::size_t i = 1; i <= a.size(); ++i) {
        for (std::size_t j = 1; j <= b.size(); ++j) {
            auto const cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0u : 1u;
            d[i][j] = std::min({ d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost });
        }
    }
    return d[a.size()][b.size()];
}

} // namespace

TEST_CASE(
    "the banded edit distance agrees with the full table (third review 6)", "[toolkits][suggest]")
{
    // Deterministic pseudo-random pairs over a small alphabet, so that near and far pairs,
    // equal and unequal lengths and every limit up to the lengths all occur.
    std::uint32_t seed = 12345;
    auto next = [&seed] {
        seed = seed * 1664525u + 1013904223u;
        return seed >> 16;
    };
    for (int round = 0; round < 2000; ++round) {
        std::string a(next() % 12, 'a');
        std::string b(next() % 12, 'a');
        for (auto& c : a) {
            c = "abcAB_."[next() % 7];
        }
        for (auto& c : b) {
            c = "abcAB_."[next() % 7];
        }
        auto const limit = static_cast<std::size_t>(next() % 8);
        auto const full = reference_distance(a, b);
        INFO(a << " / " << b << " limit " << limit);
        CHECK(edit_distance_within(a, b, limit) == std::min(full, limit + 1));
    }
}
