// Server identity objects and the decoration every 2026-07-28 result carries.
#include "protocol/server_identity.hpp"

#include "protocol/names.hpp"

namespace toolgate::protocol {

boost::json::object server_identity::info_object() const
{
    boost::json::object info;
    info["name"] = name;
    if (!title.empty()) {
        info["title"] = title;
    }
    info["version"] = version;
    return info;
}

void decorate_modern_result(boost::json::object& result, server_identity const& identity)
{
    // MCP 2026-07-28 basic/index: resultType on every result (MUST), serverInfo in _meta (SHOULD).
    result["resultType"] = "complete";
    boost::json::object meta;
    if (auto const* existing = result.if_contains("_meta"); existing && existing->is_object()) {
        meta = existing->get_object();
    }
    meta[names::meta_server_info] = identity.info_object();
    result["_meta"] = std::move(meta);
}

} // namespace toolgate::protocol
