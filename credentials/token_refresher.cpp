// Token renewal with one renewal in flight per principal and toolkit (see token_refresher.hpp).
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
    token_book entries;
    /// Sign-ins the authorization server refused for good, with the message.
    std::map<key, std::string> refused;
    std::map<key, std::shared_ptr<flight>> flights;
    /// Per principal: a read of the store in progress, shared by its callers.
    std::map<std::string, std::shared_ptr<flight>, std::less<>> reading;
    std::map<std::string, oauth_client, std::less<>> clients;
    /// Per principal: when its tokens were last read, and why that read failed ("" : it did
    /// not).
    std::map<std::string, std::int64_t, std::less<>> last_check;
    std::map<std::string, std::string, std::less<>> unreadable;
    /// Clients' backends, made from the server's as their first call needs them.
    std::map<std::string, std::shared_ptr<token_backend>, std::less<>> backends;
    /// Per principal and toolkit, the token the last renewal forced by a 401 gave, and the
    /// pause before another forced renewal may replace it (security review 3, item 11).
    struct forced_renewal {
        std::string token;
        std::int64_t pause = 0;
        std::int64_t not_before = 0;
    };
    std::map<key, forced_renewal> forced;
    /// Per principal and toolkit, since when another process or replica has held the renewal.
    std::map<key, std::int64_t> lock_busy_since;
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

/// What to do once a sign-in is refused for good: a client's own sign-in is made again from
/// the conversation (calling again offers it), the server's with `toolgate auth`.
std::string sign_in_advice(token_refresher::key const& k, bool client_credentials)
{
    if (!k.first.empty()) {
        return "call the tool again to be offered a new sign-in";
    }
    return client_credentials
        ? fmt::format(
            "run `toolgate auth client-credentials {}` to sign in again, then call again", k.second)
        : fmt::format("run `toolgate auth login {}` to sign in again, then call again", k.second);
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
    state_->entries = file_.load_all();
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

token_entries token_refresher::snapshot_of(std::string_view principal) const
{
    std::lock_guard lock(state_->mutex);
    auto it = state_->entries.find(principal);
    return it == state_->entries.end() ? token_entries {} : it->second;
}

bool token_refresher::has_token_for(std::string_view principal, std::string_view toolkit) const
{
    std::lock_guard lock(state_->mutex);
    auto const entries = state_->entries.find(principal);
    if (entries == state_->entries.end()) {
        return false;
    }
    auto const entry = entries->second.find(toolkit);
    return entry != entries->second.end() && !entry->second.access_token.empty()
        && !state_->refused.contains(key(principal, toolkit));
}

std::shared_ptr<token_backend> token_refresher::backend_of(std::string const& principal)
{
    if (principal.empty()) {
        return backend_;
    }
    std::lock_guard lock(state_->mutex);
    auto& made = state_->backends[principal];
    if (!made) {
        made = backend_->for_principal(principal);
    }
    return made;
}

std::string token_refresher::reload()
{
    if (shared_) {
        // Never a blocking read here (SIGHUP is handled on an I/O thread): the next call that
        // needs a toolkit without tokens reads the store again.
        std::lock_guard lock(state_->mutex);
        state_->refused.clear();
        state_->last_check.clear();
        return "read from the state store as calls need them";
    }
    auto fresh = file_.load_all(); // throws, keeping what we have
    std::lock_guard lock(state_->mutex);
    std::vector<std::string> parts;
    auto const& own = fresh[""];
    auto const& had = state_->entries[""];
    for (auto const& [name, entry] : own) {
        auto const before = had.find(name);
        auto const what = before == had.end() ? "signed in"
            : before->second == entry         ? "unchanged"
                                              : "new tokens";
        parts.push_back(
            fmt::format("{} {} ({})", name, what, expiry_text(entry.expires_at, now_())));
    }
    for (auto const& [name, entry] : had) {
        if (!own.contains(name)) {
            parts.push_back(name + " signed out");
        }
    }
    std::size_t clients = 0;
    for (auto const& [principal, entries] : fresh) {
        clients += principal.empty() ? 0 : entries.size();
    }
    if (clients > 0) {
        parts.push_back(fmt::format("{} sign-in(s) of clients", clients));
    }
    state_->entries = std::move(fresh);
    state_->refused.clear();
    return parts.empty() ? std::string("no sign-ins") : fmt::format("{}", fmt::join(parts, ", "));
}

asio::awaitable<common::checked<void>> token_refresher::reread(std::string principal)
{
    auto stored = co_await backend_of(principal)->read();
    if (!stored) {
        co_return stored.error();
    }
    std::lock_guard lock(state_->mutex);
    state_->entries[principal] = std::move(*stored);
    std::erase_if(state_->refused, [&](auto const& r) { return r.first.first == principal; });
    co_return common::checked<void> {};
}

asio::awaitable<common::checked<bool>> token_refresher::reload_if_changed(std::string principal)
{
    // A sign-in made while the server runs (`toolgate auth login`, or another replica's) is
    // picked up the first time a call needs it; looking at most once a second keeps a missing
    // sign-in cheap. Calls arriving during a read wait for it rather than answer "not signed in".
    auto const now = now_();
    auto const executor = co_await asio::this_coro::executor;
    auto backend = backend_of(principal); // before the lock below: it takes it too
    std::shared_ptr<flight> f;
    {
        std::lock_guard lock(state_->mutex);
        auto& reading = state_->reading[principal];
        auto& last_check = state_->last_check[principal];
        if (reading) {
            f = reading;
        } else if (last_check == now) {
            if (auto const& why = state_->unreadable[principal]; !why.empty()) {
                co_return common::problem_of(why);
            }
            co_return false;
        } else {
            last_check = now;
            f = reading = std::make_shared<flight>();
            // Its own coroutine: a caller cancelled meanwhile does not strand the others.
            auto self = shared_from_this();
            asio::co_spawn(executor, self->read_store(principal, std::move(backend), f),
                [self](std::exception_ptr const& e) {
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

asio::awaitable<void> token_refresher::read_store(
    std::string principal, std::shared_ptr<token_backend> backend, std::shared_ptr<flight> f)
{
    common::checked<bool> changed = false;
    auto stored = co_await backend->read();
    {
        std::lock_guard lock(state_->mutex);
        state_->reading.erase(principal);
        auto& unreadable = state_->unreadable[principal];
        if (!stored) {
            spdlog::warn("{} not reread: {}", backend->where(), stored.error().message);
            if (shared_) {
                // The shared store: say so, rather than "not signed in", which may be untrue.
                unreadable
                    = fmt::format("the shared token store cannot be read ({}); call again later",
                        stored.error().message);
                changed = common::problem_of(unreadable);
            } // the file: as if not signed in (the warning says why)
        } else {
            unreadable.clear();
            if (auto& held = state_->entries[principal]; *stored != held) {
                held = std::move(*stored);
                std::erase_if(
                    state_->refused, [&](auto const& r) { return r.first.first == principal; });
                spdlog::info("{} changed: reread", backend->where());
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

token_refresher::step token_refresher::next_step(key const& k, std::string const& refused)
{
    step out;
    std::lock_guard lock(state_->mutex);
    token_entry const* stored = nullptr;
    if (auto book = state_->entries.find(k.first); book != state_->entries.end()) {
        auto const it = book->second.find(k.second);
        stored = it == book->second.end() ? nullptr : &it->second;
    }
    out.signed_in = stored != nullptr && !stored->access_token.empty();
    if (auto const refused_it = state_->refused.find(k); refused_it != state_->refused.end()) {
        out.refusal = refused_it->second;
        return out;
    }
    if (!out.signed_in) {
        return out;
    }
    auto const& e = *stored;
    bool const fresh = e.expires_at == 0 || now_() < e.expires_at - renew_margin(e);
    bool const forced = fresh && e.access_token == refused;
    if ((fresh && !forced) || (forced && !may_force(k, refused))) {
        // A forced renewal that did not help waits its pause: the call gets the platform's
        // own 401 meanwhile, not one renewal each.
        out.answer = e.access_token;
    } else if (auto running = state_->flights.find(k); running != state_->flights.end()) {
        out.f = running->second;
    } else {
        out.f = std::make_shared<flight>();
        out.f->forced_by = forced ? refused : std::string();
        state_->flights.emplace(k, out.f);
        out.start = true;
    }
    return out;
}

asio::awaitable<token_answer> token_refresher::access_token(
    std::string toolkit, std::string refused)
{
    std::string own; // named: no braced temporaries inside a co_await operand
    co_return co_await access_token_for(std::move(own), std::move(toolkit), std::move(refused));
}

asio::awaitable<token_answer> token_refresher::access_token_for(
    std::string principal, std::string toolkit, std::string refused)
{
    if (toolkits::find_oauth_provider(toolkit) == nullptr) {
        co_return token_answer {};
    }
    key const k { principal, toolkit };
    bool reread = false;
    for (;;) {
        auto next = next_step(k, refused);
        if (!next.answer.empty()) {
            co_return token_answer { token_answer::kind::token, std::move(next.answer) };
        }
        if (!next.signed_in || !next.refusal.empty()) {
            if (!reread) {
                reread = true;
                auto changed = co_await reload_if_changed(principal);
                if (!changed) {
                    co_return failed(
                        fmt::format("{}: {}; nothing was sent", toolkit, changed.error().message));
                }
                // Look again whatever this read found: another call's read may have ended
                // between next_step and here (then this one was skipped as done this second)
                // and brought the sign-in; a replica's first calls raced on it under load.
                continue;
            }
            if (!next.refusal.empty()) {
                auto out = failed(std::move(next.refusal));
                out.sign_in_again = true;
                co_return out;
            }
            co_return token_answer {};
        }
        if (next.start) {
            // The renewal runs as its own coroutine, so a caller that is cancelled meanwhile
            // does not cancel it for the others waiting.
            auto self = shared_from_this();
            auto const executor = co_await asio::this_coro::executor;
            asio::co_spawn(
                executor, self->renew(k, next.f), [self, toolkit](std::exception_ptr const& e) {
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

asio::awaitable<void> token_refresher::renew(key k, std::shared_ptr<flight> f)
{
    token_answer answer;
    try {
        token_entry entry;
        {
            std::lock_guard lock(state_->mutex);
            entry = state_->entries[k.first][k.second];
        }
        answer = co_await renewal(k, std::move(entry));
        if (!f->forced_by.empty() && answer.state == token_answer::kind::token) {
            remember_forced(k, f->forced_by, answer.text);
        }
    } catch (std::exception const& e) {
        answer = failed(k.second
            + ": the access token could not be renewed (internal error); "
              "call again; nothing was sent");
        spdlog::error("token renewal for {}: {}", k.second, e.what());
    }
    publish(k, f, std::move(answer));
}

bool token_refresher::may_force(key const& k, std::string const& refused) const
{
    // Called with state_->mutex held.
    auto const it = state_->forced.find(k);
    return it == state_->forced.end() || it->second.token != refused
        || now_() >= it->second.not_before;
}

void token_refresher::remember_forced(
    key const& k, std::string const& refused, std::string const& token)
{
    std::lock_guard lock(state_->mutex);
    auto& f = state_->forced[k];
    // The refused token came from the previous forced renewal: that one did not help.
    bool const again = !f.token.empty() && f.token == refused;
    f.pause = again ? std::clamp(f.pause * 2, first_pause, longest_pause) : first_pause;
    f.token = token;
    f.not_before = now_() + f.pause;
    if (again) {
        spdlog::warn("{}: the platform refused the access token the last renewal gave (401); "
                     "the next renewal after a 401 waits {} s",
            k.second, f.pause);
    }
}

std::int64_t token_refresher::held_elsewhere_for(key const& k, bool busy)
{
    std::lock_guard lock(state_->mutex);
    if (!busy) {
        state_->lock_busy_since.erase(k);
        return 0;
    }
    auto const since = state_->lock_busy_since.try_emplace(k, now_()).first->second;
    return now_() - since;
}

void token_refresher::publish(key const& k, std::shared_ptr<flight> const& f, token_answer answer)
{
    {
        std::lock_guard lock(state_->mutex);
        state_->flights.erase(k);
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

asio::awaitable<void> token_refresher::save(key k, token_entry entry)
{
    auto saved = co_await backend_of(k.first)->write(k.second, std::move(entry));
    if (!saved) {
        // The new tokens still serve this process; a restart would need a new sign-in.
        spdlog::error("{}: renewed tokens not saved: {}", k.second, saved.error().message);
    }
}

asio::awaitable<lock_attempt> token_refresher::hold_for_renewal(
    key const& k, token_entry const& entry, bool& use_current)
{
    lock_attempt attempt;
    asio::steady_timer pause(co_await asio::this_coro::executor);
    auto const backend = backend_of(k.first);
    auto const give_up = std::chrono::steady_clock::now()
        + std::min<std::chrono::milliseconds>(lock_wait_, backend->patience());
    for (;;) {
        attempt = co_await backend->try_hold(k.second);
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

asio::awaitable<token_answer> token_refresher::renewal(key k, token_entry entry)
{
    auto const toolkit = k.second;
    // Another process sharing the store (a second desktop client's toolgate, a sign-in, another
    // replica) may have renewed already, or be renewing now: wait for its hold, then reread
    // the store under it. Spending a refresh token another has spent would earn invalid_grant
    // (the storage platform's are single-use; the accounting platform's rotate).
    bool use_current = false;
    auto attempt = co_await hold_for_renewal(k, entry, use_current);
    if (use_current) {
        co_return token_answer { token_answer::kind::token, entry.access_token };
    }
    // A call waits for another's hold lock_wait_ at most, below --call-timeout (security review
    // 3, item 13); until the hold has lasted the backend's patience over the calls that found
    // it, they are told to come back.
    auto const held_for = held_elsewhere_for(k, attempt.busy());
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
            state_->entries[k.first][toolkit] = theirs;
            co_return token_answer { token_answer::kind::token, theirs.access_token };
        }
        entry = theirs; // its refresh token is the current one
    }
    auto held = std::move(attempt.held); // kept until the renewed tokens are saved
    co_return co_await renew_with(std::move(k), std::move(entry));
}

asio::awaitable<token_answer> token_refresher::renew_with(key k, token_entry entry)
{
    auto const toolkit = k.second;
    auto const& provider = *toolkits::find_oauth_provider(toolkit);
    auto& oauth = client_for(toolkit);
    auto const secrets = client_secrets_();
    client_identity id;
    id.id = secrets ? secrets->find(provider.client_id_variable).value_or("") : "";
    id.secret = secrets ? secrets->find(provider.client_secret_variable).value_or("") : "";
    bool const credentials = entry.grant == "client_credentials";
    auto const again = sign_in_advice(k, credentials);
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
        co_return keep_or_fail("the sign-in gave no refresh token", again);
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
        co_await save(k, grant.entry);
        {
            std::lock_guard lock(state_->mutex);
            state_->entries[k.first][toolkit] = grant.entry;
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
                                  "answered {}); {}; nothing was sent",
                toolkit, grant.error, again);
        }
        spdlog::warn("{}: renewing the access token was refused ({}); a new sign-in is needed",
            toolkit, grant.error);
        std::lock_guard lock(state_->mutex);
        state_->refused[k] = message;
        auto out = failed(std::move(message));
        out.sign_in_again = !credentials;
        co_return out;
    }
    co_return keep_or_fail(grant.problem, "call again shortly");
}

asio::awaitable<common::checked<void>> token_refresher::store(
    std::string principal, std::string toolkit, token_entry entry)
{
    auto saved = co_await backend_of(principal)->write(toolkit, entry);
    if (!saved) {
        co_return saved;
    }
    std::lock_guard lock(state_->mutex);
    state_->refused.erase(key(principal, toolkit));
    state_->entries[principal][toolkit] = std::move(entry);
    co_return saved;
}

asio::awaitable<common::checked<void>> token_refresher::forget(
    std::string principal, std::string toolkit)
{
    auto erased = co_await backend_of(principal)->erase(toolkit);
    if (!erased) {
        co_return erased;
    }
    std::lock_guard lock(state_->mutex);
    state_->refused.erase(key(principal, toolkit));
    state_->entries[principal].erase(toolkit);
    co_return erased;
}

asio::awaitable<token_answer> principal_tokens::access_token(
    std::string toolkit, std::string refused)
{
    auto own = co_await store_->access_token_for(principal_, toolkit, refused);
    if (own.state != token_answer::kind::none || !shared_) {
        co_return own;
    }
    co_return co_await store_->access_token(std::move(toolkit), std::move(refused));
}

bool principal_tokens::has_token(std::string_view toolkit) const
{
    return store_->has_token_for(principal_, toolkit) || (shared_ && store_->has_token(toolkit));
}

} // namespace toolgate::credentials
