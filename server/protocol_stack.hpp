// The protocol objects both transports serve through, built once from the configuration and
// the service: the discovery meta-tools over the service's tools, the views (tool modes and
// per-connection choices), the name index and the dispatcher.
#pragma once

#include "protocol/dispatcher.hpp"
#include "protocol/tool_index.hpp"
#include "server/app.hpp"
#include "server/config.hpp"
#include "server/tool_views.hpp"
#include "toolkits/discovery.hpp"

namespace toolgate::server {

class protocol_stack {
public:
    /// `svc.provider` must outlive this object.
    protocol_stack(config const& cfg, service& svc);

    /// What the router calls: the service's tools and the meta-tools.
    toolkits::discovery_provider& provider() { return discovery_; }
    tool_views& views() { return views_; }
    protocol::dispatcher const& dispatcher() const { return dispatcher_; }

private:
    toolkits::discovery_provider discovery_;
    tool_views views_;
    protocol::tool_index index_;
    protocol::dispatcher dispatcher_;
};

/// The identity this server gives (name, version).
protocol::server_identity server_identity_of();

} // namespace toolgate::server
