// OAuth 2.1 resource-server token checks: JWT access tokens (RS256, ES256) verified with
// OpenSSL 3 against keys from a JWKS document (RFC 7517/7518/7519, RFC 9068 profile).
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toolgate::auth {

/// One verification key from a JWKS: RSA (n, e; 2048 bits or more) or EC P-256 (x, y).
class jwk {
public:
    /// Parses one JWK object (JSON text). Throws std::invalid_argument naming the problem.
    static jwk from_json(std::string_view json_text);

    std::string const& kid() const { return kid_; }
    std::string const& alg() const { return alg_; } ///< "RS256" or "ES256"
    /// Verifies `signature` (JOSE form: RSASSA-PKCS1-v1_5 bytes, or raw r||s for ES256)
    /// over `signing_input`.
    bool verify(std::string_view signing_input, std::string_view signature) const;

    struct key_deleter {
        void operator()(void* key) const;
    };
    jwk(std::string kid, std::string alg, std::shared_ptr<void> key);

private:
    std::string kid_;
    std::string alg_;
    std::shared_ptr<void> key_; ///< EVP_PKEY
};

/// The keys of a JWKS document (`{"keys":[...]}`). Keys with `use` other than "sig" and keys
/// of unsupported types are skipped; a document with no usable key is an error.
class jwks {
public:
    /// Throws std::invalid_argument naming the problem.
    static jwks from_json(std::string_view json_text);
    static jwks from_file(std::string const& path);

    std::vector<jwk> const& keys() const { return keys_; }
    std::size_t skipped() const { return skipped_; }

private:
    std::vector<jwk> keys_;
    std::size_t skipped_ = 0;
};

struct jwt_policy {
    std::string issuer; ///< `iss` must equal this
    std::string audience; ///< `aud` (string or array) must contain this
    std::chrono::seconds leeway { 60 }; ///< clock skew allowed on exp and nbf
};

/// A token that passed the checks.
struct jwt_claims {
    std::string subject; ///< `sub`, else `client_id`, else empty
    std::vector<std::string> scopes; ///< from `scope` (space separated) or `scp` (array)
};

/// Why a token was refused. The text is for logs and the `error_description`; it never holds
/// the token or a claim's value.
struct jwt_error {
    std::string reason;
};

class jwt_validator {
public:
    jwt_validator(jwks keys, jwt_policy policy);

    /// Checks signature, alg, iss, aud, exp, nbf. `now` is injectable for tests.
    std::optional<jwt_claims> validate(std::string_view token, jwt_error& error,
        std::chrono::system_clock::time_point now = std::chrono::system_clock::now()) const;

    jwt_policy const& policy() const { return policy_; }
    void set_audience(std::string audience) { policy_.audience = std::move(audience); }

private:
    jwks keys_;
    jwt_policy policy_;
};

} // namespace toolgate::auth
