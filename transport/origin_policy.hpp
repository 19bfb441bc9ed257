// Browser-origin and Host checks against DNS rebinding (docs/protocol-rules.md H26, H27).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace toolgate::transport {

class origin_policy {
public:
    /// Loopback origins (http/https on a host common::is_loopback_host accepts, any port) are
    /// always allowed, plus `extra` (exact `scheme://host[:port]` strings).
    explicit origin_policy(std::vector<std::string> extra = {})
        : extra_(std::move(extra))
    {
    }

    /// A request without Origin comes from a non-browser client and passes.
    bool allows_origin(std::string const* origin) const;
    /// With a loopback bind, Host must name a loopback host (common::is_loopback_host; any
    /// port, no userinfo).
    static bool is_loopback_host(std::string_view host_header);

private:
    std::vector<std::string> extra_;
};

} // namespace toolgate::transport
