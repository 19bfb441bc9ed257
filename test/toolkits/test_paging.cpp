// The next call after a cut list, per paging style, from strings: the arguments that start with
// the first element not shown, the page alignment, slices for cursors and fixed pages, the end
// of a list, and values in the types the parameters take.
#include "toolkits/paging.hpp"
#include "toolkits/result_budget.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <memory>

using namespace toolgate::toolkits;
namespace json = boost::json;

namespace {

param_spec query(std::string_view name, json_type type)
{
    param_spec p;
    p.name = name;
    p.wire_name = name;
    p.in = param_location::query;
    p.type = type;
    return p;
}

param_spec const params[] = {
    query("offset", json_type::integer),
    query("limit", json_type::integer),
    query("page", json_type::integer),
    query("per_page", json_type::integer),
    query("cursor", json_type::string),
    query("until", json_type::number),
    query("text_limit", json_type::string),
    query("usemarker", json_type::boolean),
};

tool_spec list_tool()
{
    tool_spec t;
    t.name = "ListThings";
    t.params = params;
    return t;
}

/// `count` elements at `items` ("" for a bare list), each with `id`, `n` and `created`.
std::string page_text(
    std::string const& items, std::size_t from, std::size_t count, std::string const& extra = "")
{
    std::string list = "[";
    for (std::size_t i = 0; i < count; ++i) {
        list += fmt::format(R"({}{{"id":"e{}","n":{},"created":{}}})", i ? "," : "", from + i,
            from + i, 5000 - from - i);
    }
    list += "]";
    if (items.empty()) {
        return list;
    }
    return "{" + extra + (extra.empty() ? "" : ",") + "\"" + items + "\":" + list + "}";
}

struct cut_page {
    std::shared_ptr<std::string const> text; ///< what `tree` views
    answer_tree tree;
    page_state page;
};

/// The answer with only `shown` elements of its list left (from the slice start on).
cut_page shown_page(
    std::string text_in, paging_spec const& spec, call_options const& options, std::size_t shown)
{
    auto text = std::make_shared<std::string const>(std::move(text_in));
    auto tree = answer_tree::parse(*text);
    REQUIRE(tree.has_value());
    auto const list = find_member_path(*tree, spec.items);
    REQUIRE(list != answer_tree::none);
    auto const start = [&] {
        auto probe = page_of(*tree, spec, options);
        REQUIRE(probe.has_value());
        return probe->start;
    }();
    std::size_t position = 0;
    for (auto c = tree->first_child(list); c != answer_tree::none;
         c = tree->next_sibling(c), ++position) {
        tree->show_subtree(c, position >= start && position < start + shown);
    }
    tree->measure();
    auto page = page_of(*tree, spec, options);
    REQUIRE(page.has_value());
    return { text, std::move(*tree), *page };
}

call_options with_fields(std::vector<std::string> const& paths)
{
    call_options o;
    auto parsed = parse_field_paths(paths);
    REQUIRE(parsed.has_value());
    o.fields = std::move(*parsed);
    json::array given;
    for (auto const& p : paths) {
        given.emplace_back(p);
    }
    o.given["_fields"] = std::move(given);
    return o;
}

json::object args(std::string_view text)
{
    return json::parse(text).as_object();
}

} // namespace

TEST_CASE(
    "offset paging moves past what was shown and sizes the next page to fit", "[toolkits][paging]")
{
    paging_style const styles[] = { { paging_kind::offset, "offset", "", "", "", 0 } };
    paging_spec spec { "entries", "total_count", "limit", 100, 1000, styles };
    auto const tool = list_tool();
    call_options const none;
    auto c = shown_page(page_text("entries", 200, 100, R"("total_count":4512)"), spec, none, 37);
    auto next = plan_next_call(
        tool, spec, args(R"({"folder":"1","offset":200,"limit":100})"), none, c.tree, c.page);
    CHECK(next.outcome == next_call::kind::more);
    CHECK(next.arguments == args(R"({"folder":"1","offset":237,"limit":37})"));
    CHECK(next.total == 4512u);
    CHECK(next.keep == 37);
    // No offset given: it counts from the style's first position.
    auto first = plan_next_call(tool, spec, args("{}"), none, c.tree, c.page);
    CHECK(first.arguments == args(R"({"offset":37,"limit":37})"));
}

TEST_CASE("page paging chooses a size that makes the next page start at the first element not "
          "shown",
    "[toolkits][paging]")
{
    paging_style const styles[] = { { paging_kind::page, "page", "", "", "", 1 } };
    paging_spec spec { "tickets", "", "per_page", 30, 100, styles };
    auto const tool = list_tool();
    call_options const none;
    // Page 3 of 30 (elements 60..89), 7 fit: the window is 7, and 3 are shown so that the next
    // page of 7 starts at 63 (page 10 holds 63..69).
    auto c = shown_page(page_text("tickets", 60, 30), spec, none, 7);
    auto next = plan_next_call(tool, spec, args(R"({"page":3})"), none, c.tree, c.page);
    CHECK(next.keep == 3);
    CHECK(next.arguments == args(R"({"page":10,"per_page":7})"));
    CHECK((10 - 1) * 7 == 60 + 3);
    // The first page: every window divides its own start.
    auto c1 = shown_page(page_text("tickets", 0, 30), spec, none, 8);
    auto n1 = plan_next_call(tool, spec, args("{}"), none, c1.tree, c1.page);
    CHECK(n1.keep == 8);
    CHECK(n1.arguments == args(R"({"page":2,"per_page":8})"));
}

TEST_CASE("a fixed page continues with a slice of the same page, then the next page",
    "[toolkits][paging]")
{
    paging_style const styles[] = { { paging_kind::page, "page", "", "", "", 1 } };
    paging_spec spec { "Quotes", "", "", 100, 100, styles };
    auto const tool = list_tool();
    call_options const none;
    auto c = shown_page(page_text("Quotes", 100, 100), spec, none, 37);
    auto next = plan_next_call(tool, spec, args(R"({"page":2})"), none, c.tree, c.page);
    CHECK(next.arguments == args(R"({"page":2,"_fields":["Quotes[37:]"]})"));

    auto const sliced = with_fields({ "Quotes[37:]" });
    auto c2 = shown_page(page_text("Quotes", 100, 100), spec, sliced, 50);
    CHECK(c2.page.start == 37);
    auto n2 = plan_next_call(tool, spec, args(R"({"page":2})"), sliced, c2.tree, c2.page);
    CHECK(n2.arguments == args(R"({"page":2,"_fields":["Quotes[87:]"]})"));

    auto const rest = with_fields({ "Quotes[87:]" });
    auto c3 = shown_page(page_text("Quotes", 100, 100), spec, rest, 13);
    auto n3 = plan_next_call(tool, spec, args(R"({"page":2})"), rest, c3.tree, c3.page);
    CHECK(n3.outcome == next_call::kind::more);
    CHECK(n3.arguments == args(R"({"page":3})"));

    // A short page is the last one.
    auto const tail = with_fields({ "Quotes[20:]" });
    auto c5 = shown_page(page_text("Quotes", 300, 40), spec, tail, 20);
    CHECK(plan_next_call(tool, spec, args(R"({"page":4})"), tail, c5.tree, c5.page).outcome
        == next_call::kind::end);
}

TEST_CASE("a cursor continues from the same cursor with a shorter page, then its own next "
          "cursor",
    "[toolkits][paging]")
{
    paging_style const styles[]
        = { { paging_kind::cursor, "cursor", "nextCursor", "usemarker", "true", 1 } };
    paging_spec spec { "data", "", "limit", 25, 100, styles };
    auto const tool = list_tool();
    call_options const none;
    auto c = shown_page(page_text("data", 0, 100, R"("nextCursor":"after-100")"), spec, none, 30);
    auto next
        = plan_next_call(tool, spec, args(R"({"cursor":"c0","limit":100})"), none, c.tree, c.page);
    CHECK(next.arguments == args(R"({"cursor":"c0","limit":60,"_fields":["data[30:]"]})"));

    // That call: 60 elements from the same start, 30 on shown; the page is done.
    auto const sliced = with_fields({ "data[30:]" });
    auto c2 = shown_page(page_text("data", 0, 60, R"("nextCursor":"after-60")"), spec, sliced, 30);
    auto n2 = plan_next_call(
        tool, spec, args(R"({"cursor":"c0","limit":60})"), sliced, c2.tree, c2.page);
    CHECK(n2.arguments == args(R"({"cursor":"after-60","limit":30,"usemarker":true})"));

    // The end: no next cursor.
    auto c3 = shown_page(page_text("data", 0, 60, R"("nextCursor":null)"), spec, sliced, 30);
    CHECK(
        plan_next_call(tool, spec, args(R"({"cursor":"c0","limit":60})"), sliced, c3.tree, c3.page)
            .outcome
        == next_call::kind::end);
}

TEST_CASE("key paging continues from the last shown element's key, in the parameter's type",
    "[toolkits][paging]")
{
    paging_style const styles[] = { { paging_kind::key, "until", "created", "", "", 1 } };
    paging_spec spec { "deployments", "", "text_limit", 20, 100, styles };
    auto const tool = list_tool();
    call_options const none;
    auto c = shown_page(page_text("deployments", 0, 20), spec, none, 6);
    auto next = plan_next_call(tool, spec, args(R"({"app":"web"})"), none, c.tree, c.page);
    // The sixth element (n = 5) was created at 4995; `until` is a number, the size a string.
    CHECK(next.arguments == args(R"({"app":"web","until":4995,"text_limit":"6"})"));

    paging_style const by_id[] = { { paging_kind::key, "cursor", "id", "", "", 1 } };
    paging_spec bare { "", "", "limit", 50, 1000, by_id };
    auto b = shown_page(page_text("", 0, 50), bare, none, 12);
    auto nb = plan_next_call(tool, bare, args("{}"), none, b.tree, b.page);
    CHECK(nb.arguments == args(R"({"cursor":"e11","limit":12})"));
}

TEST_CASE("the caller's own fields keep their choice and gain the slice", "[toolkits][paging]")
{
    paging_style const styles[] = { { paging_kind::page, "page", "", "", "", 1 } };
    paging_spec spec { "Quotes", "", "", 100, 100, styles };
    auto const tool = list_tool();
    auto const own = with_fields({ "Quotes[].id", "Status" });
    auto c = shown_page(page_text("Quotes", 0, 100, R"("Status":"OK")"), spec, own, 60);
    auto next = plan_next_call(tool, spec, args("{}"), own, c.tree, c.page);
    CHECK(next.arguments == args(R"({"_fields":["Quotes[60:].id","Status"]})"));
    auto const sliced = with_fields({ "Quotes[60:].id", "Status" });
    auto c2 = shown_page(page_text("Quotes", 0, 100, R"("Status":"OK")"), spec, sliced, 40);
    auto n2 = plan_next_call(tool, spec, args(R"({"page":1})"), sliced, c2.tree, c2.page);
    CHECK(n2.arguments == args(R"({"page":2,"_fields":["Quotes[].id","Status"]})"));
}

TEST_CASE("a list whose first element alone is over the budget is stuck", "[toolkits][paging]")
{
    paging_style const styles[] = { { paging_kind::offset, "offset", "", "", "", 0 } };
    paging_spec spec { "entries", "", "limit", 100, 1000, styles };
    call_options const none;
    auto c = shown_page(page_text("entries", 0, 10), spec, none, 0);
    CHECK(plan_next_call(list_tool(), spec, args("{}"), none, c.tree, c.page).outcome
        == next_call::kind::stuck);
}
