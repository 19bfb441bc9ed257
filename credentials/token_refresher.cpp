// Token renewal with one renewal in flight per toolkit (see token_refresher.hpp).
#include "credentials/token_refresher.hpp"

#include "common/result.hpp"
#include "toolkits/oauth_providers.hpp"
#include "transport/coroutine_root.hpp"

#include <boost/asio/any_completion_handler.hpp>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <set>
#include <vector>

namespace toolgate::credentials {
namespace asio = boost::asio;
using toolkits::token_answer;

/// One renewal and the calls waiting for it.
struct token_refresher::flight {
    std::mutex mutex;
    bool done = false;
    /// Set when a 401 to a token not yet expired started it: the refused token.
    std::string forced_by;
    token_answer answer;
    common::checked<bool> changed = false; ///< a read of the store: what reload_if_changed says
    /// Each waiting coroutine's executor and completion handler.
    std::vector<std::pair<asio::any_io_executor, asio::any_completion_handler<void()>>> waiters;
};

struct token_refresher::state {
    mutable std::mutex mutex; ///< guards everything below; never held across co_await
    token_entries entries;
    /// Toolkits whose sign-in the authorization server refused for good, with the message.
    std::map<std::string, std::string, std::less<>> refused;
    std::map<std::string, std::shared_ptr<flight>, std::less<>> flights;
    std::shared_ptr<flight> reading; ///< a read of the store in progress, shared by its callers
    std::map<std::string, oauth_client, std::less<>> clients;
    std::int64_t last_check = 0;
    std::string unreadable; ///< why the last read of the store failed ("" : it did not)
    /// Per toolkit, the token the last renewal forced by a 401 gave, and the pause before
    /// another forced renewal may replace it (security review 3, item 11).
    struct forced_renewal {
        std::string token;
        std::int64_t pause = 0;
        std::int64_t not_before = 0;
    };
    std::map<std::string, forced_renewal, std::less<>> forced;
    /// Per toolkit, since when another process or replica has held the renewal.
    std::map<std::string, std::int64_t, std::less<>> lock_busy_since;
};

namespace {

/// Joins a flight: completes at once when it is over, else when it ends.
struct join_flight {
    std::shared_ptr<token_refresher::flight> f;
    template <class Handler> void operator()(Handler&& handler) const;
};

std::string expiry_text(std::int64_t expires_at, std::int64_t now)
{
    if (expires_at == 0) {
        return "expiry unknown";
    }
    auto const left = expires_at - now;
    if (left <= 0) {
        return "expired";
    }
    return left >= 120 ? fmt::format("expires in {} min", left / 60)
                       : fmt::format("expires in {} s", left);
}

token_answer failed(std::string text)
{
    return { token_answer::kind::failed, std::move(text) };
}

} // namespace

/// Resumes a waiter on its own executor.
void wake(asio::any_io_executor ex, asio::any_completion_handler<void()> handler)
{
    asio::post(ex, [h = std::move(handler)]() mutable { std::move(h)(); });
}

template <class Handler> void join_flight::operator()(Handler&& handler) const
{
    asio::any_io_executor ex = asio::get_associated_executor(handler);
    std::unique_lock lock(f->mutex);
    if (!f->done) {
        f->waiters.emplace_back(ex, std::forward<Handler>(handler));
        return;
    }
    lock.unlock();
    wake(ex, std::forward<Handler>(handler));
}

token_refresher::token_refresher(transport::outbound_client& client, token_file file,
    secrets_provider client_secrets, oauth_client::clock now, bool allow_insecure,
    std::chrono::milliseconds lock_wait)
    : token_refresher(client, make_file_backend(file), std::move(client_secrets), std::move(now),
        allow_insecure, lock_wait)
{
    file_ = std::move(file);
    shared_ = false;
    state_->entries = file_.load();
}

token_refresher::token_refresher(transport::outbound_client& client,
    std::shared_ptr<token_backend> backend, secrets_provider client_secrets,
    oauth_client::clock now, bool allow_insecure, std::chrono::milliseconds lock_wait)
    : client_(client)
    , file_(token_file::default_path())
    , backend_(std::move(backend))
    , shared_(true)
    , client_secrets_(std::move(client_secrets))
    , now_(std::move(now))
    , lock_wait_(lock_wait)
    , state_(std::make_unique<state>())
{
    for (auto const& provider : toolkits::oauth_providers()) {
        state_->clients.emplace(std::string(provider.toolkit),
            oauth_client(client_, provider, endpoints_for(provider, allow_insecure), now_));
    }
}

token_refresher::~token_refresher() = default;

oauth_client& token_refresher::client_for(std::string_view toolkit)
{
    return state_->clients.find(toolkit)->second;
}

std::int64_t token_refresher::renew_margin(token_entry const& entry)
{
    auto const lifetime = entry.expires_at - entry.obtained_at;
    return std::clamp<std::int64_t>(lifetime / 4, 1, 120);
}

token_entries token_refresher::snapshot() const
{
    std::lock_guard lock(state_->mutex);
    return state_->entries;
}

std::string token_refresher::reload()
{
    if (shared_) {
        // Never a blocking read here (SIGHUP is handled on an I/O thread): the next call that
        // needs a toolkit without tokens reads the store again.
        std::lock_guard lock(state_->mutex);
        state_->refused.clear();
        state_->last_check = 0;
        return "read from the state store as calls need them";
    }
    auto fresh = file_.load(); // throws, keeping what we have
    std::lock_guard lock(state_->mutex);
    std::vector<std::string> parts;
    for (auto const& [name, entry] : fresh) {
        auto const before = state_->entries.find(name);
        auto const what = before == state_->entries.end() ? "signed in"
            : before->second == entry                     ? "unchanged"
                                                          : "new tokens";
        parts.push_back(
            fmt::format("{} {} ({})", name, what, expiry_text(entry.expires_at, now_())));
    }
    for (auto const& [name, entry] : state_->entries) {
        if (!fresh.contains(name)) {
            parts.push_back(name + " signed out");
        }
    }
    state_->entries = std::move(fresh);
    state_->refused.clear();
    return parts.empty() ? std::string("no sign-ins") : fmt::format("{}", fmt::join(parts, ", "));
}

asio::awaitable<common::checked<void>> token_refresher::reread()
{
    auto stored = co_await backend_->read();
    if (!stored) {
        co_return stored.error();
    }
    std::lock_guard lock(state_->mutex);
    state_->entries = std::move(*stored);
    state_->refused.clear();
    co_return common::checked<void> {};
}

asio::awaitable<common::checked<bool>> token_refresher::reload_if_changed()
{
    // A sign-in made while the server runs (`toolgate auth login`, or another replica's) is
    // picked up the first time a call needs it; looking at most once a second keeps a missing
    // sign-in cheap. Calls arriving during a read wait for it rather than answer "not signed in".
    auto const now = now_();
    auto const executor = co_await asio::this_coro::executor;
    std::shared_ptr<flight> f;
    {
        std::lock_guard lock(state_->mutex);
        if (state_->reading) {
            f = state_->reading;
        } else if (state_->last_check == now) {
            if (!state_->unreadable.empty()) {
                co_return common::problem_of(state_->unreadable);
            }
            co_return false;
        } else {
            state_->last_check = now;
            f = state_->reading = std::make_shared<flight>();
            // Its own coroutine: a caller cancelled meanwhile does not strand the others.
            auto self = shared_from_this();
            asio::co_spawn(executor, self->read_store(f), [self](std::exception_ptr const& e) {
                transport::log_root_failure("token store read", e);
            });
        }
    }
    join_flight join { f };
    co_await asio::async_initiate<decltype(asio::use_awaitable), void()>(join, asio::use_awaitable);
    // Copied out before co_return: g++ 12 returned the initial value when `co_return
    // f->changed` ran with the lock guard in scope.
    common::checked<bool> out = false;
    {
        std::lock_guard lock(f->mutex);
        out = f->changed;
    }
    co_return out;
}

asio::awaitable<void> token_refresher::read_store(std::shared_ptr<flight> f)
{
    common::checked<bool> changed = false;
    auto stored = co_await backend_->read();
    {
        std::lock_guard lock(state_->mutex);
        state_->reading.reset();
        if (!stored) {
            spdlog::warn("{} not reread: {}", backend_->where(), stored.error().message);
            if (shared_) {
                // The shared store: say so, rather than "not signed in", which may be untrue.
                state_->unreadable
                    = fmt::format("the shared token store cannot be read ({}); call again later",
                        stored.error().message);
                changed = common::problem_of(state_->unreadable);
            } // the file: as if not signed in (the warning says why)
        } else {
            state_->unreadable.clear();
            if (*stored != state_->entries) {
                state_->entries = std::move(*stored);
                state_->refused.clear();
                spdlog::info("{} changed: reread", backend_->where());
                changed = true;
            }
        }
    }
    decltype(f->waiters) waiters;
    {
        std::lock_guard lock(f->mutex);
        f->done = true;
        f->changed = std::move(changed);
        waiters.swap(f->waiters);
    }
    for (auto& [ex, handler] : waiters) {
        wake(ex, std::move(handler));
    }
}

token_refresher::step token_refresher::next_step(
    std::string const& toolkit, std::string const& refused)
{
    step out;
    std::lock_guard lock(state_->mutex);
    auto const it = state_->entries.find(toolkit);
    auto const refused_it = state_->refused.find(toolkit);
    out.signed_in = it != state_->entries.end() && !it->second.access_token.empty();
    if (refused_it != state_->refused.end()) {
        out.refusal = refused_it->second;
        return out;
    }
    if (!out.signed_in) {
        return out;
    }
    auto const& e = it->second;
    bool const fresh = e.expires_at == 0 || now_() < e.expires_at - renew_margin(e);
    bool const forced = fresh && e.access_token == refused;
    if ((fresh && !forced) || (forced && !may_force(toolkit, refused))) {
        // A forced renewal that did not help waits its pause: the call gets the platform's
        // own 401 meanwhile, not one renewal each.
        out.answer = e.access_token;
    } else if (auto running = state_->flights.find(toolkit); running != state_->flights.end()) {
        out.f = running->second;
    } else {
        out.f = std::make_shared<flight>();
        out.f->forced_by = forced ? refused : std::string();
        state_->flights.emplace(toolkit, out.f);
        out.start = true;
    }
    return out;
}

asio::awaitable<token_answer> token_refresher::access_token(
    std::string toolkit, std::string refused)
{
    if (toolkits::find_oauth_provider(toolkit) == nullptr) {
        co_return token_answer {};
    }
    bool reread = false;
    for (;;) {
        auto next = next_step(toolkit, refused);
        if (!next.answer.empty()) {
            co_return token_answer { token_answer::kind::token, std::move(next.answer) };
        }
        if (!next.signed_in || !next.refusal.empty()) {
            if (!reread) {
                reread = true;
                auto changed = co_await reload_if_changed();
                if (!changed) {
                    co_return failed(
                        fmt::format("{}: {}; nothing was sent", toolkit, changed.error().message));
                }
                if (*changed) {
                    continue;
                }
            }
            if (!next.refusal.empty()) {
                co_return failed(std::move(next.refusal));
            }
            co_return token_answer {};
        }
        if (next.start) {
            // The renewal runs as its own coroutine, so a caller that is cancelled meanwhile
            // does not cancel it for the others waiting.
            auto self = shared_from_this();
            auto const executor = co_await asio::this_coro::executor;
            asio::co_spawn(executor, self->renew(toolkit, next.f),
                [self, toolkit](std::exception_ptr const& e) {
                    transport::log_root_failure("token renewal for " + toolkit, e);
                });
        }
        join_flight join { next.f };
        co_await asio::async_initiate<decltype(asio::use_awaitable), void()>(
            join, asio::use_awaitable);
        std::lock_guard lock(next.f->mutex);
        co_return next.f->answer;
    }
}

asio::awaitable<void> token_refresher::renew(std::string toolkit, std::shared_ptr<flight> f)
{
    token_answer answer;
    try {
        token_entry entry;
        {
            std::lock_guard lock(state_->mutex);
            entry = state_->entries[toolkit];
        }
        answer = co_await renewal(toolkit, std::move(entry));
        if (!f->forced_by.empty() && answer.state == token_answer::kind::token) {
            remember_forced(toolkit, f->forced_by, answer.text);
        }
    } catch (std::exception const& e) {
        answer = failed(toolkit
            + ": the access token could not be renewed (internal error); "
              "call again; nothing was sent");
        spdlog::error("token renewal for {}: {}", toolkit, e.what());
    }
    publish(toolkit, f, std::move(answer));
}

bool token_refresher::may_force(std::string const& toolkit, std::string const& refused) const
{
    // Called with state_->mutex held.
    auto const it = state_->forced.find(toolkit);
    return it == state_->forced.end() || it->second.token != refused
        || now_() >= it->second.not_before;
}

void token_refresher::remember_forced(
    std::string const& toolkit, std::string const& refused, std::string const& token)
{
    std::lock_guard lock(state_->mutex);
    auto& f = state_->forced[toolkit];
    // The refused token came from the previous forced renewal: that one did not help.
    bool const again = !f.token.empty() && f.token == refused;
    f.pause = again ? std::clamp(f.pause * 2, first_pause, longest_pause) : first_pause;
    f.token = token;
    f.not_before = now_() + f.pause;
    if (again) {
        spdlog::warn("{}: the platform refused the access token the last renewal gave (401); "
                     "the next renewal after a 401 waits {} s",
            toolkit, f.pause);
    }
}

std::int64_t token_refresher::held_elsewhere_for(std::string const& toolkit, bool busy)
{
    std::lock_guard lock(state_->mutex);
    if (!busy) {
        state_->lock_busy_since.erase(toolkit);
        return 0;
    }
    auto const since = state_->lock_busy_since.try_emplace(toolkit, now_()).first->second;
    return now_() - since;
}

void token_refresher::publish(
    std::string const& toolkit, std::shared_ptr<flight> const& f, token_answer answer)
{
    {
        std::lock_guard lock(state_->mutex);
        state_->flights.erase(toolkit);
    }
    decltype(f->waiters) waiters;
    {
        std::lock_guard lock(f->mutex);
        f->done = true;
        f->answer = std::move(answer);
        waiters.swap(f->waiters);
    }
    for (auto& [ex, handler] : waiters) {
        wake(ex, std::move(handler));
    }
}

asio::awaitable<void> token_refresher::save(std::string toolkit, token_entry entry)
{
    auto saved = co_await backend_->write(toolkit, std::move(entry));
    if (!saved) {
        // The new tokens still serve this process; a restart would need a new sign-in.
        spdlog::error("{}: renewed tokens not saved: {}", toolkit, saved.error().message);
    }
}

asio::awaitable<lock_attempt> token_refresher::hold_for_renewal(
    std::string const& toolkit, token_entry const& entry, bool& use_current)
{
    lock_attempt attempt;
    asio::steady_timer pause(co_await asio::this_coro::executor);
    auto const give_up = std::chrono::steady_clock::now()
        + std::min<std::chrono::milliseconds>(lock_wait_, backend_->patience());
    for (;;) {
        attempt = co_await backend_->try_hold(toolkit);
        if (!attempt.busy()) {
            co_return attempt;
        }
        // Another holds it: a token not yet expired serves meanwhile (it is only due for
        // renewal); an expired one waits for the holder's new one, within the patience.
        if (!entry.access_token.empty() && (entry.expires_at == 0 || now_() < entry.expires_at)) {
            use_current = true;
            co_return attempt;
        }
        if (std::chrono::steady_clock::now() >= give_up) {
            co_return attempt;
        }
        pause.expires_after(std::chrono::milliseconds(shared_ ? 100 : 50));
        co_await pause.async_wait(asio::as_tuple(asio::use_awaitable));
    }
}

asio::awaitable<token_answer> token_refresher::renewal(std::string toolkit, token_entry entry)
{
    // Another process sharing the store (a second desktop client's toolgate, a sign-in, another
    // replica) may have renewed already, or be renewing now: wait for its hold, then reread
    // the store under it. Spending a refresh token another has spent would earn invalid_grant
    // (the storage platform's are single-use; the accounting platform's rotate).
    bool use_current = false;
    auto attempt = co_await hold_for_renewal(toolkit, entry, use_current);
    if (use_current) {
        co_return token_answer { token_answer::kind::token, entry.access_token };
    }
    // A call waits for another's hold lock_wait_ at most, below --call-timeout (security review
    // 3, item 13); until the hold has lasted the backend's patience over the calls that found
    // it, they are told to come back.
    auto const held_for = held_elsewhere_for(toolkit, attempt.busy());
    if (attempt.busy() && held_for < backend_->patience().count()) {
        co_return failed(fmt::format("{}: the access token has expired, and another toolgate "
                                     "process or replica is renewing it now; call again "
                                     "shortly; nothing was sent",
            toolkit));
    }
    if (!attempt.stored) {
        spdlog::warn("{}: the {} could not be reread before renewing: {}", toolkit,
            backend_->where(), attempt.stored.error().message);
        if (shared_) {
            co_return failed(fmt::format("{}: the access token has expired and the shared "
                                         "token store cannot be reached to renew it ({}); "
                                         "call again later; nothing was sent",
                toolkit, attempt.stored.error().message));
        }
    } else if (!attempt.held) {
        if (!backend_->renews_after_patience()) {
            co_return failed(fmt::format("{}: the access token has expired and another replica "
                                         "has been renewing it for {} s; call again shortly; "
                                         "nothing was sent",
                toolkit, held_for));
        }
        spdlog::warn("{}: another process has held the token store's renewal lock for {} s; "
                     "renewing anyway",
            toolkit, held_for);
    } else if (auto it = attempt.stored->find(toolkit); it != attempt.stored->end()
               && it->second != entry && !it->second.access_token.empty()) {
        auto const& theirs = it->second;
        if (theirs.expires_at == 0 || now_() < theirs.expires_at - renew_margin(theirs)) {
            spdlog::info("{}: using the access token another process renewed", toolkit);
            std::lock_guard lock(state_->mutex);
            state_->entries[toolkit] = theirs;
            co_return token_answer { token_answer::kind::token, theirs.access_token };
        }
        entry = theirs; // its refresh token is the current one
    }
    auto held = std::move(attempt.held); // kept until the renewed tokens are saved
    co_return co_await renew_with(toolkit, std::move(entry));
}

asio::awaitable<token_answer> token_refresher::renew_with(std::string toolkit, token_entry entry)
{
    auto const& provider = *toolkits::find_oauth_provider(toolkit);
    auto& oauth = client_for(toolkit);
    auto const secrets = client_secrets_();
    client_identity id;
    id.id = secrets ? secrets->find(provider.client_id_variable).value_or("") : "";
    id.secret = secrets ? secrets->find(provider.client_secret_variable).value_or("") : "";
    bool const credentials = entry.grant == "client_credentials";
    auto const again = credentials ? fmt::format("`toolgate auth client-credentials {}`", toolkit)
                                   : fmt::format("`toolgate auth login {}`", toolkit);
    bool const still_valid = entry.expires_at == 0 || now_() < entry.expires_at;
    auto const keep_or_fail = [&](std::string why, std::string_view advice) {
        if (still_valid) {
            // Not expired yet: use it, and try to renew again on a later call.
            spdlog::warn("{}: renewing the access token failed ({}); using the current one until "
                         "it expires",
                toolkit, why);
            return token_answer { token_answer::kind::token, entry.access_token };
        }
        return failed(fmt::format("{}: the access token has expired and could not be renewed: "
                                  "{}; {}; nothing was sent",
            toolkit, why, advice));
    };
    if (id.id.empty()) {
        co_return keep_or_fail(fmt::format("{} is not set (renewing needs the client id the "
                                           "sign-in used)",
                                   provider.client_id_variable),
            "set it, then call again");
    }
    if (!credentials && entry.refresh_token.empty()) {
        co_return keep_or_fail(
            "the sign-in gave no refresh token", fmt::format("run {} to sign in again", again));
    }
    token_grant grant;
    if (credentials) {
        grant = co_await oauth.client_credentials(id, entry.subject_type, entry.subject_id);
    } else {
        grant = co_await oauth.refresh(id, entry);
    }
    if (grant.state == token_grant::outcome::granted) {
        // Saved before anyone uses it: a rotated refresh token must survive a crash, since
        // the old one no longer works (the accounting platform rotates them; the storage
        // platform's are single-use).
        co_await save(toolkit, grant.entry);
        {
            std::lock_guard lock(state_->mutex);
            state_->entries[toolkit] = grant.entry;
        }
        spdlog::info(
            "{}: access token renewed ({})", toolkit, expiry_text(grant.entry.expires_at, now_()));
        co_return token_answer { token_answer::kind::token, grant.entry.access_token };
    }
    if (grant.state == token_grant::outcome::refused) {
        std::string message;
        if (grant.error == "invalid_client" || grant.error == "unauthorized_client") {
            message = fmt::format("{}: the authorization server refused the client ({}): check "
                                  "{} and {}; nothing was sent",
                toolkit, grant.error, provider.client_id_variable, provider.client_secret_variable);
        } else {
            message = fmt::format("{}: the sign-in is no longer valid (the authorization server "
                                  "answered {}); run {} to sign in again, then call again; "
                                  "nothing was sent",
                toolkit, grant.error, again);
        }
        spdlog::warn("{}: renewing the access token was refused ({}); {} is needed", toolkit,
            grant.error, again);
        std::lock_guard lock(state_->mutex);
        state_->refused[toolkit] = message;
        co_return failed(std::move(message));
    }
    co_return keep_or_fail(grant.problem, "call again shortly");
}

} // namespace toolgate::credentials
