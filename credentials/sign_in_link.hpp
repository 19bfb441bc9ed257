// The state in a sign-in link: who asked (principal), for which toolkit, from which client,
// with a nonce, until when, sealed (AES-256-GCM) with a key the replicas share, so that the
// link names no one in clear and cannot be altered. The same value travels as the OAuth
// `state` to the platform and back to the callback, which spends it: a link works once.
#pragma once

#include <boost/system/result.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>

namespace toolgate::credentials {

/// What a link's state says.
struct sign_in_claim {
    std::string principal; ///< whose tokens the sign-in stores ("" the server's own)
    std::string toolkit; ///< e.g. "StoreApi"
    std::string client_name; ///< the MCP client's clientInfo.name, for the page ("" unknown)
    std::string elicitation_id; ///< the 2025-11-25 elicitationId it completes ("" none)
    std::string nonce; ///< 128 random bits, base64url
    std::int64_t expires_at = 0; ///< Unix seconds
};

/// Why a state is refused.
enum class link_fault {
    malformed, ///< not one we sealed, or altered
    expired,
    used, ///< a sign-in with it has completed (or been attempted) already
};

class sign_in_links {
public:
    using clock = std::function<std::int64_t()>; ///< Unix seconds

    /// `key`: 32 bytes (transport::derive_key of the shared secret). `now` defaults to the
    /// system clock.
    explicit sign_in_links(
        std::string key, std::chrono::seconds lifetime = std::chrono::minutes(10), clock now = {});

    /// A sealed state for `claim` (its nonce and expiry are filled in here).
    std::string issue(sign_in_claim claim) const;
    /// The claim of a state this key sealed that has not expired or been spent.
    boost::system::result<sign_in_claim, link_fault> open(std::string_view state) const;
    /// Marks the state's nonce spent; false when it was already (a second callback). Spent
    /// nonces are forgotten once their state expires. This replica's memory only.
    bool spend(sign_in_claim const& claim);
    /// The PKCE code verifier of the sign-in this claim starts (RFC 7636: 43 characters),
    /// derived from the nonce under the key, so the callback finds it again with no memory.
    std::string code_verifier(sign_in_claim const& claim) const;

    std::chrono::seconds lifetime() const { return lifetime_; }

private:
    std::string key_;
    std::chrono::seconds lifetime_;
    clock now_;
    mutable std::mutex mutex_;
    std::map<std::string, std::int64_t> spent_; ///< nonce -> its state's expiry
};

} // namespace toolgate::credentials
