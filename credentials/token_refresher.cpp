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
#include <boost/asio/thread_pool.hpp>
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
    token_answer answer;
    /// Each waiting coroutine's executor and completion handler.
    std::vector<std::pair<asio::any_io_executor, asio::any_completion_handler<void()>>> waiters;
};

struct token_refresher::state {
    mutable std::mutex mutex; ///< guards everything below; never held across co_await
    token_book entries;
    /// Sign-ins the authorization server refused for good, with the message.
    std::map<key, std::string> refused;
    std::map<key, std::shared_ptr<flight>> flights;
    std::map<std::string, oauth_client, std::less<>> clients;
    std::optional<std::timespec> seen_modified;
    std::int64_t last_check = 0;
    /// File reads and writes happen here, off the threads that serve requests.
    asio::thread_pool files { 1 };
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

/// The token file as read, with its modification time.
struct stored_tokens {
    token_book entries;
    std::optional<std::timespec> modified;
};

/// Reads the token file (on the file thread).
asio::awaitable<common::checked<stored_tokens>> read_file(token_file file)
{
    try {
        stored_tokens out;
        out.modified = file.modified();
        out.entries = file.load_all();
        co_return out;
    } catch (std::exception const& e) {
        co_return common::problem_of(e.what());
    }
}

/// A try for a renewal lock: the lock (null when another process holds it) and, when taken,
/// the entry read under it (nullopt: the store holds none).
struct lock_attempt {
    std::shared_ptr<token_lock> held;
    common::checked<std::optional<token_entry>> on_disk = std::optional<token_entry> {};

    bool busy() const { return !held && on_disk.has_value(); }
};

/// On the file thread: takes the renewal lock of (`principal`, `toolkit`) if it is free and
/// reads that entry.
asio::awaitable<lock_attempt> try_lock_and_read(
    token_file file, std::string principal, std::string toolkit)
{
    lock_attempt out;
    try {
        out.held = file.try_renewal_lock(principal, toolkit);
        if (out.held) {
            out.on_disk = file.load(principal, toolkit);
        }
    } catch (std::exception const& e) {
        out.on_disk = common::problem_of(e.what());
    }
    co_return out;
}

/// Saves one entry (on the file thread).
asio::awaitable<common::checked<void>> write_file(
    token_file file, std::string principal, std::string toolkit, token_entry entry)
{
    try {
        file.save(principal, toolkit, entry);
        co_return common::checked<void> {};
    } catch (std::exception const& e) {
        co_return common::problem_of(e.what());
    }
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

bool same_time(std::optional<std::timespec> const& a, std::optional<std::timespec> const& b)
{
    if (a.has_value() != b.has_value()) {
        return false;
    }
    return !a || (a->tv_sec == b->tv_sec && a->tv_nsec == b->tv_nsec);
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
    secrets_provider client_secrets, oauth_client::clock now, bool allow_insecure)
    : client_(client)
    , file_(std::move(file))
    , client_secrets_(std::move(client_secrets))
    , now_(std::move(now))
    , state_(std::make_unique<state>())
{
    for (auto const& provider : toolkits::oauth_providers()) {
        state_->clients.emplace(std::string(provider.toolkit),
            oauth_client(client_, provider, endpoints_for(provider, allow_insecure), now_));
    }
    state_->seen_modified = file_.modified();
    state_->entries = file_.load_all();
}

token_refresher::~token_refresher()
{
    state_->files.join();
}

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

std::string token_refresher::reload()
{
    auto fresh = file_.load_all(); // throws, keeping what we have
    auto const modified = file_.modified();
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
    state_->seen_modified = modified;
    return parts.empty() ? std::string("no sign-ins") : fmt::format("{}", fmt::join(parts, ", "));
}

asio::awaitable<bool> token_refresher::reload_if_changed()
{
    // A sign-in made while the server runs (`toolgate auth login`) is picked up the first
    // time a call needs it; looking at most once a second keeps a missing sign-in cheap.
    auto const now = now_();
    {
        std::lock_guard lock(state_->mutex);
        if (state_->last_check == now) {
            co_return false;
        }
        state_->last_check = now;
    }
    auto stored = co_await asio::co_spawn(state_->files, read_file(file_), asio::use_awaitable);
    if (!stored) {
        spdlog::warn("token store not reread: {}", stored.error().message);
        co_return false;
    }
    std::lock_guard lock(state_->mutex);
    if (same_time(stored->modified, state_->seen_modified)) {
        co_return false;
    }
    state_->seen_modified = stored->modified;
    state_->entries = std::move(stored->entries);
    state_->refused.clear();
    spdlog::info("token store {} changed on disk: reread", file_.path());
    co_return true;
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
        std::shared_ptr<flight> f;
        bool start = false;
        std::string answer;
        std::string refusal;
        bool signed_in = false;
        {
            std::lock_guard lock(state_->mutex);
            token_entry const* stored = nullptr;
            if (auto book = state_->entries.find(principal); book != state_->entries.end()) {
                auto const it = book->second.find(toolkit);
                stored = it == book->second.end() ? nullptr : &it->second;
            }
            auto const refused_it = state_->refused.find(k);
            signed_in = stored != nullptr && !stored->access_token.empty();
            if (refused_it != state_->refused.end()) {
                refusal = refused_it->second;
            } else if (signed_in) {
                auto const& e = *stored;
                bool const fresh = e.expires_at == 0 || now_() < e.expires_at - renew_margin(e);
                if (fresh && e.access_token != refused) {
                    answer = e.access_token;
                } else if (auto running = state_->flights.find(k);
                           running != state_->flights.end()) {
                    f = running->second;
                } else {
                    f = std::make_shared<flight>();
                    state_->flights.emplace(k, f);
                    start = true;
                }
            }
        }
        if (!answer.empty()) {
            co_return token_answer { token_answer::kind::token, std::move(answer) };
        }
        if (!signed_in || !refusal.empty()) {
            if (!reread) {
                reread = true;
                if (co_await reload_if_changed()) {
                    continue;
                }
            }
            if (!refusal.empty()) {
                auto out = failed(std::move(refusal));
                out.sign_in_again = true;
                co_return out;
            }
            co_return token_answer {};
        }
        if (start) {
            // The renewal runs as its own coroutine, so a caller that is cancelled meanwhile
            // does not cancel it for the others waiting.
            auto self = shared_from_this();
            auto const executor = co_await asio::this_coro::executor;
            asio::co_spawn(
                executor, self->renew(k, f), [self, toolkit](std::exception_ptr const& e) {
                    transport::log_root_failure("token renewal for " + toolkit, e);
                });
        }
        join_flight join { f };
        co_await asio::async_initiate<decltype(asio::use_awaitable), void()>(
            join, asio::use_awaitable);
        std::lock_guard lock(f->mutex);
        co_return f->answer;
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
    } catch (std::exception const& e) {
        answer = failed(k.second
            + ": the access token could not be renewed (internal error); "
              "call again; nothing was sent");
        spdlog::error("token renewal for {}: {}", k.second, e.what());
    }
    publish(k, f, std::move(answer));
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
    auto saved = co_await asio::co_spawn(
        state_->files, write_file(file_, k.first, k.second, entry), asio::use_awaitable);
    if (!saved) {
        // The new tokens still serve this process; a restart would need a new sign-in.
        spdlog::error("{}: renewed tokens not saved: {}", k.second, saved.error().message);
        co_return;
    }
    auto const modified = file_.modified();
    std::lock_guard lock(state_->mutex);
    state_->seen_modified = modified;
}

asio::awaitable<token_answer> token_refresher::renewal(key k, token_entry entry)
{
    auto const& toolkit = k.second;
    // Another process sharing the store (a second desktop client's toolgate, a sign-in) may
    // have renewed already, or be renewing now: wait for its renewal lock, then reread the
    // store under it. Spending a refresh token another process has spent would earn
    // invalid_grant (the storage platform's are single-use; the accounting platform's rotate).
    lock_attempt attempt;
    asio::steady_timer pause(co_await asio::this_coro::executor);
    auto const give_up = std::chrono::steady_clock::now() + std::chrono::seconds(70);
    for (;;) {
        attempt = co_await asio::co_spawn(
            state_->files, try_lock_and_read(file_, k.first, toolkit), asio::use_awaitable);
        if (!attempt.busy() || std::chrono::steady_clock::now() >= give_up) {
            break;
        }
        pause.expires_after(std::chrono::milliseconds(50));
        co_await pause.async_wait(asio::as_tuple(asio::use_awaitable));
    }
    if (!attempt.on_disk) {
        spdlog::warn("{}: the token store could not be reread before renewing: {}", toolkit,
            attempt.on_disk.error().message);
    } else if (!attempt.held) {
        spdlog::warn("{}: another process has held the token store's renewal lock for 70 s; "
                     "renewing anyway",
            toolkit);
    } else if (auto const& on_disk = *attempt.on_disk;
               on_disk && *on_disk != entry && !on_disk->access_token.empty()) {
        auto const& theirs = *on_disk;
        if (theirs.expires_at == 0 || now_() < theirs.expires_at - renew_margin(theirs)) {
            spdlog::info("{}: using the access token another process renewed", toolkit);
            std::lock_guard lock(state_->mutex);
            state_->entries[k.first][toolkit] = theirs;
            co_return token_answer { token_answer::kind::token, theirs.access_token };
        }
        entry = theirs; // its refresh token is the current one
    }
    co_return co_await renew_with(std::move(k), std::move(entry));
}

asio::awaitable<token_answer> token_refresher::renew_with(key k, token_entry entry)
{
    auto const& toolkit = k.second;
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
    auto saved = co_await asio::co_spawn(
        state_->files, write_file(file_, principal, toolkit, entry), asio::use_awaitable);
    if (!saved) {
        co_return saved;
    }
    auto const modified = file_.modified();
    std::lock_guard lock(state_->mutex);
    state_->seen_modified = modified;
    state_->refused.erase(key(principal, toolkit));
    state_->entries[principal][toolkit] = std::move(entry);
    co_return saved;
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
