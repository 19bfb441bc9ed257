// Self-verifying legacy session ids: `<payload>.<mac>`, where the payload carries the
// negotiated version, the issue time and 128 random bits, and the MAC is HMAC-SHA256 under a
// key the replicas share. Any replica can check an id without another's memory.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace toolgate::transport {

struct session_claims {
    std::string version;
    std::chrono::system_clock::time_point issued;
};

class session_signer {
public:
    /// `key` empty: a random key (ids then verify only on this process).
    explicit session_signer(std::string key);

    /// `binding` (the authenticated principal, or empty) enters the MAC but not the id, so
    /// the id verifies only for the same principal (docs/protocol-rules.md H16).
    std::string issue(std::string_view version,
        std::chrono::system_clock::time_point now = std::chrono::system_clock::now(),
        std::string_view binding = {}) const;
    /// The claims of an id this key signed for `binding`, or nullopt for anything else
    /// (tampered, foreign, another principal's, malformed). Visible ASCII only, as MCP
    /// requires of session ids.
    std::optional<session_claims> verify(std::string_view id, std::string_view binding = {}) const;
    bool has_random_key() const { return random_key_; }

private:
    std::string key_;
    bool random_key_ = false;
};

} // namespace toolgate::transport
