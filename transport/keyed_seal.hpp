// Short tokens protected with keys derived from one shared secret: HMAC-SHA256 signatures
// (integrity) and AES-256-GCM sealing (integrity and secrecy). Replicas given the same secret
// derive the same keys, so a token one replica issues another can check.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace toolgate::transport {

/// SHA-256 of `data`, 32 raw bytes.
std::string sha256(std::string_view data);
/// HMAC-SHA256 of `data` under `key`, 32 raw bytes.
std::string hmac_sha256(std::string_view key, std::string_view data);
/// Whether `a` and `b` hold the same bytes, in time that does not depend on where they differ.
bool same_bytes(std::string_view a, std::string_view b);

/// A 32-byte key for one `purpose` from `secret` (HMAC-SHA256 of the purpose under the
/// secret), so that one shared secret yields unrelated keys for unrelated tokens.
std::string derive_key(std::string_view secret, std::string_view purpose);
/// derive_key of `shared_secret` (replicas given the same secret get the same key), or, when it
/// is empty, 32 random bytes: a key for this process alone. Random bytes need no derivation,
/// which keeps OpenSSL's set-up (about 6 ms) off the start of a server without a secret.
std::string key_for(std::string const& shared_secret, std::string_view purpose);

/// `plaintext` encrypted and authenticated under `key` (32 bytes) with a random nonce, as
/// base64url(nonce | ciphertext | tag). `context` is authenticated but not stored: the token
/// opens only under the same context.
std::string seal(std::string_view key, std::string_view plaintext, std::string_view context = {});
/// The plaintext of a token seal() made under `key` and `context`; nullopt for anything else
/// (altered, another key, malformed, longer than `max_bytes`).
std::optional<std::string> unseal(std::string_view key, std::string_view token,
    std::string_view context = {}, std::size_t max_bytes = 4096);

} // namespace toolgate::transport
