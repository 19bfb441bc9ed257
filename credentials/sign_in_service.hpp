// Sign-in from the conversation (README "Connecting your accounts"): a call that needs an
// OAuth toolkit's sign-in its caller lacks gets a link to toolgate's own page (never the
// platform's). GET shows whose account is connected to which client, with one button; its
// POST redirects to the platform's authorization endpoint (code + PKCE S256 + state); the
// platform returns to the callback, which exchanges the code and stores the tokens for the
// principal that asked. The link's state is sealed, single-use and short-lived
// (sign_in_link.hpp). Served on the MCP port over HTTP, on a loopback listener over stdio
// (sign_in_loopback.hpp).
#pragma once

#include "credentials/sign_in_link.hpp"
#include "credentials/sign_in_pages.hpp"
#include "credentials/token_refresher.hpp"
#include "toolkits/credentials.hpp"
#include "transport/http_types.hpp"

#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toolgate::credentials {

/// Where the pages are: the base URL browsers reach toolgate at (`--public-url`); nullopt
/// while there is none. Cheap and without effects: asked on every page request.
using base_url_source = std::function<std::optional<std::string>()>;
/// Makes the pages reachable before a link is handed out (stdio starts its listener); false
/// when it cannot. Empty: always reachable.
using link_preparer = std::function<bool()>;

/// A sign-in that completed: its tokens are stored.
struct completed_sign_in {
    std::string principal;
    std::string toolkit;
    std::string elicitation_id; ///< "" when the link was not made for a 2025 elicitation
};

class sign_in_service {
public:
    /// `tokens` stores the sign-ins and holds each platform's OAuth client; `server_secrets`
    /// gives the apps' client ids and secrets; `callback_path`: "/oauth/callback" over HTTP,
    /// "/callback" on stdio's loopback listener (what `toolgate auth login` registers).
    sign_in_service(std::unique_ptr<sign_in_links> links, std::shared_ptr<token_refresher> tokens,
        std::shared_ptr<toolkits::credential_source const> server_secrets, base_url_source base,
        std::string callback_path, link_preparer prepare = {});

    /// Whether a sign-in to `toolkit` can be offered: an OAuth toolkit whose app's client id
    /// (and secret, where the platform needs one) the server holds.
    bool offers(std::string_view toolkit) const;

    struct link {
        std::string url; ///< the page to open
        std::string elicitation_id;
        std::chrono::seconds lifetime;
    };
    /// A new link for `principal` to sign in to `toolkit`; nullopt when none can be offered
    /// (offers() false, or no base URL).
    std::optional<link> start(
        std::string const& principal, std::string const& toolkit, std::string const& client_name);

    /// Whether `path` is the link's or the callback's (with or without the base URL's path).
    bool is_own(std::string_view path) const;
    /// Whether a browser's `Origin` is the base URL's own (the consent form posting back).
    bool is_own_origin(std::string const* origin) const;
    /// Answers a browser's request for one of our paths (is_own). Never throws for what a
    /// browser sends; nothing is logged that holds a state, a code or a token.
    boost::asio::awaitable<web_page> serve(transport::http_request request);

    /// Called (on the callback's thread) after each completed sign-in. Set before serving.
    void on_completed(std::function<void(completed_sign_in const&)> listener);
    /// Whether `principal` has a usable sign-in for `toolkit` now (this process's view).
    bool has_sign_in(std::string_view principal, std::string_view toolkit) const;
    token_refresher& tokens() const { return *tokens_; }
    std::chrono::seconds link_lifetime() const { return links_->lifetime(); }

private:
    boost::asio::awaitable<web_page> consent_or_redirect(transport::http_request const& request);
    boost::asio::awaitable<web_page> callback(transport::http_request const& request);
    std::string redirect_uri(std::string const& base) const;

    std::unique_ptr<sign_in_links> links_;
    std::shared_ptr<token_refresher> tokens_;
    std::shared_ptr<toolkits::credential_source const> server_secrets_;
    base_url_source base_;
    std::string callback_path_;
    link_preparer prepare_;
    std::vector<std::function<void(completed_sign_in const&)>> listeners_;
};

} // namespace toolgate::credentials
