// Tokens encrypted at rest (in Redis and in the token file): AES-256-GCM with the operator's
// key, each value bound to where it belongs (its principal and toolkit, as associated data) so
// a value copied to another principal's place does not open. A second key opens what the
// previous one sealed (rotation); everything written is sealed with the current one.
#pragma once

#include "common/result.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace toolgate::state {

struct store_options;

using store_key = std::array<std::uint8_t, 32>;

struct store_keys {
    store_key current {};
    std::optional<store_key> previous; ///< still opens what it sealed; never seals
};

/// The keys from `--store-key-file` (mode 0600 or stricter: one line of 64 hex characters,
/// optionally a second with the previous key), else from `env_key` (TOOLGATE_STORE_KEY) and
/// `env_previous` (TOOLGATE_STORE_KEY_PREVIOUS); nullopt when none is given. A problem names
/// the file or variable and what is wrong, never a key.
common::checked<std::optional<store_keys>> load_store_keys(
    store_options const& options, char const* env_key, char const* env_previous);

/// Parses 64 hex characters (surrounding white space ignored).
std::optional<store_key> parse_store_key(std::string_view text);

/// `tg1:` + base64(key id (4 bytes) + nonce (12) + ciphertext + tag (16)).
std::string seal(store_keys const& keys, std::string_view plain, std::string_view context);
/// The plain text, or a problem: sealed with a key we do not have, altered, or bound to
/// another context.
common::checked<std::string> unseal(
    store_keys const& keys, std::string_view sealed, std::string_view context);
/// Whether `text` is a sealed value (else a plain one written without a key).
bool is_sealed(std::string_view text);

} // namespace toolgate::state
