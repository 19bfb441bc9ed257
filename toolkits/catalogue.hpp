// The compiled-in catalogue: the eight toolkits and lookups by toolkit and tool name.
// Everything returned lives as long as the program (the expanded stored catalogue, see
// toolkits/stored_catalogue.hpp).
#pragma once

#include "toolkits/tool_spec.hpp"

#include <optional>
#include <span>
#include <string_view>

namespace toolgate::toolkits {

/// One tool together with the toolkit it belongs to.
struct tool_ref {
    toolkit_spec const* toolkit = nullptr;
    tool_spec const* tool = nullptr;
};

/// The eight toolkits, in the specification's order.
std::span<toolkit_spec const* const> all_toolkits();

/// The toolkit named exactly `name` (e.g. "StoreApi"), or nullptr.
toolkit_spec const* find_toolkit(std::string_view name);

/// The tool `tool` of `toolkit`; tools are sorted by name, so this is a binary search.
tool_spec const* find_tool(toolkit_spec const& toolkit, std::string_view tool);

/// A tool by its qualified name in either spelling: `StoreApi.DeleteFolder` or
/// `StoreApi_DeleteFolder`. Empty when there is no such tool.
std::optional<tool_ref> find_tool(std::string_view qualified_name);

/// Total number of tools in all toolkits.
std::size_t tool_count();

} // namespace toolgate::toolkits
