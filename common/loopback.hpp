// Whether a host is this machine's loopback, parsed as an address rather than matched as text:
// the rule of the Origin and Host checks against DNS rebinding (transport/origin_policy.cpp).
#pragma once

#include <string_view>

namespace toolgate::common {

/// True for `localhost` (any letter case), an IPv4 address in 127.0.0.0/8 and the IPv6
/// address ::1 (bracketed or not). A host, not an authority: `localhost:80` is not one, and a
/// name that merely starts with "127." is a name, not an address.
bool is_loopback_host(std::string_view host);

} // namespace toolgate::common
