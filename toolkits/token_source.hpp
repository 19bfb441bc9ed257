// OAuth access tokens that can renew themselves (the OAuth toolkits' credential beyond a fixed
// value), and the credentials one call runs with. The server implements token_source over its
// token store; toolkits/ only asks it for a token.
#pragma once

#include "toolkits/credentials.hpp"

#include <boost/asio/awaitable.hpp>

#include <memory>
#include <string>
#include <string_view>

namespace toolgate::toolkits {

/// What a token source answers for a toolkit.
struct token_answer {
    enum class kind {
        none, ///< the toolkit is not signed in: its access variable is simply not set
        token, ///< `text` is a usable access token
        failed, ///< `text` is a tool error for the caller (what failed, what to do)
    };
    kind state = kind::none;
    std::string text;
    /// `failed` because the sign-in is no longer valid (the authorization server refused to
    /// renew it for good): a new sign-in would help, where one can be offered.
    bool sign_in_again = false;
};

class token_source {
public:
    virtual ~token_source() = default;
    /// A usable access token for `toolkit`, renewed first when it is about to expire.
    /// `refused`: a token the platform has just answered 401 to; a new one is obtained unless
    /// the store already holds a different one. Safe to call from several calls at once:
    /// concurrent callers share one renewal. Never throws for network or platform failures.
    virtual boost::asio::awaitable<token_answer> access_token(
        std::string toolkit, std::string refused)
        = 0;
    /// Whether a token for `toolkit` is at hand now, as far as this process knows without
    /// reading anything (the discovery tools and the sign-in step ask it).
    virtual bool has_token(std::string_view /*toolkit*/) const { return false; }
};

/// The credentials one call uses: the secrets its request may use, and the token source
/// (null when this caller may not use the server's OAuth sign-ins).
struct call_credentials {
    std::shared_ptr<credential_source const> secrets;
    std::shared_ptr<token_source> tokens;
};

} // namespace toolgate::toolkits
