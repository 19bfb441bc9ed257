// The sign-in pages and callback (see sign_in_service.hpp). RFC 6749 §4.1 with PKCE
// (RFC 7636, S256); the MCP 2025-11-25 elicitation chapter's URL-mode requirements: the link
// is toolgate's own, carries no credential or name in clear, and a GET starts nothing.
#include "credentials/sign_in_service.hpp"

#include "common/base64.hpp"
#include "common/random.hpp"
#include "protocol/text.hpp"
#include "toolkits/catalogue.hpp"
#include "toolkits/oauth_providers.hpp"
#include "transport/keyed_seal.hpp"

#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>
#include <fmt/chrono.h>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace toolgate::credentials {
namespace urls = boost::urls;

namespace {

constexpr std::string_view link_path = "/signin";

/// The path part of a base URL ("" for `https://host`), without a trailing slash.
std::string path_of(std::string const& base)
{
    auto parsed = urls::parse_absolute_uri(base);
    if (!parsed) {
        return {};
    }
    std::string path(parsed->encoded_path());
    while (!path.empty() && path.back() == '/') {
        path.pop_back();
    }
    return path;
}

/// `scheme://host[:port]` of a URL.
std::string origin_of(std::string_view url)
{
    auto parsed = urls::parse_absolute_uri(url);
    if (!parsed) {
        return {};
    }
    std::string out(parsed->scheme());
    out += "://";
    out += parsed->encoded_host_and_port();
    return out;
}

std::string query_value(transport::http_request const& request, std::string_view key)
{
    auto parsed = urls::parse_origin_form(request.target);
    if (!parsed) {
        return {};
    }
    auto const params = parsed->params();
    auto it = params.find(key);
    return it == params.end() ? std::string() : std::string((*it).value);
}

/// Why a link or callback state is refused, for the page (400, nothing stored).
web_page refused(link_fault fault)
{
    switch (fault) {
    case link_fault::expired:
        return problem_page(400, "This link has expired",
            "Sign-in links work for a few minutes. Call the tool again from your client for a "
            "new one. Nothing was stored.");
    case link_fault::used:
        return problem_page(400, "This link was used already",
            "A sign-in link works once. If the account is not connected, call the tool again "
            "from your client for a new link. Nothing was stored.");
    case link_fault::malformed:
        break;
    }
    return problem_page(400, "This link is not valid",
        "It was changed, or it does not come from this toolgate. Use the link your client "
        "showed, or call the tool again for a new one. Nothing was stored.");
}

std::string when(std::int64_t unix_seconds)
{
    return fmt::format("{:%H:%M} UTC", fmt::gmtime(static_cast<std::time_t>(unix_seconds)));
}

} // namespace

sign_in_service::sign_in_service(std::unique_ptr<sign_in_links> links,
    std::shared_ptr<token_refresher> tokens,
    std::shared_ptr<toolkits::credential_source const> server_secrets, base_url_source base,
    std::string callback_path, link_preparer prepare)
    : links_(std::move(links))
    , tokens_(std::move(tokens))
    , server_secrets_(std::move(server_secrets))
    , base_(std::move(base))
    , callback_path_(std::move(callback_path))
    , prepare_(std::move(prepare))
{
}

bool sign_in_service::offers(std::string_view toolkit) const
{
    auto const* provider = toolkits::find_oauth_provider(toolkit);
    if (provider == nullptr || !server_secrets_) {
        return false;
    }
    return server_secrets_->find(provider->client_id_variable).has_value()
        && (!provider->secret_required
            || server_secrets_->find(provider->client_secret_variable).has_value());
}

std::optional<sign_in_service::link> sign_in_service::start(
    std::string const& principal, std::string const& toolkit, std::string const& client_name)
{
    if (!offers(toolkit) || (prepare_ && !prepare_())) {
        return std::nullopt;
    }
    auto const base = base_ ? base_() : std::nullopt;
    if (!base) {
        return std::nullopt;
    }
    sign_in_claim claim;
    claim.principal = principal;
    claim.toolkit = toolkit;
    claim.client_name = client_name;
    claim.elicitation_id = common::base64url_encode(common::random_bytes(16));
    link out;
    out.elicitation_id = claim.elicitation_id;
    // The state is base64url: it needs no escaping in a query.
    out.url = *base + std::string(link_path) + "?state=" + links_->issue(std::move(claim));
    out.lifetime = links_->lifetime();
    return out;
}

bool sign_in_service::is_own(std::string_view path) const
{
    auto const prefix = base_ ? path_of(base_().value_or("")) : std::string();
    for (std::string_view own : { link_path, std::string_view(callback_path_) }) {
        if (path == own || (!prefix.empty() && path == prefix + std::string(own))) {
            return true;
        }
    }
    return false;
}

bool sign_in_service::is_own_origin(std::string const* origin) const
{
    auto const base = base_ ? base_() : std::nullopt;
    return origin != nullptr && base && *origin == origin_of(*base);
}

std::string sign_in_service::redirect_uri(std::string const& base) const
{
    return base + callback_path_;
}

void sign_in_service::on_completed(std::function<void(completed_sign_in const&)> listener)
{
    listeners_.push_back(std::move(listener));
}

bool sign_in_service::has_sign_in(std::string_view principal, std::string_view toolkit) const
{
    return tokens_->has_token_for(principal, toolkit);
}

boost::asio::awaitable<web_page> sign_in_service::serve(transport::http_request request)
{
    auto const callback_here
        = request.path.ends_with(callback_path_) && !request.path.ends_with(link_path);
    if (callback_here) {
        if (request.method != "GET") {
            co_return problem_page(405, "Not here", "The sign-in callback takes GET only.");
        }
        co_return co_await callback(request);
    }
    if (request.method != "GET" && request.method != "HEAD" && request.method != "POST") {
        co_return problem_page(405, "Not here", "A sign-in link takes GET and POST only.");
    }
    co_return co_await consent_or_redirect(request);
}

// `request` belongs to serve()'s frame, which awaits this coroutine.
boost::asio::awaitable<web_page> sign_in_service::consent_or_redirect(
    transport::http_request const& request)
{
    auto const state = query_value(request, "state");
    auto claim = links_->open(state);
    if (!claim) {
        co_return refused(claim.error());
    }
    auto const* provider = toolkits::find_oauth_provider(claim->toolkit);
    auto const base = base_ ? base_() : std::nullopt;
    if (provider == nullptr || !offers(claim->toolkit) || !base) {
        co_return problem_page(503, "Sign-in is not available",
            "This toolgate no longer holds the app settings this sign-in needs. Ask its "
            "operator.");
    }
    auto& oauth = tokens_->client_for(claim->toolkit);
    auto const target = origin_of(oauth.endpoints().authorize);
    if (request.method != "POST") {
        // A GET (a person, or a link preview) only shows what the button would do.
        auto const* kit = toolkits::find_toolkit(claim->toolkit);
        // The form posts back to the link as browsers know it (a proxy may have taken the
        // base URL's path off before the request reached us).
        auto const action = path_of(*base) + std::string(link_path) + "?state=" + state;
        auto const expires = when(claim->expires_at);
        co_return consent_page({ claim->toolkit, kit ? kit->platform : std::string_view(),
            claim->principal, claim->client_name, action, target, expires });
    }
    auto const client_id = server_secrets_->find(provider->client_id_variable).value_or("");
    auto const challenge
        = common::base64url_encode(transport::sha256(links_->code_verifier(*claim)));
    auto const location = oauth.authorize_url(client_id, redirect_uri(*base), state, challenge);
    spdlog::info("sign-in: {} authorization started from a link", claim->toolkit);
    co_return redirect_to(location, target);
}

// `request` belongs to serve()'s frame, which awaits this coroutine.
boost::asio::awaitable<web_page> sign_in_service::callback(transport::http_request const& request)
{
    auto claim = links_->open(query_value(request, "state"));
    if (!claim) {
        co_return refused(claim.error());
    }
    // Spent before anything else: a second callback with this state finds it used, even
    // while this one is still exchanging its code.
    if (!links_->spend(*claim)) {
        co_return refused(link_fault::used);
    }
    auto const& toolkit = claim->toolkit;
    auto const error = query_value(request, "error");
    auto const code = query_value(request, "code");
    auto const base = base_ ? base_() : std::nullopt;
    auto const* provider = toolkits::find_oauth_provider(toolkit);
    if (!error.empty() || code.empty() || provider == nullptr || !base) {
        spdlog::info("sign-in: {} not completed ({})", toolkit,
            error.empty() ? std::string("no code") : protocol::clipped(error, 40));
        co_return problem_page(400, fmt::format("{} did not sign you in", toolkit),
            fmt::format("The platform answered {}. Nothing was stored; call the tool again "
                        "from your client for a new link.",
                error.empty() ? std::string("without a code") : error.substr(0, 80)));
    }
    client_identity id;
    id.id = server_secrets_->find(provider->client_id_variable).value_or("");
    id.secret = server_secrets_->find(provider->client_secret_variable).value_or("");
    auto grant = co_await tokens_->client_for(toolkit).exchange_code(
        id, code, links_->code_verifier(*claim), redirect_uri(*base));
    if (grant.state != token_grant::outcome::granted) {
        spdlog::warn("sign-in: {} code exchange failed: {}", toolkit, grant.problem);
        co_return problem_page(502, fmt::format("{} did not complete the sign-in", toolkit),
            "The platform refused the sign-in or could not be reached. Nothing was stored; call "
            "the tool again from your client for a new link.");
    }
    auto stored = co_await tokens_->store(claim->principal, toolkit, grant.entry);
    if (!stored) {
        spdlog::error("sign-in: {} tokens not saved: {}", toolkit, stored.error().message);
        co_return problem_page(500, "The sign-in could not be saved",
            "toolgate could not write its token store. Ask its operator; then call the tool "
            "again.");
    }
    spdlog::info("sign-in: {} connected from a link", toolkit);
    completed_sign_in done { claim->principal, toolkit, claim->elicitation_id };
    for (auto const& listener : listeners_) {
        listener(done);
    }
    co_return done_page(toolkit, claim->client_name);
}

} // namespace toolgate::credentials
