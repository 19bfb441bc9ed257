// The protocol objects both transports serve through, built once at start-up: the discovery
// meta-tools over the served tools, the views (tool modes and per-connection choices), the
// name index and the dispatcher.
#pragma once

#include "discovery/discovery.hpp"
#include "mcp/tool_views.hpp"
#include "protocol/dispatcher.hpp"
#include "protocol/server_identity.hpp"
#include "protocol/tool_index.hpp"

#include <vector>

namespace toolgate::mcp {

class protocol_stack {
public:
    /// `provider` must outlive this object; `texts` gathers the texts of its tools, in order,
    /// for the search meta-tool (on the index's thread); `results` is the budget of the meta-tools'
    /// own answers.
    protocol_stack(toolkits::tool_provider& provider, discovery::search_texts texts,
        view_settings settings, protocol::server_identity const& identity,
        toolkits::result_options results = {});

    /// What the router calls: the served tools and the meta-tools.
    discovery::discovery_provider& provider() { return discovery_; }
    tool_views& views() { return views_; }
    protocol::dispatcher const& dispatcher() const { return dispatcher_; }

private:
    discovery::discovery_provider discovery_;
    tool_views views_;
    protocol::tool_index index_;
    protocol::dispatcher dispatcher_;
};

} // namespace toolgate::mcp
