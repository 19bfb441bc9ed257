// Joins the generated toolkit data (one TU per toolkit, see toolkits/gen) into one catalogue.
#include "toolkits/catalogue.hpp"

#include "common/tool_names.hpp"
#include "toolkits/stored_catalogue.hpp"

#include <algorithm>
#include <array>

namespace toolgate::toolkits {

// One TOOLGATE_TOOLKIT(<symbol>) per toolkit, written by toolkits/CMakeLists.txt from
// TOOLGATE_TOOLKIT_NAMES; each symbol is defined in
// ${build}/toolkits/generated/<Toolkit>_catalogue.cpp.
#define TOOLGATE_TOOLKIT(symbol) extern const stored::toolkit symbol;
#include "toolkit_list.inc"
#undef TOOLGATE_TOOLKIT

namespace {

const std::array stored_toolkits {
#define TOOLGATE_TOOLKIT(symbol) &(symbol),
#include "toolkit_list.inc"
#undef TOOLGATE_TOOLKIT
};

} // namespace

std::span<toolkit_spec const* const> all_toolkits()
{
    // Expanded at the first use, from any thread (stored_catalogue.hpp says why). Never
    // destroyed, like what it points to: a thread still running at exit may read it, and the
    // leak checker finds the expanded toolkits through it.
    static auto const* const toolkits
        = new std::vector<toolkit_spec const*>(expand(stored_toolkits));
    return *toolkits;
}

toolkit_spec const* find_toolkit(std::string_view name)
{
    auto const toolkits = all_toolkits();
    auto it = std::find_if(
        toolkits.begin(), toolkits.end(), [&](toolkit_spec const* t) { return t->name == name; });
    return it == toolkits.end() ? nullptr : *it;
}

tool_spec const* find_tool(toolkit_spec const& toolkit, std::string_view tool)
{
    auto it = std::lower_bound(toolkit.tools.begin(), toolkit.tools.end(), tool,
        [](tool_spec const& t, std::string_view n) { return t.name < n; });
    return it != toolkit.tools.end() && it->name == tool ? &*it : nullptr;
}

std::optional<tool_ref> find_tool(std::string_view qualified_name)
{
    // Either spelling (common::toolkit_of); a meta-tool's name names no catalogue toolkit.
    auto const kit_name = common::toolkit_of(qualified_name);
    auto const* kit = kit_name.empty() ? nullptr : find_toolkit(kit_name);
    if (!kit) {
        return std::nullopt;
    }
    auto const* tool = find_tool(*kit, common::tool_part_of(qualified_name));
    if (!tool) {
        return std::nullopt;
    }
    return tool_ref { kit, tool };
}

std::size_t tool_count()
{
    std::size_t n = 0;
    for (auto const* kit : all_toolkits()) {
        n += kit->tools.size();
    }
    return n;
}

} // namespace toolgate::toolkits
