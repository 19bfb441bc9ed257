// Every list tool's paging descriptor, checked by use: a simulated platform serves a long list
// the way the descriptor's style says the platform pages (offsets, page numbers, opaque cursors,
// keys of the last element), every answer is over the budget, and the test follows the notes
// from the first call to the end, as a model would. Each element must be seen exactly once.
// Also: every read tool with paging-like parameters has a descriptor or says why it has none.
#include "paging_walk.hpp"
#include "toolkits/catalogue.hpp"
#include "toolkits/catalogue_provider.hpp"
#include "toolkits/reserved_arguments.hpp"
#include "toolkits/result_note.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/stream_parser.hpp>
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <charconv>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

using namespace toolgate::toolkits;
using namespace toolgate::toolkits::testing;
using toolgate::protocol::call_result;
namespace asio = boost::asio;
namespace json = boost::json;

namespace {

constexpr std::size_t list_length = 173; // not a multiple of any page size used
constexpr std::uint64_t budget_tokens = 1500;

param_spec const* param_named(tool_spec const& tool, std::string_view name)
{
    for (auto const& p : tool.params) {
        if (p.name == name) {
            return &p;
        }
    }
    return nullptr;
}

/// The key of element `i` in the type the key parameter takes; keys grow along the list.
json::value key_of(tool_spec const& tool, paging_style const& style, std::size_t i)
{
    auto const* p = param_named(tool, style.param);
    if (p != nullptr && p->type != json_type::string) {
        return json::value(static_cast<std::int64_t>(100000 + i));
    }
    return json::value(fmt::format("k{:06}", i));
}

/// A platform that pages a list of `list_length` elements as the tool's descriptor says.
/// Written from the styles' meaning, not from toolkits/paging.cpp.
class list_platform final : public tool_executor {
public:
    asio::awaitable<call_result> execute(
        toolkit_spec const&, tool_spec const& tool, json::object args, call_context&) override
    {
        auto const& spec = *tool.paging;
        auto const& style = style_used(spec, args);
        std::uint64_t size = spec.default_size ? spec.default_size : 50;
        if (!spec.size_param.empty()) {
            size = number_of(args.if_contains(spec.size_param)).value_or(size);
        }
        std::size_t start = 0;
        auto const* given = args.if_contains(style.param);
        switch (style.kind) {
        case paging_kind::offset:
            start = number_of(given).value_or(style.first) - style.first;
            break;
        case paging_kind::page:
            start = (number_of(given).value_or(style.first) - style.first) * size;
            break;
        case paging_kind::cursor:
            if (given != nullptr && given->is_string()) {
                start = std::stoul(std::string(given->get_string().subview(4)));
            }
            break;
        case paging_kind::key:
            if (given != nullptr) {
                while (start < list_length && key_of(tool, style, start) != *given) {
                    ++start;
                }
                ++start; // the elements after the given one
            }
            break;
        }
        auto const end = std::min<std::size_t>(list_length, start + size);
        json::array items;
        for (auto i = start; i < end; ++i) {
            json::object e;
            e["id"] = fmt::format("e{}", i);
            e["n"] = i;
            if (style.kind == paging_kind::key) {
                e[style.answer] = key_of(tool, style, i);
            }
            // Elements grow along the list, so that later pages are cut again, elsewhere.
            e["text"] = std::string(
                100 + i * 5 + (i % 7 == 3 ? 300 : 0), 'a' + static_cast<char>(i % 26));
            items.push_back(std::move(e));
        }
        json::value answer = std::move(items);
        if (style.kind == paging_kind::cursor) {
            put(answer, spec.items, style.answer,
                end < list_length ? json::value(fmt::format("pos-{}", end)) : json::value(nullptr));
        }
        if (!spec.total.empty()) {
            put(answer, spec.items, spec.total, json::value(list_length));
        }
        if (!spec.items.empty() && !answer.is_object()) {
            answer = nest(spec.items, std::move(answer));
        }
        auto result = call_result::text(json::serialize(answer));
        result.json_answer = true;
        co_return result;
    }

private:
    static paging_style const& style_used(paging_spec const& spec, json::object const& args)
    {
        for (auto const& s : spec.styles) {
            if (args.contains(s.param) || (!s.with_param.empty() && args.contains(s.with_param))) {
                return s;
            }
        }
        return spec.styles.front();
    }

    static json::value nest(std::string_view path, json::value inner)
    {
        json::value out = std::move(inner);
        while (!path.empty()) {
            auto const dot = path.rfind('.');
            auto const name = dot == std::string_view::npos ? path : path.substr(dot + 1);
            json::object o;
            o[name] = std::move(out);
            out = std::move(o);
            path = dot == std::string_view::npos ? std::string_view() : path.substr(0, dot);
        }
        return out;
    }

    /// Sets `path` (dotted) in the answer, nesting the list first when it is not bare.
    static void put(
        json::value& answer, std::string_view items, std::string_view path, json::value v)
    {
        if (!answer.is_object()) {
            if (items.empty()) {
                return; // a bare list has nowhere to hold it
            }
            answer = nest(items, std::move(answer));
        }
        json::value* at = &answer;
        while (true) {
            auto const dot = path.find('.');
            auto& o = at->as_object();
            if (dot == std::string_view::npos) {
                o[path] = std::move(v);
                return;
            }
            at = &o[path.substr(0, dot)];
            if (!at->is_object()) {
                *at = json::object();
            }
            path = path.substr(dot + 1);
        }
    }
};

class null_context final : public call_context {
public:
    void report_progress(double, std::optional<double>, std::string_view) override { }
    void log(log_level, std::string_view, json::value) override { }
    std::string_view protocol_version() const override { return "2025-11-25"; }
};

call_result run_call(catalogue_provider& provider, std::string const& name, json::object args)
{
    auto const* tool = provider.find(name);
    REQUIRE(tool);
    null_context ctx;
    asio::io_context io;
    std::optional<call_result> out;
    asio::co_spawn(
        io, provider.call(*tool, std::move(args), ctx), [&](std::exception_ptr e, call_result r) {
            REQUIRE_FALSE(e);
            out = std::move(r);
        });
    io.run();
    REQUIRE(out);
    return std::move(*out);
}

/// A valid value for a required parameter.
json::value sample(param_spec const& p)
{
    if (!p.enum_values.empty()) {
        return json::value(p.enum_values.front());
    }
    switch (p.type) {
    case json_type::integer:
    case json_type::number:
        return json::value(p.has_minimum ? static_cast<std::int64_t>(p.minimum) + 1 : 1);
    case json_type::boolean:
        return json::value(true);
    case json_type::array:
        return json::array { "x" };
    case json_type::object:
        return json::object {};
    case json_type::string:
        break;
    }
    switch (p.format) {
    case value_format::date:
        return json::value("2024-01-31");
    case value_format::utc_date_time:
    case value_format::date_time:
        return json::value("2024-01-31T10:00:00Z");
    case value_format::year:
        return json::value("2024");
    case value_format::http_url:
        return json::value("https://example.test/x");
    default:
        return json::value("x1");
    }
}

/// Elements (`n`) the answer shows.
std::vector<std::size_t> shown_elements(call_result const& r, paging_spec const& spec)
{
    auto const answer = json::parse(r.content.at(0).text);
    json::value const* list = &answer;
    std::string_view path = spec.items;
    while (!path.empty()) {
        auto const dot = path.find('.');
        list = list->as_object().if_contains(path.substr(0, dot));
        REQUIRE(list != nullptr);
        path = dot == std::string_view::npos ? std::string_view() : path.substr(dot + 1);
    }
    std::vector<std::size_t> out;
    for (auto const& e : list->as_array()) {
        out.push_back(static_cast<std::size_t>(e.at("n").as_int64()));
    }
    return out;
}

/// Follows the notes from `first` to the end; returns how often each element was shown.
std::vector<int> page_through(catalogue_provider& provider, std::string const& name,
    tool_spec const& tool, json::object first, std::size_t& calls)
{
    std::vector<int> seen(list_length, 0);
    auto args = std::move(first);
    for (calls = 1; calls <= 400; ++calls) {
        auto const r = run_call(provider, name, args);
        INFO("call " << calls << ": " << json::serialize(args));
        INFO("note: " << (r.content.size() > 1 ? r.content[1].text : ""));
        REQUIRE_FALSE(r.is_error);
        std::size_t text = 0;
        for (auto const& block : r.content) {
            text += block.text.size();
        }
        CHECK(text <= budget_tokens * bytes_per_token);
        auto const shown = shown_elements(r, *tool.paging);
        for (auto n : shown) {
            ++seen.at(n);
        }
        auto next
            = r.content.size() > 1 ? next_from_note(r) : native_next(tool, args, r, shown.size());
        if (!next) {
            break;
        }
        args = std::move(*next);
    }
    return seen;
}

std::string slurp(std::string const& path)
{
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

TEST_CASE("every list tool pages to the end through its notes, nothing lost or repeated",
    "[toolkits][paging][slow]")
{
    list_platform platform;
    result_options options;
    options.max_result_tokens = budget_tokens;
    catalogue_provider provider(selection {}, platform, options);
    std::size_t tools = 0;
    std::size_t runs = 0;
    for (auto const* kit : all_toolkits()) {
        for (auto const& tool : kit->tools) {
            if (tool.paging == nullptr) {
                continue;
            }
            ++tools;
            auto const name = fmt::format("{}.{}", kit->name, tool.name);
            json::object base;
            for (auto const& p : tool.params) {
                if (p.required) {
                    base[p.name] = sample(p);
                }
            }
            // Each style a first call can choose: the first by default, the others by their
            // switch (`usemarker`) or their parameter at its first value. A key needs an
            // element first, so a key style is only reached as the default.
            for (std::size_t s = 0; s < tool.paging->styles.size(); ++s) {
                auto const& style = tool.paging->styles[s];
                auto first = base;
                if (s > 0 && !style.with_param.empty()) {
                    first[style.with_param] = json::parse(style.with_value);
                } else if (s > 0 && style.kind == paging_kind::page) {
                    first[style.param] = style.first;
                } else if (s > 0) {
                    continue;
                }
                INFO(name << " style " << s);
                std::size_t calls = 0;
                auto const seen = page_through(provider, name, tool, first, calls);
                ++runs;
                CHECK(calls > 1);
                for (std::size_t i = 0; i < list_length; ++i) {
                    INFO("element " << i);
                    CHECK(seen[i] == 1);
                }
            }
        }
    }
    CHECK(tools > 150); // the catalogue's list tools, not an empty loop
    CHECK(runs >= tools);
}

TEST_CASE("every read tool with paging-like parameters has a paging descriptor or says why not",
    "[toolkits][paging]")
{
    // The wire names tools/paging_rules.py treats as paging-like (PAGING_WIRE).
    std::regex const paging_like("^(offset|page|per_page|pageSize|limit|marker|cursor|next|before|"
                                 "until|since|after|from|startIndex|count|stream_position|"
                                 "cards_page|cards_limit)$");
    std::size_t checked = 0;
    for (auto const* kit : all_toolkits()) {
        auto const source = json::parse(slurp(std::string(TOOLGATE_TEST_SOURCE_DIR) + "/toolkits/"
            + std::string(kit->name) + "/catalogue.json"));
        std::map<std::string, json::object const*> by_name;
        for (auto const& t : source.at("tools").as_array()) {
            by_name[std::string(t.at("name").as_string())] = &t.as_object();
        }
        for (auto const& tool : kit->tools) {
            if (!tool.read_only) {
                continue;
            }
            bool const paged_params
                = std::any_of(tool.params.begin(), tool.params.end(), [&](param_spec const& p) {
                      return p.in == param_location::query
                          && std::regex_match(std::string(p.wire_name), paging_like);
                  });
            if (!paged_params) {
                continue;
            }
            ++checked;
            INFO(kit->name << "." << tool.name);
            auto const* source_tool = by_name.at(std::string(tool.name));
            auto const* paging = source_tool->if_contains("paging");
            REQUIRE(paging != nullptr);
            bool const explained
                = paging->as_object().contains("none") && !paging->at("none").as_string().empty();
            CHECK((tool.paging != nullptr || explained));
        }
    }
    CHECK(checked > 150);
}

TEST_CASE("no catalogue parameter takes a reserved name", "[toolkits][paging]")
{
    for (auto const* kit : all_toolkits()) {
        for (auto const& tool : kit->tools) {
            for (auto const& p : tool.params) {
                INFO(kit->name << "." << tool.name << " " << p.name);
                CHECK_FALSE(is_reserved_argument(p.name));
                CHECK_FALSE(p.name.starts_with('_')); // the reserved names' prefix stays free
            }
        }
    }
}
