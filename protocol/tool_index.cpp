// Name lookup over the served tools, built once at start-up.
#include "protocol/tool_index.hpp"

#include "protocol/suggest.hpp"

namespace toolgate::protocol {

tool_index::tool_index(std::span<const tool_descriptor> tools)
    : tools_(tools)
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
    return suggest_tools(name, tools_, limit);
}

} // namespace toolgate::protocol
