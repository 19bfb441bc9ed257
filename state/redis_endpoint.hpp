// Where the shared Redis is, from `--state-store redis://[user:password@]host[:port][/db]`
// (password from the URL or TOOLGATE_REDIS_PASSWORD), and what a replica may tell about it
// (never the password).
#pragma once

#include "common/result.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace toolgate::state {

struct redis_endpoint {
    std::string host;
    std::uint16_t port = 6379;
    int db = 0;
    std::string user; ///< "" : AUTH with the password only (or no AUTH)
    std::string password; ///< "" : no AUTH

    /// `host:port/db`, for logs and errors: never the user or the password.
    std::string describe() const;
};

/// Parses a `--state-store` URL. `env_password` (TOOLGATE_REDIS_PASSWORD, may be null) is
/// used when the URL holds none. `rediss://` is refused: Debian 12's hiredis (0.14) has no TLS.
common::checked<redis_endpoint> parse_redis_url(std::string_view url, char const* env_password);

} // namespace toolgate::state
