// Sign-in needed → an elicitation (see sign_in_step.hpp). Wire shapes: 2025-11-25
// client/elicitation (URLElicitationRequiredError, ElicitationCompleteNotification) and
// 2026-07-28 basic/patterns/mrtr; the choice per client: docs/decisions.md "Third wave".
#include "mcp/sign_in_step.hpp"

#include "protocol/names.hpp"
#include "toolkits/oauth_providers.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace toolgate::mcp {
namespace asio = boost::asio;
namespace json = boost::json;

namespace {

constexpr std::string_view state_key = "sign_in"; ///< our member of a requestState
constexpr std::string_view request_key = "sign_in"; ///< our InputRequests key

std::string who(call_scope const& scope)
{
    return scope.principal().empty() ? std::string() : " for " + scope.principal();
}

std::string elicitation_message(call_scope const& scope, std::string_view toolkit)
{
    return fmt::format("Connect your {} account to toolgate{}: open the link, check that the "
                       "page names your client, and sign in at the platform. Then this call can "
                       "go on.",
        toolkit, who(scope));
}

/// The tool error of a client that cannot open a URL elicitation: the link, and the tool's
/// own reason after it (which names the other ways to supply the token).
protocol::call_result link_as_text(std::string_view toolkit,
    credentials::sign_in_service::link const& link, protocol::call_result const& result)
{
    std::string reason;
    if (!result.content.empty()) {
        reason = " (" + result.content.front().text + ")";
    }
    return protocol::call_result::error(fmt::format(
        "{0} needs you to connect your account first. Open this link in a browser, sign in at "
        "{0}, then call this tool again: {1} (the link works once, for {2} minutes). Nothing was "
        "sent to {0}.{3}",
        toolkit, link.url, link.lifetime.count() / 60, reason));
}

} // namespace

sign_in_step::sign_in_step(
    credentials::sign_in_service& service, std::chrono::milliseconds retry_wait)
    : service_(service)
    , retry_wait_(retry_wait)
{
    service_.on_completed([this](credentials::completed_sign_in const& done) { completed(done); });
}

bool sign_in_step::lacks_sign_in(call_scope const& scope, std::string_view toolkit) const
{
    auto const* provider = toolkits::find_oauth_provider(toolkit);
    if (provider == nullptr || !service_.offers(toolkit)) {
        return false;
    }
    if (auto const* creds = scope.credentials()) {
        if (creds->secrets && creds->secrets->find(provider->access_variable)) {
            return false; // the caller brings its own access token
        }
        return !(creds->tokens && creds->tokens->has_token(toolkit));
    }
    // The server's own credentials (no client authentication): its sign-in.
    return !service_.has_sign_in("", toolkit);
}

boost::asio::awaitable<std::optional<step_answer>> sign_in_step::before(call_scope& scope)
{
    // A 2026-07-28 retry after our input_required: wait for the sign-in the person accepted.
    auto const* state = scope.retry_state();
    auto const* toolkit = state ? state->if_contains(state_key) : nullptr;
    if (toolkit == nullptr || !toolkit->is_string()) {
        co_return std::nullopt;
    }
    std::string const kit(toolkit->get_string());
    auto const* answers = scope.input_responses();
    auto const* answer = answers ? answers->if_contains(request_key) : nullptr;
    std::optional<protocol::elicit_answer> read;
    if (answer != nullptr) {
        if (auto parsed = protocol::read_elicit_answer(*answer)) {
            read = std::move(*parsed);
        }
    }
    if (read && read->choice != protocol::elicit_answer::action::accept) {
        co_return step_answer(protocol::call_result::error(fmt::format(
            "The sign-in to {} was {}: nothing was sent. Call the tool again to be offered it "
            "again.",
            kit,
            read->choice == protocol::elicit_answer::action::decline ? "declined" : "cancelled")));
    }
    asio::steady_timer pause(co_await asio::this_coro::executor);
    auto const until = std::chrono::steady_clock::now() + retry_wait_;
    while (lacks_sign_in(scope, kit) && std::chrono::steady_clock::now() < until) {
        // Polled, not notified: the sign-in may complete on another replica sharing the
        // store, which this process sees when the token store is reread.
        pause.expires_after(std::chrono::milliseconds(250));
        co_await pause.async_wait(asio::as_tuple(asio::use_awaitable));
        auto const* creds = scope.credentials();
        toolkits::token_source& tokens
            = creds && creds->tokens ? *creds->tokens : service_.tokens();
        std::string none; // named: no braced temporaries inside a co_await operand
        co_await tokens.access_token(kit, std::move(none)); // rereads a changed store
    }
    co_return std::nullopt; // run it: signed in now, or it asks again
}

boost::asio::awaitable<std::optional<step_answer>> sign_in_step::after(
    call_scope& scope, protocol::call_result const& result)
{
    if (result.needs_sign_in.empty()) {
        co_return std::nullopt;
    }
    std::string const toolkit(result.needs_sign_in);
    auto link = service_.start(scope.principal(), toolkit, scope.call().client_name);
    if (!link) {
        co_return std::nullopt; // not offered here: the tool's own error says what to do
    }
    spdlog::info("sign-in: {} needed by a call; a link was offered", toolkit);
    auto const& call = scope.call();
    if (!scope.takes_url_elicitation()) {
        co_return step_answer(link_as_text(toolkit, *link, result));
    }
    protocol::url_elicitation elicitation { link->elicitation_id, link->url,
        elicitation_message(scope, toolkit) };
    if (call.modern) {
        json::object requests;
        requests[request_key] = protocol::input_request(protocol::names::elicitation_create,
            protocol::url_elicitation_params(elicitation, false));
        co_return step_answer(
            input_needed { std::move(requests), json::object { { state_key, toolkit } } });
    }
    if (scope.conv()) {
        remember(link->elicitation_id,
            { scope.conv(), scope.principal(), toolkit,
                std::chrono::steady_clock::now() + link->lifetime });
    }
    co_return step_answer(protocol::url_elicitation_required_error(elicitation,
        fmt::format("{} needs you to connect your account first; retry the call once the sign-in "
                    "is done",
            toolkit)));
}

void sign_in_step::remember(std::string id, waiting w)
{
    std::lock_guard lock(mutex_);
    auto const now = std::chrono::steady_clock::now();
    std::erase_if(waiting_, [now](auto const& e) { return e.second.until < now; });
    waiting_.emplace(std::move(id), std::move(w));
}

void sign_in_step::completed(credentials::completed_sign_in const& done)
{
    // Every 2025 elicitation of this principal for this toolkit is complete now: each session
    // that got one hears so, once, on its own channel (2025-11-25: only the client that
    // initiated it).
    std::vector<std::pair<std::string, std::shared_ptr<conversation>>> told;
    {
        std::lock_guard lock(mutex_);
        for (auto it = waiting_.begin(); it != waiting_.end();) {
            auto const& w = it->second;
            if (w.principal == done.principal && w.toolkit == done.toolkit) {
                if (auto conv = w.conv.lock()) {
                    told.emplace_back(it->first, std::move(conv));
                }
                it = waiting_.erase(it);
            } else {
                ++it;
            }
        }
    }
    for (auto& [id, conv] : told) {
        conv->outbox().send(protocol::elicitation_complete_notification(id));
    }
}

std::size_t sign_in_step::pending() const
{
    std::lock_guard lock(mutex_);
    return waiting_.size();
}

} // namespace toolgate::mcp
