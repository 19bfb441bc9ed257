// tools/list pages and cursors (docs/protocol-rules.md TL1–TL5, OS3, §6).
#include "protocol/names.hpp"
#include "protocol_fixture.hpp"

using namespace toolgate::protocol;
using toolgate::testing::error_code_of;
using toolgate::testing::modern_meta;
using toolgate::testing::protocol_fixture;
using toolgate::testing::sample_identity;
using toolgate::testing::sample_tools;
namespace json = boost::json;

namespace {

json::object page_of(tool_pages const& pages, std::string_view cursor, list_variant variant)
{
    auto out = pages.page(cursor, variant);
    INFO(cursor);
    REQUIRE(out.has_value());
    return json::parse(*out).as_object();
}

std::vector<std::string> names_in(json::object const& page)
{
    std::vector<std::string> out;
    for (auto const& tool : page.at("tools").as_array()) {
        out.emplace_back(tool.at("name").as_string());
    }
    return out;
}

/// Follows nextCursor from the first page; returns every name in order.
std::vector<std::string> walk(
    tool_pages const& pages, list_variant variant, std::size_t& page_count)
{
    std::vector<std::string> out;
    std::string cursor;
    page_count = 0;
    for (;;) {
        auto page = page_of(pages, cursor, variant);
        ++page_count;
        REQUIRE(page_count < 100);
        for (auto& n : names_in(page)) {
            out.push_back(std::move(n));
        }
        if (!page.contains("nextCursor")) {
            return out;
        }
        cursor = std::string(page.at("nextCursor").as_string());
    }
}

std::vector<std::string> expected_names()
{
    std::vector<std::string> out;
    for (auto const& t : sample_tools()) {
        out.push_back(t.name);
    }
    return out;
}

} // namespace

TEST_CASE("TL4: page size 0 lists every tool on one page without nextCursor", "[protocol]")
{
    auto tools = sample_tools();
    tool_pages pages(tools, tool_naming::wire, 0, sample_identity());
    CHECK_FALSE(pages.has_cursor_pagination());
    CHECK(pages.page_count() == 1);
    auto page = page_of(pages, "", list_variant::legacy);
    CHECK(names_in(page) == expected_names());
    CHECK_FALSE(page.contains("nextCursor"));
}

TEST_CASE(
    "TL2: with a page size, nextCursor chains the pages and the last page has none", "[protocol]")
{
    auto tools = sample_tools();
    auto size
        = GENERATE(std::size_t(1), std::size_t(2), std::size_t(4), std::size_t(5), std::size_t(50));
    CAPTURE(size);
    tool_pages pages(tools, tool_naming::wire, size, sample_identity());
    auto variant
        = GENERATE(list_variant::legacy_no_title, list_variant::legacy, list_variant::modern);
    std::size_t count = 0;
    CHECK(walk(pages, variant, count) == expected_names());
    CHECK(count == (tools.size() + size - 1) / size);
    CHECK(count == pages.page_count());
}

TEST_CASE(
    "TL5: the listing is deterministic: same text on every call, catalogue order", "[protocol]")
{
    auto tools = sample_tools();
    tool_pages a(tools, tool_naming::wire, 2, sample_identity());
    tool_pages b(tools, tool_naming::wire, 2, sample_identity());
    for (auto variant : { list_variant::legacy, list_variant::modern }) {
        auto first = a.page("", variant).value();
        CHECK(a.page("", variant).value() == first);
        CHECK(b.page("", variant).value() == first);
    }
    // Cursors do not depend on the instance (or a connection): b accepts a's cursor (TL3).
    auto next = page_of(a, "", list_variant::legacy).at("nextCursor").as_string();
    CHECK(b.page(next, list_variant::legacy).has_value());
}

TEST_CASE("TL3: unknown, tampered or foreign cursors are -32602", "[protocol]")
{
    auto tools = sample_tools();
    tool_pages pages(tools, tool_naming::wire, 2, sample_identity());
    std::string const good(page_of(pages, "", list_variant::legacy).at("nextCursor").as_string());
    auto tampered = good;
    tampered[5] = tampered[5] == 'a' ? 'b' : 'a'; // inside the fingerprint
    auto past_end = good.substr(0, good.rfind('.') + 1) + "3";
    auto zero = good.substr(0, good.rfind('.') + 1) + "0";
    auto junk = good + "x";

    tool_pages other_size(tools, tool_naming::wire, 3, sample_identity());
    std::string const foreign(
        page_of(other_size, "", list_variant::legacy).at("nextCursor").as_string());

    for (auto const& cursor : { std::string("nope"), tampered, past_end, zero, junk, foreign,
             std::string("tg1."), std::string("tg1.00000000.1") }) {
        CAPTURE(cursor);
        auto out = pages.page(cursor, list_variant::legacy);
        REQUIRE(out.has_error());
        CHECK(out.error().code == error_code::invalid_params);
        CHECK_THAT(out.error().message, Catch::Contains("cursor"));
    }
}

TEST_CASE("OS3: the 2025-03-26 listing has no title, later revisions keep it", "[protocol]")
{
    auto tools = sample_tools();
    tool_pages pages(tools, tool_naming::wire, 0, sample_identity());
    auto const no_title = page_of(pages, "", list_variant::legacy_no_title);
    for (auto const& tool : no_title.at("tools").as_array()) {
        CHECK_FALSE(tool.as_object().contains("title"));
        CHECK(tool.as_object().contains("description"));
    }
    for (auto variant : { list_variant::legacy, list_variant::modern }) {
        auto const page = page_of(pages, "", variant);
        auto const& first = page.at("tools").at(0).as_object();
        CHECK(first.at("title") == "StoreApi GetOrder");
    }
    CHECK(list_variant_for("2025-03-26") == list_variant::legacy_no_title);
    CHECK(list_variant_for("2025-06-18") == list_variant::legacy);
    CHECK(list_variant_for("2025-11-25") == list_variant::legacy);
    CHECK(list_variant_for("2026-07-28") == list_variant::modern);
}

TEST_CASE("tools carry description, the schema as written and annotations", "[protocol]")
{
    auto tools = sample_tools();
    tool_pages pages(tools, tool_naming::wire, 0, sample_identity());
    auto text = std::string(pages.page("", list_variant::legacy).value());
    CHECK_THAT(text, Catch::Contains(std::string(tools.front().input_schema))); // IS6: as written
    auto const doc = json::parse(text);
    auto const& first = doc.at("tools").at(0).as_object();
    CHECK(first.at("description") == "Does GetOrder on StoreApi.");
    CHECK(first.at("inputSchema").at("type") == "object");
    CHECK(first.at("annotations").at("readOnlyHint") == true);
    CHECK(first.at("annotations").at("openWorldHint") == true);
    auto const& second = doc.at("tools").at(1).as_object();
    CHECK(second.at("annotations").at("readOnlyHint") == false);
}

TEST_CASE("§6: every modern page carries resultType, ttlMs and the same cacheScope, legacy "
          "pages carry none",
    "[protocol]")
{
    auto tools = sample_tools();
    tool_pages pages(tools, tool_naming::wire, 2, sample_identity());
    std::string cursor;
    for (;;) {
        auto page = page_of(pages, cursor, list_variant::modern);
        CHECK(page.at("resultType") == "complete");
        CHECK(page.at("ttlMs").as_int64() > 0);
        CHECK(page.at("cacheScope") == "public");
        CHECK(page.at("_meta").at(names::meta_server_info).at("version") == "9.8.7");
        auto legacy = page_of(pages, cursor, list_variant::legacy);
        for (auto key : { "resultType", "ttlMs", "cacheScope", "_meta" }) {
            CHECK_FALSE(legacy.contains(key));
        }
        if (!page.contains("nextCursor")) {
            break;
        }
        cursor = std::string(page.at("nextCursor").as_string());
    }
}

TEST_CASE("dotted naming lists Toolkit.Tool names", "[protocol]")
{
    auto tools = sample_tools();
    tool_pages pages(tools, tool_naming::dotted, 0, sample_identity());
    CHECK(names_in(page_of(pages, "", list_variant::legacy)).front() == "StoreApi.GetOrder");
}

TEST_CASE("an empty catalogue lists an empty page", "[protocol]")
{
    std::vector<tool_descriptor> none;
    tool_pages pages(none, tool_naming::wire, 3, sample_identity());
    auto page = page_of(pages, "", list_variant::modern);
    CHECK(page.at("tools").as_array().empty());
    CHECK_FALSE(page.contains("nextCursor"));
}

TEST_CASE("tools/list through the dispatcher follows cursors and refuses bad ones", "[protocol]")
{
    protocol_fixture f(2);
    f.initialize("2025-03-26");
    auto first = f.answer(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})");
    auto const& result = first.at("result").as_object();
    CHECK(result.at("tools").as_array().size() == 2);
    CHECK_FALSE(result.at("tools").at(0).as_object().contains("title")); // 03-26 session
    std::string const cursor(result.at("nextCursor").as_string());

    auto second = f.answer(R"({"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":")"
        + cursor + R"("}})");
    CHECK(second.at("result").at("tools").at(0).at("name") == "KanbanApi_GetCard");

    auto bad = f.reply_to(
        R"({"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"cursor":"forged"}})");
    CHECK(bad.http_status == 200);
    CHECK(error_code_of(json::parse(bad.flatten()).as_object()) == error_code::invalid_params);

    auto not_string
        = f.answer(R"({"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"cursor":7}})");
    CHECK(error_code_of(not_string) == error_code::invalid_params);

    // The modern listing of the same catalogue accepts the same cursor (one listing, one scheme).
    auto modern = f.answer(R"({"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"cursor":")"
        + cursor + R"(",)" + modern_meta() + "}}");
    CHECK(modern.at("result").at("resultType") == "complete");
    CHECK(modern.at("result").at("tools").at(0).at("name") == "KanbanApi_GetCard");
}
