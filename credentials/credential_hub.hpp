// Where every call's platform credentials come from, assembled once per request:
//   Toolgate-Secret-<VARIABLE> headers (--per-request-credentials)
//   -> the client principal's own secrets (--credentials-file)
//   -> the client's own sign-ins from the conversation (per principal, in the token store)
//   -> the server's: --secrets-file, then the environment, then the token store's OAuth
//      sign-ins (for other clients only with --shared-credentials).
// Without client authentication, a credentials file or per-request credentials, every call
// uses the server's, as a single-user server always did. SIGHUP reloads the files.
#pragma once

#include "common/result.hpp"
#include "credentials/secrets_file.hpp"
#include "credentials/token_refresher.hpp"
#include "state/sealing.hpp"
#include "toolkits/token_source.hpp"
#include "transport/outbound.hpp"

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>

namespace toolgate::state {
class redis_client;
}

namespace toolgate::credentials {

struct credential_settings {
    std::string secrets_file; ///< --secrets-file ("" : none)
    std::string credentials_file; ///< --credentials-file ("" : none)
    std::string token_store; ///< --token-store ("" : token_file::default_path())
    bool shared = false; ///< --shared-credentials
    bool per_request = false; ///< --per-request-credentials
    bool allow_insecure = false; ///< --allow-insecure-upstream (OAuth endpoint overrides)
    /// How long a renewal waits for another process's renewal lock (below --call-timeout).
    std::chrono::milliseconds lock_wait { std::chrono::seconds(10) };
    /// The token encryption key (--store-key-file, TOOLGATE_STORE_KEY); none: plain tokens in
    /// the file, and no shared store.
    std::optional<state::store_keys> keys;
    /// The state shared by replicas (--state-store): the server's tokens live there, sealed
    /// with `keys` (required), instead of in the file.
    std::shared_ptr<state::redis_client> store;
};

/// The header prefix of per-request secrets (lower case, as transport/ delivers names).
inline constexpr std::string_view secret_header_prefix = "toolgate-secret-";

class credential_hub {
public:
    /// Loads the files (throws std::invalid_argument on a bad one: unreadable, open to other
    /// users, malformed). `client` sends the token requests and must outlive the hub.
    credential_hub(credential_settings settings, transport::outbound_client& client,
        oauth_client::clock now = {});

    /// The server's own secrets: the secrets file, then the environment. Reads the current
    /// file contents at each lookup, so a reload applies to the next call.
    std::shared_ptr<toolkits::credential_source const> server_secrets() const;
    /// The server's OAuth sign-ins.
    std::shared_ptr<token_refresher> tokens() const { return tokens_; }

    /// Whether callers have credentials of their own (a credentials file or per-request
    /// credentials), which needs client authentication.
    bool multi_user() const;
    credential_settings const& settings() const { return settings_; }

    /// The credentials of one request by `principal` ("" without client authentication)
    /// carrying `headers`: null for the server's own (single-user), else this request's; or
    /// why the request is refused (400; names, never values). Never logs or echoes a header's
    /// value.
    common::checked<std::shared_ptr<toolkits::call_credentials const>> for_request(
        std::string const& principal, transport::header_list const& headers) const;

    /// Rereads the secrets file, the credentials file and the token store (SIGHUP). A bad
    /// file keeps its previous contents. Returns one line for the log: what changed, by
    /// variable, client and toolkit name only.
    std::string reload();

    /// "the secrets file", "the environment" or "" (for `toolgate auth status`).
    std::string origin_of(std::string_view variable) const;

private:
    struct snapshot;
    std::shared_ptr<snapshot const> current() const;
    std::string per_client_hint() const;

    credential_settings settings_;
    std::set<std::string, std::less<>> known_variables_; ///< every toolkit's secrets
    mutable std::mutex mutex_;
    std::shared_ptr<snapshot const> snapshot_;
    std::shared_ptr<toolkits::credential_source const> server_secrets_;
    std::shared_ptr<token_refresher> tokens_;
};

} // namespace toolgate::credentials
