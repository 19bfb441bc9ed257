// Who this server says it is, in initialize results, server/discover and result `_meta`.
#pragma once

#include <boost/json/object.hpp>

#include <string>

namespace toolgate::protocol {

struct server_identity {
    std::string name = "toolgate";
    std::string title = "toolgate";
    std::string version;
    std::string instructions;

    /// `{name, version}` (+ title) as published in results.
    boost::json::object info_object() const;
};

/// Adds what every 2026-07-28 result carries: `resultType` and the server's info in `_meta`.
void decorate_modern_result(boost::json::object& result, server_identity const& identity);

} // namespace toolgate::protocol
