// The names toolgate gives its keys in the shared store: all under one prefix, so that an
// operator can tell them apart from other users of the same Redis (and count or delete them).
#pragma once

#include "state/ended_ids.hpp"

#include <string>
#include <string_view>

namespace toolgate::state {

inline constexpr std::string_view key_prefix = "toolgate:";

/// An ended session id (by digest: the id itself is never stored).
inline std::string ended_key(id_digest const& digest)
{
    return std::string(key_prefix) + "ended:" + hex_of(digest);
}

} // namespace toolgate::state
