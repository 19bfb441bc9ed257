// Reading per-connection choices from the endpoint URL's query and Toolgate-* headers.
#include "mcp/connection_choices.hpp"

#include "common/split_list.hpp"
#include "protocol/text.hpp"

#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>
#include <fmt/format.h>

#include <algorithm>

namespace toolgate::mcp {
namespace {

void add_items(std::vector<std::string>& out, std::string_view text)
{
    auto items = common::split_list(text);
    out.insert(
        out.end(), std::make_move_iterator(items.begin()), std::make_move_iterator(items.end()));
}

/// Applies one choice (from the query or a header), or says what is wrong with it.
common::checked<void> apply(
    view_choice& choice, std::string_view key, std::string_view value, std::string_view where)
{
    if (key == "toolkits") {
        add_items(choice.toolkits, value);
    } else if (key == "tools") {
        add_items(choice.tools, value);
    } else if (key == "mode") {
        auto mode = parse_tool_mode(value);
        if (!mode) {
            return common::problem_of(
                fmt::format("{}: tool mode `{}` is none of full, discovery, auto", where,
                    protocol::clipped(value)));
        }
        choice.mode = mode;
    } else if (key == "read_only") {
        if (value == "1" || value == "true") {
            choice.read_only = true;
        } else if (value != "0" && value != "false") {
            return common::problem_of(fmt::format(
                "{}: expected 1, true, 0 or false, got `{}`", where, protocol::clipped(value)));
        }
    }
    return {};
}

/// Distinct items a list may hold, and their bytes together: each tool pattern is matched
/// against every served tool, on an I/O thread, before any other limit applies (a 16 KiB
/// header held 2,700 globs: 100-210 ms of CPU; security review 3, item 7).
constexpr std::size_t max_choice_items = 64;
constexpr std::size_t max_choice_bytes = 4096;

/// Sorts and deduplicates `items`, then checks them against the bounds.
common::checked<void> bound_items(std::vector<std::string>& items, std::string_view what)
{
    std::sort(items.begin(), items.end());
    items.erase(std::unique(items.begin(), items.end()), items.end());
    std::size_t bytes = 0;
    for (auto const& item : items) {
        bytes += item.size();
    }
    if (items.size() > max_choice_items || bytes > max_choice_bytes) {
        return common::problem_of(fmt::format(
            "{}: at most {} distinct items of {} bytes together (this request: {} items, {} "
            "bytes); choose toolkits, or fewer and broader patterns such as KanbanApi.Get*",
            what, max_choice_items, max_choice_bytes, items.size(), bytes));
    }
    return {};
}

} // namespace

common::checked<view_choice> read_connection_choices(transport::http_request const& request)
{
    view_choice choice;
    if (auto const q = request.target.find('?'); q != std::string::npos) {
        auto parsed = boost::urls::parse_origin_form(request.target);
        if (!parsed) {
            return common::problem_of("the request target's query is not valid");
        }
        for (auto const& param : parsed->params()) {
            auto applied = apply(
                choice, param.key, param.value, fmt::format("query parameter `{}`", param.key));
            if (!applied) {
                return applied.error();
            }
        }
    }
    static constexpr std::pair<std::string_view, std::string_view> headers[] = {
        { "toolgate-toolkits", "toolkits" },
        { "toolgate-tools", "tools" },
        { "toolgate-tool-mode", "mode" },
        { "toolgate-read-only", "read_only" },
    };
    for (auto const& [header, key] : headers) {
        if (auto const* value = request.header(header)) {
            auto applied = apply(choice, key, *value, fmt::format("header `{}`", header));
            if (!applied) {
                return applied.error();
            }
        }
    }
    if (auto bounded = bound_items(choice.toolkits, "toolkits (query or Toolgate-Toolkits)");
        !bounded) {
        return bounded.error();
    }
    if (auto bounded = bound_items(choice.tools, "tools (query or Toolgate-Tools)"); !bounded) {
        return bounded.error();
    }
    return choice;
}

} // namespace toolgate::mcp
