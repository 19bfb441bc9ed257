// The two parts of a catalogue tool's name, `Toolkit.Tool` (the catalogue's spelling) or
// `Toolkit_Tool` (the one clients see): the one place that cuts a name in two.
#pragma once

#include <string_view>

namespace toolgate::common {

/// The prefix of toolgate's own tools (the discovery meta-tools, `toolgate_search_tools`): they
/// are named alike in both spellings and belong to no toolkit.
inline constexpr std::string_view meta_tool_prefix = "toolgate_";

namespace detail {

/// Where the toolkit part of `tool_name` ends: its first '.' or '_' (toolkit names hold
/// neither), or npos for a name without a toolkit part.
constexpr std::size_t toolkit_end(std::string_view tool_name)
{
    if (tool_name.starts_with(meta_tool_prefix)) {
        return std::string_view::npos;
    }
    return tool_name.find_first_of("._");
}

} // namespace detail

/// The toolkit a tool name belongs to, in either spelling: `StoreApi` for `StoreApi.GetFile`
/// and `StoreApi_GetFile`. Empty for a name without a '.' or '_', for a meta-tool
/// (meta_tool_prefix) and for a name that starts with its separator (`_GetFile`).
constexpr std::string_view toolkit_of(std::string_view tool_name)
{
    auto const end = detail::toolkit_end(tool_name);
    return end == std::string_view::npos ? std::string_view() : tool_name.substr(0, end);
}

/// The tool's own part of a tool name: `GetFile` for `StoreApi.GetFile` and
/// `StoreApi_GetFile`; the whole name when toolkit_of finds no separator (a meta-tool, a bare
/// `GetFile`).
constexpr std::string_view tool_part_of(std::string_view tool_name)
{
    auto const end = detail::toolkit_end(tool_name);
    return end == std::string_view::npos ? tool_name : tool_name.substr(end + 1);
}

} // namespace toolgate::common
