// The protocol objects of this process: mcp::protocol_stack built from the configuration (tool
// modes, names, pages) and the service (its tools and their search texts).
#pragma once

#include "app/app.hpp"
#include "app/config.hpp"
#include "mcp/protocol_stack.hpp"

namespace toolgate::app {

/// The identity this server gives (name, version).
protocol::server_identity server_identity_of();

class served_protocol final : public mcp::protocol_stack {
public:
    /// `svc.provider` must outlive this object.
    served_protocol(config const& cfg, service& svc);
};

} // namespace toolgate::app
