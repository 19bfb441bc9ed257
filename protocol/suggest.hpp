// Close-name suggestions for unknown tool and argument names ("did you mean ...").
#pragma once

#include "protocol/tool_descriptor.hpp"

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace toolgate::protocol {

/// Levenshtein distance ignoring ASCII case when it is at most `limit`, else `limit + 1`
/// (found without computing the rest: the cost stays bounded for long inputs).
std::size_t edit_distance_within(std::string_view a, std::string_view b, std::size_t limit);

/// Up to `max` candidates close to `name` (edit distance at most a third of the name's length,
/// and at least 2), closest first, ties by name. None for a name over 128 characters.
std::vector<std::string> suggest_names(
    std::string_view name, std::span<const std::string_view> candidates, std::size_t max = 3);

/// Up to `max` tools close to an unknown tool `name`, for the router's -32602 message. Names
/// are compared in either spelling, and a bare tool name (no toolkit) matches its tool part.
/// Suggestions use the wire name (`Toolkit_Tool`).
std::vector<std::string> suggest_tools(
    std::string_view name, std::span<const protocol::tool_descriptor> tools, std::size_t max = 3);

} // namespace toolgate::protocol
