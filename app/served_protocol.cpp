// The protocol objects from the configuration and the service (see served_protocol.hpp).
#include "app/served_protocol.hpp"

namespace toolgate::app {
namespace {

discovery::search_texts texts_of(service const& svc)
{
    if (svc.search_texts) {
        return svc.search_texts;
    }
    return [provider = svc.provider.get()] { return discovery::search_entries(provider->tools()); };
}

mcp::view_settings settings_of(config const& cfg, service const& svc)
{
    auto s = cfg.views;
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

served_protocol::served_protocol(config const& cfg, service& svc)
    : mcp::protocol_stack(
        *svc.provider, texts_of(svc), settings_of(cfg, svc), server_identity_of(), cfg.results)
{
}

} // namespace toolgate::app
