// What one request sees of the served tools: which listing answers its tools/list, which tools
// it may call, and the instructions it is given. The server builds a view per distinct choice
// (start-up flags, narrowed per connection by query parameters or headers; docs/decisions.md
// "Per-connection selection"); protocol/ only reads it.
#pragma once

#include "protocol/tool_pages.hpp"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace toolgate::protocol {

struct tool_view {
    /// The tools/list answer of this view (the catalogue, or the discovery meta-tools).
    std::shared_ptr<tool_pages const> pages;
    /// By position in the served tools (tool_index::tools()): may a request of this view call
    /// it? Empty: every served tool.
    std::vector<bool> callable;
    /// Why a served tool outside `callable` is refused, for the error ("this connection is
    /// read-only: …"). Empty: such a tool is simply unknown here.
    std::string refusal;
    /// The `instructions` of initialize and server/discover.
    std::string instructions;
    /// How this view's listings and meta-tools spell tool names.
    tool_naming naming = tool_naming::wire;
    /// The view was narrowed per connection: its listings say `cacheScope: private`.
    bool per_client = false;

    bool allows(std::size_t position) const
    {
        return callable.empty() || (position < callable.size() && callable[position]);
    }
};

} // namespace toolgate::protocol
