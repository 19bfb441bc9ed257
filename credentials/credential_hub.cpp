// Per-request credential layering and the reloadable secrets (see credential_hub.hpp).
#include "credentials/credential_hub.hpp"

#include "common/ascii.hpp"
#include "credentials/shared_token_store.hpp"
#include "toolkits/catalogue.hpp"
#include "toolkits/oauth_providers.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <stdexcept>
#include <vector>

namespace toolgate::credentials {
namespace {

using toolkits::credential_source;
using toolkits::fixed_credentials;

std::string const secrets_what = "--secrets-file";
std::string const credentials_what = "--credentials-file";

std::int64_t system_now()
{
    return std::chrono::duration_cast<std::chrono::seconds>(
        std::chrono::system_clock::now().time_since_epoch())
        .count();
}

/// Variable names a request header may set: upper case, digits and '_'.
std::string variable_of_header(std::string_view name)
{
    std::string out;
    for (char c : name) {
        if (c >= 'a' && c <= 'z') {
            out += common::to_upper_ascii(c);
        } else if ((c >= '0' && c <= '9') || c == '_' || c == '-') {
            out += c == '-' ? '_' : c;
        } else {
            return {};
        }
    }
    return out;
}

} // namespace

/// The files' contents at one moment; replaced whole by reload.
struct credential_hub::snapshot {
    std::shared_ptr<fixed_credentials const> file; ///< --secrets-file (empty when none)
    secret_map file_values;
    std::map<std::string, std::shared_ptr<fixed_credentials const>, std::less<>> principals;
    principal_secrets principal_values;
};

namespace {

/// The server's own secrets: the secrets file (it can be rotated with SIGHUP; the environment
/// cannot), then the environment.
class server_source final : public credential_source {
public:
    using getter = std::function<std::shared_ptr<fixed_credentials const>()>;
    server_source(getter file, bool has_file)
        : file_(std::move(file))
        , has_file_(has_file)
    {
    }
    std::optional<std::string> find(std::string_view variable) const override
    {
        if (auto file = file_()) {
            if (auto value = file->find(variable)) {
                return value;
            }
        }
        return environment_.find(variable);
    }
    std::string missing_hint(bool plural) const override
    {
        if (!has_file_) {
            return credential_source::missing_hint(plural);
        }
        return plural ? "set them in the secrets file (then send toolgate SIGHUP) or the "
                        "environment"
                      : "set it in the secrets file (then send toolgate SIGHUP) or the "
                        "environment";
    }

private:
    getter file_;
    bool has_file_;
    toolkits::environment_credentials environment_;
};

void warn_unknown(secret_map const& values, std::set<std::string, std::less<>> const& known,
    std::string_view where)
{
    std::vector<std::string_view> unknown;
    for (auto const& [name, value] : values) {
        if (!known.contains(name)) {
            unknown.push_back(name);
        }
    }
    if (!unknown.empty()) {
        spdlog::warn("{}: no toolkit uses {} (a typo?)", where, fmt::join(unknown, ", "));
    }
}

} // namespace

credential_hub::credential_hub(
    credential_settings settings, transport::outbound_client& client, oauth_client::clock now)
    : settings_(std::move(settings))
{
    for (auto const* kit : toolkits::all_toolkits()) {
        known_variables_.insert(kit->secrets.begin(), kit->secrets.end());
    }
    auto known_in_files = known_variables_;
    for (auto const& p : toolkits::oauth_providers()) {
        known_in_files.emplace(p.client_id_variable);
        known_in_files.emplace(p.client_secret_variable);
    }
    auto snap = std::make_shared<snapshot>();
    if (!settings_.secrets_file.empty()) {
        snap->file_values = parse_secrets(read_private_file(settings_.secrets_file, secrets_what),
            secrets_what + " " + settings_.secrets_file);
        warn_unknown(snap->file_values, known_in_files, secrets_what);
    }
    snap->file = std::make_shared<fixed_credentials const>(snap->file_values);
    if (!settings_.credentials_file.empty()) {
        snap->principal_values = parse_principal_secrets(
            read_private_file(settings_.credentials_file, credentials_what),
            credentials_what + " " + settings_.credentials_file);
        for (auto const& [principal, values] : snap->principal_values) {
            warn_unknown(
                values, known_variables_, fmt::format("{} [{}]", credentials_what, principal));
            snap->principals.emplace(principal, std::make_shared<fixed_credentials const>(values));
        }
    }
    snapshot_ = std::move(snap);
    server_secrets_ = std::make_shared<server_source>(
        [this] { return current()->file; }, !settings_.secrets_file.empty());
    auto secrets = server_secrets_;
    auto clock = now ? std::move(now) : oauth_client::clock(system_now);
    if (settings_.store) {
        if (!settings_.keys) {
            throw std::invalid_argument(
                "--state-store keeps platform tokens encrypted: set TOOLGATE_STORE_KEY or "
                "--store-key-file to a key of 64 hex characters (`openssl rand -hex 32`)");
        }
        tokens_ = std::make_shared<token_refresher>(
            client, std::make_shared<shared_token_store>(settings_.store, *settings_.keys),
            [secrets] { return secrets; }, std::move(clock), settings_.allow_insecure,
            settings_.lock_wait);
        return;
    }
    auto path = settings_.token_store.empty() ? token_file::default_path() : settings_.token_store;
    tokens_ = std::make_shared<token_refresher>(
        client, token_file(std::move(path), settings_.keys), [secrets] { return secrets; },
        std::move(clock), settings_.allow_insecure, settings_.lock_wait);
    if (!settings_.keys && !tokens_->snapshot().empty()) {
        spdlog::warn("{}: tokens are stored unencrypted; set TOOLGATE_STORE_KEY or "
                     "--store-key-file to encrypt them (they are sealed at the next write)",
            tokens_->file().path());
    }
}

std::shared_ptr<credential_hub::snapshot const> credential_hub::current() const
{
    std::lock_guard lock(mutex_);
    return snapshot_;
}

std::shared_ptr<credential_source const> credential_hub::server_secrets() const
{
    return server_secrets_;
}

bool credential_hub::multi_user() const
{
    return !settings_.credentials_file.empty() || settings_.per_request;
}

std::string credential_hub::per_client_hint() const
{
    std::vector<std::string> ways;
    if (!settings_.credentials_file.empty()) {
        ways.emplace_back("add it to this client's section of the credentials file");
    }
    if (settings_.per_request) {
        ways.emplace_back("send it in a Toolgate-Secret-<VARIABLE> header");
    }
    if (settings_.shared) {
        ways.emplace_back("set it on the server");
    }
    std::string out;
    for (std::size_t i = 0; i < ways.size(); ++i) {
        out += i == 0 ? "" : (i + 1 == ways.size() ? ", or " : ", ");
        out += ways[i];
    }
    return out.empty() ? std::string("ask the server's operator for credentials") : out;
}

common::checked<std::shared_ptr<toolkits::call_credentials const>> credential_hub::for_request(
    std::string const& principal, transport::header_list const& headers) const
{
    using common::problem_of;
    fixed_credentials::map from_headers;
    for (auto const& [name, value] : headers) {
        if (!name.starts_with(secret_header_prefix)) {
            continue;
        }
        if (!settings_.per_request) {
            return problem_of("Toolgate-Secret-* headers are not accepted: this server was not "
                              "started with --per-request-credentials (which needs client "
                              "authentication); nothing was used or stored");
        }
        auto const variable = variable_of_header(name.substr(secret_header_prefix.size()));
        if (variable.empty() || !known_variables_.contains(variable)) {
            // The name is the client's: say what is wrong without repeating more than a
            // known variable name.
            return problem_of("a Toolgate-Secret-* header names no variable a toolkit uses "
                              "(e.g. Toolgate-Secret-KANBAN_API_KEY)");
        }
        if (value.empty()) {
            return problem_of(fmt::format("the Toolgate-Secret-{} header is empty", variable));
        }
        if (!from_headers.emplace(variable, value).second) {
            return problem_of(
                fmt::format("the Toolgate-Secret-{} header is given twice", variable));
        }
    }
    if (!multi_user()) {
        if (principal.empty()) {
            return nullptr; // the server's own, as for every call
        }
        // Client authentication without per-client secrets: the server's secrets, and this
        // client's own sign-ins before the server's (a token is never another client's).
        auto creds = std::make_shared<toolkits::call_credentials>();
        creds->secrets = server_secrets_;
        creds->tokens = std::make_shared<principal_tokens>(tokens_, principal, true);
        return std::shared_ptr<toolkits::call_credentials const>(std::move(creds));
    }
    auto const snap = current();
    std::vector<std::shared_ptr<credential_source const>> layers;
    if (!from_headers.empty()) {
        layers.push_back(std::make_shared<fixed_credentials const>(std::move(from_headers)));
    }
    if (auto it = snap->principals.find(principal); it != snap->principals.end()) {
        layers.push_back(it->second);
    }
    auto creds = std::make_shared<toolkits::call_credentials>();
    auto const client_layers = layers.size(); // the request's and the principal's own
    if (settings_.shared) {
        layers.push_back(server_secrets_);
    }
    // The client's own sign-ins, then the server's only when it shares them.
    creds->tokens = std::make_shared<principal_tokens>(tokens_, principal, settings_.shared);
    creds->secrets = std::make_shared<toolkits::layered_credentials const>(
        std::move(layers), per_client_hint(), client_layers);
    return std::shared_ptr<toolkits::call_credentials const>(std::move(creds));
}

std::string credential_hub::reload()
{
    std::vector<std::string> parts;
    auto fresh = std::make_shared<snapshot>(*current());
    if (!settings_.secrets_file.empty()) {
        try {
            auto values = parse_secrets(read_private_file(settings_.secrets_file, secrets_what),
                secrets_what + " " + settings_.secrets_file);
            auto changes = describe_changes(fresh->file_values, values);
            parts.push_back("secrets file: " + (changes.empty() ? "unchanged" : changes));
            fresh->file_values = std::move(values);
            fresh->file = std::make_shared<fixed_credentials const>(fresh->file_values);
        } catch (std::exception const& e) {
            parts.push_back(fmt::format("secrets file NOT reloaded ({})", e.what()));
        }
    }
    if (!settings_.credentials_file.empty()) {
        try {
            auto values = parse_principal_secrets(
                read_private_file(settings_.credentials_file, credentials_what),
                credentials_what + " " + settings_.credentials_file);
            std::vector<std::string> changed;
            for (auto const& [principal, secrets] : values) {
                auto it = fresh->principal_values.find(principal);
                if (it == fresh->principal_values.end() || it->second != secrets) {
                    changed.push_back(principal);
                }
            }
            for (auto const& [principal, secrets] : fresh->principal_values) {
                if (!values.contains(principal)) {
                    changed.push_back(principal);
                }
            }
            fresh->principals.clear();
            for (auto const& [principal, secrets] : values) {
                fresh->principals.emplace(
                    principal, std::make_shared<fixed_credentials const>(secrets));
            }
            parts.push_back(fmt::format("credentials file: {} client(s){}", values.size(),
                changed.empty() ? std::string(", unchanged")
                                : fmt::format(", changed for {}", fmt::join(changed, ", "))));
            fresh->principal_values = std::move(values);
        } catch (std::exception const& e) {
            parts.push_back(fmt::format("credentials file NOT reloaded ({})", e.what()));
        }
    }
    {
        std::lock_guard lock(mutex_);
        snapshot_ = std::move(fresh);
    }
    try {
        parts.push_back("token store: " + tokens_->reload());
    } catch (std::exception const& e) {
        parts.push_back(fmt::format("token store NOT reloaded ({})", e.what()));
    }
    return fmt::format("{}", fmt::join(parts, "; "));
}

std::string credential_hub::origin_of(std::string_view variable) const
{
    if (current()->file->find(variable)) {
        return "the secrets file";
    }
    if (toolkits::environment_credentials().find(variable)) {
        return "the environment";
    }
    return {};
}

} // namespace toolgate::credentials
