// Wiring of the catalogue, credentials, base-URL overrides and the outbound client.
#include "app/catalogue_service.hpp"

#include "app/state_store.hpp"
#include "common/masking.hpp"
#include "credentials/credential_hub.hpp"
#include "discovery/discovery.hpp"
#include "toolkits/base_url.hpp"
#include "toolkits/catalogue.hpp"
#include "toolkits/catalogue_provider.hpp"
#include "toolkits/credentials.hpp"
#include "toolkits/http_executor.hpp"
#include "toolkits/listing.hpp"
#include "toolkits/oauth_providers.hpp"
#include "toolkits/selection.hpp"
#include "toolkits/upstream_pacer.hpp"
#include "transport/https_client.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <set>
#include <stdexcept>

namespace toolgate::app {
namespace {

void print(std::string const& text)
{
    // One-shot commands, not the protocol: stdout is the user's terminal or pipe here.
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
}

toolkits::base_url_overrides read_overrides(config const& cfg)
{
    std::vector<std::string_view> names;
    for (auto const* kit : toolkits::all_toolkits()) {
        names.push_back(kit->name);
    }
    toolkits::base_url_overrides overrides;
    for (auto const* kit : toolkits::all_toolkits()) {
        auto const variable = toolkits::base_url_variable(kit->name);
        if (char const* value = std::getenv(variable.c_str()); value && *value) {
            auto parsed = toolkits::make_base_url_override(kit->name, value);
            if (!parsed) {
                throw std::invalid_argument(
                    fmt::format("{}: {}", variable, parsed.error().message));
            }
            overrides.set(std::move(*parsed));
        }
    }
    for (auto const& flag : cfg.upstream.base_urls) {
        auto parsed = toolkits::parse_base_url_override(flag, names);
        if (!parsed) {
            throw std::invalid_argument(fmt::format("--base-url: {}", parsed.error().message));
        }
        overrides.set(std::move(*parsed));
    }
    // Security review 15: a platform reached over plain http off this machine sees the
    // credentials in clear; that takes an explicit flag.
    for (auto const* kit : toolkits::all_toolkits()) {
        auto const url = overrides.find(kit->name);
        if (!url || !toolkits::is_insecure_remote_url(*url)) {
            continue;
        }
        if (!cfg.upstream.allow_insecure) {
            throw std::invalid_argument(fmt::format(
                "base URL override for {}: plain http:// to a host that is not loopback sends "
                "its credentials unencrypted; use https://, or pass --allow-insecure-upstream",
                kit->name));
        }
        spdlog::warn("{} calls go over plain http:// (--allow-insecure-upstream): credentials "
                     "travel unencrypted",
            kit->name);
    }
    return overrides;
}

/// VECTORDB_SERVER_URL (a secret URL) over plain http off loopback: its calls are refused
/// unless --allow-insecure-upstream; say so at start-up, naming the variable only.
void warn_insecure_secret_urls(config const& cfg, toolkits::credential_source const& credentials)
{
    for (auto const* kit : toolkits::all_toolkits()) {
        for (auto const& rule : kit->transmission) {
            if (rule.in != "url" || rule.name != "base") {
                continue;
            }
            auto value = credentials.find(rule.secret);
            if (!value || !toolkits::is_insecure_remote_url(*value)) {
                continue;
            }
            if (cfg.upstream.allow_insecure) {
                spdlog::warn("{} is a plain http:// URL (--allow-insecure-upstream): {} "
                             "credentials travel unencrypted",
                    rule.secret, kit->name);
            } else {
                spdlog::warn("{} is a plain http:// URL of a host that is not loopback: {} calls "
                             "are refused until it uses https:// (or --allow-insecure-upstream)",
                    rule.secret, kit->name);
            }
        }
    }
}

/// A credential shorter than common::min_masked_length is refused at each call that needs it
/// (toolkits/auth.cpp, security review 3 item 19): say so at start-up, by variable name only.
void warn_short_secrets(toolkits::credential_source const& credentials)
{
    for (auto const* kit : toolkits::all_toolkits()) {
        for (auto const& rule : kit->transmission) {
            auto value = rule.in == "url" ? std::nullopt : credentials.find(rule.secret);
            if (value && value->size() < common::min_masked_length) {
                spdlog::warn("{} is shorter than {} characters, too short to be a real "
                             "credential: {} calls that need it are refused until it is set "
                             "right",
                    rule.secret, common::min_masked_length, kit->name);
            }
        }
    }
}

/// A sign-in that cannot be renewed (its client id is not set) works until its access token
/// expires: say so at start rather than at the first failing call.
void warn_unrenewable(credentials::credential_hub const& hub)
{
    auto const secrets = hub.server_secrets();
    for (auto const& [toolkit, entry] : hub.tokens()->snapshot()) {
        auto const* provider = toolkits::find_oauth_provider(toolkit);
        if (provider != nullptr && !secrets->find(provider->client_id_variable)) {
            spdlog::warn("{} is signed in, but {} is not set: its access token cannot be renewed "
                         "when it expires (set it in the environment or the secrets file)",
                toolkit, provider->client_id_variable);
        }
    }
}

/// "N toolkits, M tools; secrets found: A, B; not set: C" (names only, never values). An
/// OAuth access token the token store holds counts as found ("(signed in)").
std::string summarise(toolkits::catalogue_provider const& provider,
    toolkits::credential_source const& credentials, credentials::token_entries const& signed_in)
{
    std::set<std::string_view> kits;
    std::set<std::string_view> wanted;
    for (auto const& tool : provider.tools()) {
        auto ref = provider.spec_of(tool);
        if (!ref) {
            continue;
        }
        kits.insert(ref->toolkit->name);
        for (auto s : ref->toolkit->secrets) {
            wanted.insert(s);
        }
        for (auto s : ref->tool->secrets) {
            wanted.insert(s);
        }
    }
    std::vector<std::string_view> found;
    std::vector<std::string_view> missing;
    std::vector<std::string> from_store;
    for (auto s : wanted) {
        if (credentials.find(s)) {
            found.push_back(s);
            continue;
        }
        bool stored = false;
        for (auto const& p : toolkits::oauth_providers()) {
            stored = stored || (p.access_variable == s && signed_in.contains(p.toolkit));
        }
        if (stored) {
            from_store.push_back(std::string(s) + " (signed in)");
        } else {
            missing.push_back(s);
        }
    }
    for (auto const& s : from_store) {
        found.push_back(s);
    }
    return fmt::format("{} toolkits, {} tools; secrets found: {}; not set: {}", kits.size(),
        provider.tools().size(), found.empty() ? "none" : fmt::format("{}", fmt::join(found, ", ")),
        missing.empty() ? "none" : fmt::format("{}", fmt::join(missing, ", ")));
}

/// For the instructions: each served toolkit's secrets, by name ("StoreApi needs
/// STORE_ACCESS_TOKEN; ...").
std::string credentials_note(toolkits::catalogue_provider const& provider)
{
    std::set<std::string_view> kits;
    for (auto const& tool : provider.tools()) {
        if (auto ref = provider.spec_of(tool)) {
            kits.insert(ref->toolkit->name);
        }
    }
    std::string out = "Credentials are set where toolgate runs, never passed as arguments:";
    bool first = true;
    for (auto name : kits) {
        auto const* kit = toolkits::find_toolkit(name);
        if (kit == nullptr || kit->secrets.empty()) {
            continue;
        }
        out += fmt::format("{} {} needs {}", first ? "" : ";", name, fmt::join(kit->secrets, ", "));
        first = false;
    }
    out += ". A call whose secret is missing says which one.";
    return out;
}

} // namespace

service make_catalogue_service(config const& cfg, boost::asio::io_context& ioc)
{
    auto const& cmd = cfg.command;
    auto const sel = toolkits::make_selection(cfg.catalogue.toolkits, cfg.catalogue.tools);
    if (cmd.list_toolkits) {
        print(cmd.list_json ? toolkits::list_toolkits_json() : toolkits::list_toolkits_text());
        return {};
    }
    if (cmd.list_tools && cfg.views.mode == mcp::tool_mode::discovery && cmd.list_json) {
        // Falls through: the listing a discovery-mode client gets is printed by run_main once
        // the protocol objects exist.
    } else if (cmd.list_tools) {
        std::vector<std::string> only;
        if (!cmd.list_toolkit.empty()) {
            only.push_back(cmd.list_toolkit);
        }
        auto const listed
            = only.empty() ? sel : toolkits::make_selection(only, cfg.catalogue.tools);
        print(
            cmd.list_json ? toolkits::list_tools_json(listed) : toolkits::list_tools_text(listed));
        return {};
    }
    auto client = std::make_shared<transport::https_client>(ioc, https_options_of(cfg.upstream));
    auto settings = cfg.credentials;
    settings.allow_insecure = cfg.upstream.allow_insecure;
    // Half the call's time at most: the call still needs the other half for the platform.
    settings.lock_wait = std::min<std::chrono::milliseconds>(std::chrono::seconds(10),
        std::chrono::duration_cast<std::chrono::milliseconds>(cfg.upstream.call_timeout) / 2);
    settings.keys = store_keys_of(cfg);
    auto store = make_state_store(cfg, ioc);
    settings.store = store;
    auto hub = std::make_shared<credentials::credential_hub>(std::move(settings), *client);
    auto credentials = hub->server_secrets();
    warn_insecure_secret_urls(cfg, *credentials);
    warn_short_secrets(*credentials);
    warn_unrenewable(*hub);
    auto pacer = std::make_shared<toolkits::upstream_pacer>(toolkits::read_rates(cfg.pacing));
    toolkits::execution_options execution;
    execution.url_secrets.allow_insecure_http = cfg.upstream.allow_insecure;
    execution.url_secrets.client_hosts = cfg.upstream.client_host_allow;
    execution.url_secrets.client_private_addresses = cfg.upstream.client_host_allow_private;
    execution.pacer = pacer.get();
    execution.call_timeout = cfg.upstream.call_timeout;
    // Answers over the budget are cut from their text, not from a parsed value: the shaper
    // leaves them unparsed (toolkits/result_limits.hpp parses what a call's own budget allows).
    toolkits::shaping_options shaping;
    if (auto const budget = cfg.results.max_result_tokens * toolkits::bytes_per_token;
        budget != 0) {
        shaping.structured_limit = std::min<std::size_t>(shaping.structured_limit, budget);
    }
    auto executor = std::make_shared<toolkits::http_executor>(
        *client, *credentials, read_overrides(cfg), shaping, execution, hub->tokens());
    auto provider = std::make_unique<toolkits::catalogue_provider>(sel, *executor, cfg.results);
    service svc;
    svc.summary = summarise(*provider, *credentials, hub->tokens()->snapshot());
    svc.search_texts
        = [catalogue = provider.get()] { return discovery::search_entries(*catalogue); };
    svc.credentials_note = credentials_note(*provider);
    svc.provider = std::move(provider);
    svc.upstream = client.get();
    svc.pacer = pacer.get();
    svc.credentials = hub;
    svc.store = std::move(store);
    svc.owned = { client, hub, pacer, executor }; // the hub holds the server's secrets
    return svc;
}

} // namespace toolgate::app
