// Results a model can read, end to end through the real stack (catalogue_provider ->
// http_executor -> https_client -> TLS -> the fake platform): for each paging style a fake
// list served as its platform pages it, over the budget on every page, followed from the first
// call to the end through the notes, with nothing lost or repeated; `0`, the cap, and a
// malformed `_fields` path that sends nothing.
#include "toolkits/catalogue.hpp"
#include "toolkits/paging_walk.hpp"
#include "toolkits/result_note.hpp"
#include "upstream_stack.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/stream_parser.hpp>
#include <boost/url/parse.hpp>
#include <catch2/catch.hpp>
#include <fmt/format.h>

using namespace toolgate;
using namespace toolgate::upstream_test;
namespace json = boost::json;

namespace {

/// The query of a recorded request, decoded.
std::map<std::string, std::string> query_of(test::recorded_request const& request)
{
    std::map<std::string, std::string> out;
    auto url = boost::urls::parse_origin_form(request.target);
    REQUIRE(url.has_value());
    for (auto const& p : url->params()) {
        out[std::string(p.key)] = std::string(p.value);
    }
    return out;
}

std::size_t number(
    std::map<std::string, std::string> const& q, std::string const& key, std::size_t fallback)
{
    auto it = q.find(key);
    return it == q.end() ? fallback : std::stoul(it->second);
}

constexpr std::size_t list_length = 137;

/// An element of about 2 KB, like a help-desk ticket.
json::object element(std::size_t i)
{
    json::object e;
    e["id"] = fmt::format("{}", 9000 + i);
    e["n"] = i;
    e["created"] = 1'700'000'000'000 - static_cast<std::int64_t>(i) * 1000;
    e["subject"] = fmt::format("Printer on floor {} is out of toner", i % 9);
    e["description"] = std::string(1900, 'a' + static_cast<char>(i % 26));
    return e;
}

json::array slice(std::size_t from, std::size_t count)
{
    json::array out;
    for (auto i = from; i < std::min(list_length, from + count); ++i) {
        out.push_back(element(i));
    }
    return out;
}

test::fake_response answer(json::value body)
{
    return { 200, { { "Content-Type", "application/json" } }, json::serialize(body) };
}

/// The fake platform's pages, one paging style per path.
test::fake_response serve(test::recorded_request const& request)
{
    auto const q = query_of(request);
    auto const path = request.path();
    if (path.ends_with("/folders/42/items")) { // offset/limit, or marker with usemarker
        auto const limit = number(q, "limit", 100);
        if (q.contains("usemarker")) {
            auto const from = q.contains("marker") ? std::stoul(q.at("marker").substr(1)) : 0;
            json::object o { { "entries", slice(from, limit) }, { "limit", limit } };
            o["next_marker"] = from + limit < list_length
                ? json::value(fmt::format("m{}", from + limit))
                : json::value(nullptr);
            return answer(std::move(o));
        }
        auto const offset = number(q, "offset", 0);
        return answer(json::object { { "total_count", list_length },
            { "entries", slice(offset, limit) }, { "offset", offset }, { "limit", limit } });
    }
    if (path.ends_with("/DeskApi/tickets")) { // page/per_page, 30 by default
        auto const per_page = number(q, "per_page", 30);
        auto const page = number(q, "page", 1);
        return answer(json::object { { "tickets", slice((page - 1) * per_page, per_page) } });
    }
    if (path.ends_with("/Quotes")) { // page of a fixed 100
        auto const page = number(q, "page", 1);
        return answer(json::object {
            { "Id", "x" }, { "Status", "OK" }, { "Quotes", slice((page - 1) * 100, 100) } });
    }
    if (path.ends_with("/v6/deployments")) { // until = the last one's `created`, newest first
        auto const limit = number(q, "limit", 20);
        std::size_t from = 0;
        if (q.contains("until")) {
            auto const until = std::stoll(q.at("until"));
            while (from < list_length && element(from).at("created").as_int64() >= until) {
                ++from;
            }
        }
        return answer(json::object { { "deployments", slice(from, limit) },
            { "pagination", json::object { { "count", limit } } } });
    }
    if (path.ends_with("/websets/v0/websets")) { // opaque cursor
        auto const limit = number(q, "limit", 25);
        auto const from = q.contains("cursor") ? std::stoul(q.at("cursor").substr(4)) : 0;
        json::object o { { "data", slice(from, limit) } };
        bool const more = from + limit < list_length;
        o["hasMore"] = more;
        o["nextCursor"]
            = more ? json::value(fmt::format("cur-{}", from + limit)) : json::value(nullptr);
        return answer(std::move(o));
    }
    return { 404, { { "Content-Type", "application/json" } }, R"({"error":"no such list"})" };
}

std::vector<std::size_t> shown(protocol::call_result const& r, std::string_view list)
{
    auto const answer = json::parse(r.content.at(0).text);
    std::vector<std::size_t> out;
    for (auto const& e : answer.at(list).as_array()) {
        out.push_back(static_cast<std::size_t>(e.at("n").as_int64()));
    }
    return out;
}

struct walk {
    std::vector<int> seen = std::vector<int>(list_length, 0);
    std::size_t calls = 0;
};

/// Follows the notes from `first` until one gives no next call; the answers must all fit.
walk follow(upstream_stack& stack, std::string_view tool, std::string_view list, json::object first)
{
    walk w;
    auto args = std::move(first);
    while (w.calls < 200) {
        ++w.calls;
        auto const r = stack.call(tool, args);
        INFO(json::serialize(args) << "\n" << all_text(r));
        REQUIRE_FALSE(r.is_error);
        CHECK(all_text(r).size() <= 8000 * 4 + r.content.size());
        auto const elements = shown(r, list);
        for (auto n : elements) {
            ++w.seen.at(n);
        }
        // The note's next call; an answer that fitted has none, and goes on the platform's way.
        auto const spec = toolkits::find_tool(tool);
        auto next = r.content.size() > 1
            ? toolkits::testing::next_from_note(r)
            : toolkits::testing::native_next(*spec->tool, args, r, elements.size());
        if (!next) {
            break;
        }
        args = std::move(*next);
    }
    return w;
}

void check_once(walk const& w)
{
    CHECK(w.calls > 2);
    for (std::size_t i = 0; i < list_length; ++i) {
        INFO("element " << i);
        CHECK(w.seen[i] == 1);
    }
}

} // namespace

TEST_CASE("every paging style pages to the end through the notes over HTTPS", "[upstream][results]")
{
    upstream_stack stack;
    stack.fake.set_handler(serve);
    auto const [tool, list, first] = GENERATE(table<std::string, std::string, std::string>({
        { "StoreApi.RetrieveFolderItems", "entries", R"({"folder_identifier":"42"})" },
        { "StoreApi.RetrieveFolderItems", "entries",
            R"({"folder_identifier":"42","use_marker_based_pagination":true})" },
        { "DeskApi.ListDeskTickets", "tickets", "{}" },
        { "LedgerApi.RetrieveSalesQuotes", "Quotes", R"({"ledger_tenant_id":"t1"})" },
        { "DeployApi.ListDeployDeployments", "deployments", "{}" },
        { "SearchApi.ListWebsets", "data", "{}" },
    }));
    INFO(tool << " " << first);
    auto const before = stack.fake.request_count();
    auto const w = follow(stack, tool, list, json::parse(first).as_object());
    check_once(w);
    // Pages that fitted needed no second request: at most one platform request per call.
    CHECK(stack.fake.request_count() - before == w.calls);
}

TEST_CASE("a malformed _fields path is refused and nothing is sent", "[upstream][results]")
{
    upstream_stack stack;
    stack.fake.set_handler(serve);
    auto const r = stack.call("StoreApi.RetrieveFolderItems",
        json::parse(R"({"folder_identifier":"42","_fields":["entries[.id"]})").as_object());
    REQUIRE(r.is_error);
    CHECK_THAT(
        all_text(r), Catch::Contains("argument `_fields`: the path `entries[.id` is malformed"));
    CHECK(stack.fake.request_count() == 0);
    auto const t = stack.call("StoreApi.RetrieveFolderItems",
        json::parse(R"({"folder_identifier":"42","_max_tokens":"lots"})").as_object());
    REQUIRE(t.is_error);
    CHECK_THAT(all_text(t), Catch::Contains("argument `_max_tokens`"));
    CHECK(stack.fake.request_count() == 0);
}

TEST_CASE("reserved arguments never reach the platform, _fields narrows the answer",
    "[upstream][results]")
{
    upstream_stack stack;
    stack.fake.set_handler(serve);
    auto const r = stack.call("StoreApi.RetrieveFolderItems",
        json::parse(R"({"folder_identifier":"42","starting_item_offset":5,"max_items_per_page":3,)"
                    R"("_fields":["entries[].id","total_count"],"_max_tokens":20000})")
            .as_object());
    REQUIRE_FALSE(r.is_error);
    auto const requests = stack.fake.requests();
    REQUIRE(requests.size() == 1);
    CHECK(requests[0].query() == "offset=5&limit=3");
    CHECK(json::parse(r.content.at(0).text)
        == json::parse(
            R"({"total_count":137,"entries":[{"id":"9005"},{"id":"9006"},{"id":"9007"}]})"));
    CHECK(r.content.size() == 1);
}

TEST_CASE(
    "budget 0 leaves every answer whole, and the cap bounds _max_tokens", "[upstream][results]")
{
    upstream_stack stack;
    stack.fake.set_handler(serve);
    toolkits::result_options unlimited;
    unlimited.max_result_tokens = 0;
    toolkits::catalogue_provider whole({}, stack.executor, unlimited);
    auto const all = stack.call_on(
        whole, "DeskApi.ListDeskTickets", json::parse(R"({"entries_per_page":100})").as_object());
    REQUIRE(all.content.size() == 1);
    CHECK(json::parse(all.content[0].text).at("tickets").as_array().size() == 100);
    CHECK_FALSE(all.meta.has_value());

    toolkits::result_options capped;
    capped.max_result_tokens = 2000;
    capped.max_result_tokens_cap = 6000;
    toolkits::catalogue_provider bounded({}, stack.executor, capped);
    auto const big = stack.call_on(bounded, "DeskApi.ListDeskTickets",
        json::parse(R"({"entries_per_page":100,"_max_tokens":100000})").as_object());
    CHECK(all_text(big).size() <= 6000 * 4 + 2);
    CHECK(all_text(big).size() > 2000 * 4);
    REQUIRE(big.meta.has_value());
    CHECK(big.meta->at(toolkits::truncated_meta_key).at("budget_tokens") == 6000);
}
