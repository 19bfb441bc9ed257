// Name lookup over the served tools, built once at start-up.
#include "protocol/tool_index.hpp"

#include <algorithm>
#include <cctype>

namespace toolgate::protocol {
namespace {

std::size_t edit_distance(std::string_view a, std::string_view b)
{
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) {
        row[j] = j;
    }
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            std::size_t const above = row[j];
            bool const same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                              std::tolower(static_cast<unsigned char>(b[j - 1]));
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

} // namespace

tool_index::tool_index(std::span<const tool_descriptor> tools) : tools_(tools)
{
    by_name_.reserve(tools.size() * 2);
    for (auto const& tool : tools_) {
        by_name_.emplace(tool.name, &tool);
        by_name_.emplace(tool.dotted_name, &tool);
    }
}

tool_descriptor const* tool_index::find(std::string_view name) const
{
    auto it = by_name_.find(name);
    return it == by_name_.end() ? nullptr : it->second;
}

std::vector<std::string> tool_index::suggest(std::string_view name, std::size_t limit) const
{
    // Compare against the part after the toolkit too, so "DeleteFolder" finds StoreApi's.
    std::vector<std::pair<std::size_t, std::string_view>> scored;
    scored.reserve(tools_.size());
    for (auto const& tool : tools_) {
        std::string_view const full = tool.name;
        auto const sep = full.find('_');
        std::string_view const bare = sep == std::string_view::npos ? full : full.substr(sep + 1);
        scored.emplace_back(std::min(edit_distance(name, full), edit_distance(name, bare)), full);
    }
    auto const keep = std::min(limit, scored.size());
    std::partial_sort(scored.begin(), scored.begin() + static_cast<std::ptrdiff_t>(keep),
                      scored.end());
    std::vector<std::string> out;
    std::size_t const tolerance = std::max<std::size_t>(3, name.size() / 3);
    for (std::size_t i = 0; i < keep; ++i) {
        if (scored[i].first <= tolerance) {
            out.emplace_back(scored[i].second);
        }
    }
    return out;
}

} // namespace toolgate::protocol
