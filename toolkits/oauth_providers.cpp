// The provider table (see oauth_providers.hpp). Endpoints as the platforms publish them:
// the storage platform signs users in at account.box.com and issues tokens at api.box.com
// (60-minute access tokens, single-use refresh tokens; client credentials for server apps,
// acting for an enterprise or a user). The accounting platform signs in at login.xero.com,
// issues tokens at identity.xero.com (30-minute access tokens, rotating refresh tokens only
// with `offline_access`; client credentials for custom connections) and lists the
// organisations a token reaches at api.xero.com/connections.
#include "toolkits/oauth_providers.hpp"

#include "toolkits/catalogue.hpp"

#include <algorithm>
#include <array>

namespace toolgate::toolkits {
namespace {

constexpr std::string_view ledger_extra_scopes[] = { "offline_access" };

constexpr std::array<oauth_provider, 2> providers = { {
    {
        "StoreApi", "STORE_ACCESS_TOKEN", "STORE_CLIENT_ID", "STORE_CLIENT_SECRET",
        "https://account.box.com/api/oauth2/authorize", "https://api.box.com/oauth2/token", "",
        client_authentication::form, true, true, {}, 3600,
        true, // the storage platform has no public clients
    },
    {
        "LedgerApi", "LEDGER_ACCESS_TOKEN", "LEDGER_CLIENT_ID", "LEDGER_CLIENT_SECRET",
        "https://login.xero.com/identity/connect/authorize",
        "https://identity.xero.com/connect/token", "https://api.xero.com/connections",
        client_authentication::basic, true, false, ledger_extra_scopes, 1800,
        false, // "Auth code with PKCE" apps have no secret
    },
} };

} // namespace

std::span<const oauth_provider> oauth_providers()
{
    return providers;
}

oauth_provider const* find_oauth_provider(std::string_view toolkit)
{
    auto it = std::find_if(providers.begin(), providers.end(),
        [&](oauth_provider const& p) { return p.toolkit == toolkit; });
    return it == providers.end() ? nullptr : &*it;
}

std::string requested_scopes(oauth_provider const& provider)
{
    std::vector<std::string_view> scopes;
    if (auto const* kit = find_toolkit(provider.toolkit)) {
        scopes.assign(kit->scopes.begin(), kit->scopes.end());
    }
    for (auto extra : provider.extra_scopes) {
        if (std::find(scopes.begin(), scopes.end(), extra) == scopes.end()) {
            scopes.push_back(extra);
        }
    }
    std::string out;
    for (auto s : scopes) {
        out += out.empty() ? "" : " ";
        out += s;
    }
    return out;
}

} // namespace toolgate::toolkits
