// Wiring of the protocol objects (see protocol_stack.hpp).
#include "server/protocol_stack.hpp"

namespace toolgate::server {
namespace {

std::vector<toolkits::search_entry> texts_of(service const& svc)
{
    if (!svc.search_texts.empty()) {
        return svc.search_texts;
    }
    return toolkits::search_entries(svc.provider->tools());
}

view_settings settings_of(config const& cfg, service const& svc)
{
    view_settings s;
    s.mode = parse_tool_mode(cfg.tool_mode).value_or(tool_mode::automatic);
    s.max_listed_tools = cfg.max_listed_tools;
    s.pins = cfg.pins;
    s.read_only = cfg.read_only;
    s.naming
        = cfg.tool_names == "dotted" ? protocol::tool_naming::dotted : protocol::tool_naming::wire;
    s.page_size = cfg.page_size;
    s.server_toolkits_note = svc.credentials_note;
    return s;
}

} // namespace

protocol::server_identity server_identity_of()
{
    protocol::server_identity identity;
    identity.version = toolgate_version();
    return identity;
}

protocol_stack::protocol_stack(config const& cfg, service& svc)
    : discovery_(*svc.provider, texts_of(svc))
    , views_(discovery_, settings_of(cfg, svc), server_identity_of())
    , index_(discovery_.tools())
    , dispatcher_(server_identity_of(), views_.default_view(), index_)
{
}

} // namespace toolgate::server
