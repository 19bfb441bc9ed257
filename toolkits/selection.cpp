// Tool selection: parsing of the --toolkits/--tools lists and glob matching.
#include "toolkits/selection.hpp"

#include "common/split_list.hpp"

#include <algorithm>
#include <cstdlib>

namespace toolgate::toolkits {

namespace {

std::vector<std::string> split_items(std::span<const std::string> entries)
{
    std::vector<std::string> out;
    for (auto const& entry : entries) {
        auto items = common::split_list(entry);
        out.insert(out.end(), std::make_move_iterator(items.begin()),
            std::make_move_iterator(items.end()));
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

/// `StoreApi_Get*` -> `StoreApi.Get*`; `StoreApi` -> `StoreApi.*`. Names never hold '_'.
std::string normalise_pattern(std::string pattern)
{
    std::replace(pattern.begin(), pattern.end(), '_', '.');
    if (pattern.find('.') == std::string::npos) {
        pattern += ".*";
    }
    return pattern;
}

bool matches(std::string_view pattern, toolkit_spec const& kit, tool_spec const& tool)
{
    auto dot = pattern.find('.');
    return glob_match(pattern.substr(0, dot), kit.name)
        && glob_match(pattern.substr(dot + 1), tool.name);
}

std::string known_toolkits()
{
    std::string out;
    for (auto const* kit : all_toolkits()) {
        out += (out.empty() ? "" : ", ") + std::string(kit->name);
    }
    return out;
}

} // namespace

bool glob_match(std::string_view pattern, std::string_view text)
{
    // Iterative matcher with one backtrack point for the last '*': linear in practice.
    std::size_t p = 0, t = 0, star = std::string_view::npos, mark = 0;
    while (t < text.size()) {
        if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
            ++p;
            ++t;
        } else if (p < pattern.size() && pattern[p] == '*') {
            star = p++;
            mark = t;
        } else if (star != std::string_view::npos) {
            p = star + 1;
            t = ++mark;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '*') {
        ++p;
    }
    return p == pattern.size();
}

bool selection::includes(toolkit_spec const& toolkit, tool_spec const& tool) const
{
    if (read_only_ && !tool.read_only) {
        return false;
    }
    if (!toolkits_.empty()) {
        // `Toolkit` serves all of it; the toolset `Toolkit:read` its read-only tools.
        bool const whole = std::binary_search(toolkits_.begin(), toolkits_.end(), toolkit.name);
        bool const reads = tool.read_only
            && std::binary_search(toolkits_.begin(), toolkits_.end(),
                std::string(toolkit.name) + std::string(read_suffix));
        if (!whole && !reads) {
            return false;
        }
    }
    return patterns_.empty() || std::any_of(patterns_.begin(), patterns_.end(), [&](auto& p) {
        return matches(p, toolkit, tool);
    });
}

std::vector<tool_ref> selection::tools() const
{
    std::vector<tool_ref> out;
    for (auto const* kit : all_toolkits()) {
        for (auto const& tool : kit->tools) {
            if (includes(*kit, tool)) {
                out.push_back({ kit, &tool });
            }
        }
    }
    return out;
}

std::string selection::key() const
{
    auto join = [](std::vector<std::string> const& v) {
        std::string out;
        for (auto const& s : v) {
            out += (out.empty() ? "" : ",") + s;
        }
        return out.empty() ? std::string("*") : out;
    };
    return "toolkits=" + join(toolkits_) + ";tools=" + join(patterns_)
        + (read_only_ ? ";read-only" : "");
}

selection make_selection(
    std::span<const std::string> toolkits, std::span<const std::string> tools, bool read_only)
{
    selection sel;
    sel.read_only_ = read_only;
    sel.toolkits_ = split_items(toolkits);
    for (auto const& entry : sel.toolkits_) {
        std::string_view name = entry;
        if (name.ends_with(read_suffix)) {
            name.remove_suffix(read_suffix.size());
        } else if (auto const colon = name.find(':'); colon != std::string_view::npos) {
            throw selection_error("unknown toolset `" + entry + "`: a toolkit's toolsets are `"
                + std::string(name.substr(0, colon)) + "` (all of it) and `"
                + std::string(name.substr(0, colon)) + std::string(read_suffix)
                + "` (its read-only tools)");
        }
        if (!find_toolkit(name)) {
            throw selection_error(
                "unknown toolkit `" + std::string(name) + "` (known: " + known_toolkits() + ")");
        }
    }
    for (auto& p : split_items(tools)) {
        sel.patterns_.push_back(normalise_pattern(p));
    }
    std::sort(sel.patterns_.begin(), sel.patterns_.end());
    sel.patterns_.erase(
        std::unique(sel.patterns_.begin(), sel.patterns_.end()), sel.patterns_.end());
    for (auto const& p : sel.patterns_) {
        bool any = false;
        for (auto const* kit : all_toolkits()) {
            for (auto const& tool : kit->tools) {
                any = any || matches(p, *kit, tool);
            }
        }
        if (!any) {
            throw selection_error("tool pattern `" + p + "` matches no tool");
        }
    }
    if (sel.tools().empty()) {
        throw selection_error("the toolkit and tool selection leaves no tool to serve");
    }
    return sel;
}

} // namespace toolgate::toolkits
