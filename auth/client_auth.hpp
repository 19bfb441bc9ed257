// Client authentication for Streamable HTTP (docs/protocol-rules.md, A…): static bearer tokens and
// OAuth 2.1 resource-server mode (JWT access tokens), the 401/403 challenges and the
// Protected Resource Metadata document (RFC 9728). stdio needs none of this.
#pragma once

#include "auth/jwt_validator.hpp"
#include "transport/http_types.hpp"

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace toolgate::auth {

/// Tokens from a file: one per line, surrounding blanks trimmed, blank lines and lines starting
/// with `#` ignored. A line may name its client first: `alice <token>` (see split_label).
/// Throws std::invalid_argument when the file cannot be read.
std::vector<std::string> read_token_file(std::string const& path);

/// A token entry `label token` split in two (a token alone: empty label). A label names the
/// client as its principal (`static:alice`), e.g. in --credentials-file; it is 1 to 64 of
/// letters, digits, `.`, `_`, `@` and `-`. Throws std::invalid_argument for a bad label.
std::pair<std::string, std::string> split_label(std::string_view entry);

/// Accepted static bearer tokens, held as SHA-256 digests only. Several may be valid at once
/// so they can be rotated (several tokens may share a label).
class static_tokens {
public:
    void add(std::string_view token, std::string label = {});
    /// The principal when `token` is one of ours: "static:<label>", or "static:" and a short
    /// digest prefix for a token without a label. Every stored digest is compared, whichever
    /// matches, so timing tells nothing.
    std::optional<std::string> match(std::string_view token) const;
    std::size_t size() const { return digests_.size(); }

private:
    std::vector<std::array<unsigned char, 32>> digests_;
    std::vector<std::string> labels_; ///< parallel to digests_
};

/// The outcome of checking one request.
struct auth_decision {
    enum class verdict { allowed, missing, invalid, insufficient_scope, bad_request };
    verdict result = verdict::missing;
    std::string principal; ///< who, when allowed (never a token)
    std::string reason; ///< for logs and error_description (never a token or claim value)
    /// The scopes an allowed JWT carries (its client's policy may depend on them); empty for
    /// static tokens.
    std::vector<std::string> scopes = {};
};

struct auth_settings {
    static_tokens tokens;
    std::optional<jwt_validator> jwt;
    std::vector<std::string> required_scopes;
    std::vector<std::string> authorization_servers; ///< for the metadata (OAuth mode)
};

/// What the command line says about client authentication (the flags named beside each).
struct client_auth_options {
    std::string token_file; ///< --auth-token-file
    std::string jwks_file; ///< --oauth-jwks-file: OAuth resource-server mode
    std::string issuer; ///< --oauth-issuer
    std::string audience; ///< --oauth-audience (default: the server's URL)
    std::vector<std::string> authorization_servers; ///< --oauth-authorization-server
    std::string scopes; ///< --oauth-scopes, space separated
    std::chrono::seconds leeway { 60 }; ///< --oauth-leeway
    std::string host; ///< --host: a wildcard bind needs an explicit audience
};

class client_auth {
public:
    /// Builds the checks from the options and TOOLGATE_AUTH_TOKENS; nullptr when no client
    /// authentication is configured. Throws std::invalid_argument on bad configuration
    /// (unreadable file, JWKS without a usable key, OAuth flags missing).
    static std::unique_ptr<client_auth> from_options(client_auth_options const& options);

    explicit client_auth(auth_settings settings);

    /// Reads the token file and the JWKS file again (SIGHUP), so tokens and keys can be
    /// rotated without a restart. Requests already being checked finish with the old
    /// settings. Throws std::invalid_argument, keeping the current settings, when the files
    /// are bad or would leave no authentication at all. Returns a summary for the log.
    std::string reload(client_auth_options const& options);

    bool oauth() const { return current()->jwt.has_value(); }
    std::size_t static_token_count() const { return current()->tokens.size(); }
    /// The canonical resource URI (the token audience). Set once, before serving.
    void set_resource(std::string url);
    std::string const& resource() const { return resource_; }
    /// `<origin>/.well-known/oauth-protected-resource<path of resource>`.
    std::string metadata_url() const;

    /// Checks the request's `Authorization: Bearer` token (A4, A5, A6, A8, A9).
    auth_decision check(transport::http_request const& request) const;

    struct answer {
        unsigned status = 401;
        transport::header_list headers;
        std::string body;
    };
    /// The 400/401/403 answer for a refusal, with its WWW-Authenticate challenge.
    answer refuse(auth_decision const& decision) const;
    /// The metadata answer when `path` is one of its well-known paths (`mcp_path` is the
    /// endpoint's path), else nullopt. Only in OAuth mode.
    std::optional<answer> metadata(std::string_view path, std::string_view mcp_path) const;

private:
    std::string challenge(auth_decision const& decision, auth_settings const& settings) const;
    /// The settings in force; each request uses one snapshot throughout.
    std::shared_ptr<auth_settings const> current() const;

    mutable std::mutex mutex_; ///< guards the settings_ pointer (replaced by reload)
    std::shared_ptr<auth_settings const> settings_;
    std::string resource_; ///< set once before serving
};

/// `http://host:port/path` for a bind address (lower-case host, IPv6 in brackets).
std::string canonical_url(std::string const& host, std::uint16_t port, std::string const& path);

} // namespace toolgate::auth
