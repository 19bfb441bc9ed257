// Finding a tool by either spelling of its name, and suggesting close names when none fits.
#pragma once

#include "protocol/tool_descriptor.hpp"

#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace toolgate::protocol {

class tool_index {
public:
    /// `tools` must outlive the index.
    explicit tool_index(std::span<const tool_descriptor> tools);

    /// The tool named `Toolkit_Tool` or `Toolkit.Tool`, or nullptr.
    tool_descriptor const* find(std::string_view name) const;
    /// Up to `limit` listed names closest to `name` (edit distance, case-insensitive).
    std::vector<std::string> suggest(std::string_view name, std::size_t limit = 3) const;
    /// The served tools, in their positions.
    std::span<const tool_descriptor> tools() const { return tools_; }
    /// Where `tool` (one of tools()) stands.
    std::size_t position(tool_descriptor const& tool) const
    {
        return static_cast<std::size_t>(&tool - tools_.data());
    }

private:
    std::span<const tool_descriptor> tools_;
    std::unordered_map<std::string_view, tool_descriptor const*> by_name_;
};

} // namespace toolgate::protocol
