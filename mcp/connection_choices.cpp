// Reading per-connection choices from the endpoint URL's query and Toolgate-* headers.
#include "mcp/connection_choices.hpp"

#include "protocol/text.hpp"

#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>
#include <fmt/format.h>

namespace toolgate::mcp {
namespace {

void add_items(std::vector<std::string>& out, std::string_view text)
{
    while (!text.empty()) {
        auto const comma = text.find(',');
        auto item = text.substr(0, comma);
        while (!item.empty() && item.front() == ' ') {
            item.remove_prefix(1);
        }
        while (!item.empty() && item.back() == ' ') {
            item.remove_suffix(1);
        }
        if (!item.empty()) {
            out.emplace_back(item);
        }
        if (comma == std::string_view::npos) {
            break;
        }
        text.remove_prefix(comma + 1);
    }
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
    return choice;
}

} // namespace toolgate::mcp
