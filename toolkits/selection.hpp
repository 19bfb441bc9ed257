// Which toolkits and tools are served: `--toolkits A,B` and `--tools 'StoreApi.Get*'` (globs,
// repeatable; env TOOLGATE_TOOLKITS / TOOLGATE_TOOLS). A selection is a value, so a later
// per-connection selection can key a cache of serialised tools/list answers by it.
#pragma once

#include "toolkits/catalogue.hpp"

#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace toolgate::toolkits {

/// A selection that names an unknown toolkit, or a tool pattern that matches nothing.
class selection_error : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

/// The toolset suffix naming a toolkit's read-only tools: `KanbanApi:read`.
inline constexpr std::string_view read_suffix = ":read";

/// A set of catalogue tools. Default-constructed: every tool of every toolkit.
class selection {
public:
    selection() = default;

    /// Whether `tool` of `toolkit` is served.
    bool includes(toolkit_spec const& toolkit, tool_spec const& tool) const;

    /// The selected tools, in catalogue order (toolkits as specified, tools by name).
    std::vector<tool_ref> tools() const;

    /// A canonical text for the selection ("*" for everything): equal selections give equal
    /// keys, so it can key caches.
    std::string key() const;

    bool read_only() const { return read_only_; }

    friend bool operator==(selection const&, selection const&) = default;

private:
    friend selection make_selection(
        std::span<const std::string>, std::span<const std::string>, bool);
    std::vector<std::string> toolkits_; ///< sorted toolkit names or toolsets; empty: all
    std::vector<std::string> patterns_; ///< sorted `Toolkit.Tool` globs; empty: all tools
    bool read_only_ = false; ///< only tools annotated read-only
};

/// Builds a selection. `toolkits` names toolkits or their toolsets (`KanbanApi` for all of it,
/// `KanbanApi:read` for its read-only tools); `read_only` keeps only read-only tools (the
/// read-only mode). Each entry of `toolkits` and `tools` may hold several comma-separated
/// items (the flags repeat, and TOOLGATE_TOOLKITS / TOOLGATE_TOOLS hold lists). Tool
/// patterns are globs (`*`, `?`) over `Toolkit.Tool`, in either spelling (`StoreApi_Get*`);
/// a pattern without a separator means a whole toolkit. Both lists empty: everything. Both
/// given: tools that satisfy both. Throws selection_error naming an unknown toolkit, a
/// pattern that matches no tool, or a selection that leaves nothing to serve.
selection make_selection(std::span<const std::string> toolkits, std::span<const std::string> tools,
    bool read_only = false);

/// The lists held by TOOLGATE_TOOLKITS and TOOLGATE_TOOLS (empty when unset).
struct selection_lists {
    std::vector<std::string> toolkits;
    std::vector<std::string> tools;
};

/// Glob match with `*` (any run) and `?` (one character), case-sensitive.
bool glob_match(std::string_view pattern, std::string_view text);

} // namespace toolgate::toolkits
