// Session bookkeeping for legacy HTTP clients.
#include "mcp/session_registry.hpp"

#include "ops/logging.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace toolgate::mcp {

session_registry::session_registry(boost::asio::any_io_executor executor,
    transport::session_signer signer, std::chrono::seconds idle_timeout,
    std::chrono::seconds max_age, std::size_t ended_bound)
    : executor_(std::move(executor))
    , signer_(std::move(signer))
    , idle_timeout_(idle_timeout)
    , max_age_(max_age)
    , ended_(ended_bound)
{
}

std::shared_ptr<conversation> session_registry::make_conversation() const
{
    return std::make_shared<conversation>(executor_);
}

bool session_registry::is_expired(entry const& e, clock::time_point now) const
{
    // The maximum age holds on the issuing replica too (security review 12): a busy session
    // does not live forever.
    return now - e.last_used > idle_timeout_
        || std::chrono::system_clock::now() - e.issued > max_age_;
}

std::int64_t session_registry::expiry_of(std::chrono::system_clock::time_point issued) const
{
    // Rounded up: an id is remembered a little longer than it is valid, never shorter.
    return std::chrono::ceil<std::chrono::seconds>((issued + max_age_).time_since_epoch()).count();
}

void session_registry::remember_ended(
    std::string const& id, std::chrono::system_clock::time_point issued)
{
    ended_.add(state::digest_of(id), expiry_of(issued));
}

bool session_registry::was_ended(
    std::string const& id, std::chrono::system_clock::time_point issued) const
{
    return ended_.contains(state::digest_of(id), expiry_of(issued));
}

std::string session_registry::open(
    std::shared_ptr<conversation> conv, std::string const& version, std::string const& principal)
{
    auto const issued = std::chrono::system_clock::now();
    auto id = signer_.issue(version, issued, principal);
    conv->set_session_tag(ops::log_tag(id));
    std::lock_guard lock(mutex_);
    sessions_[id] = { std::move(conv), clock::now(), principal, issued };
    ++opened_;
    return id;
}

std::size_t session_registry::count_of(std::string const& principal) const
{
    return static_cast<std::size_t>(std::count_if(sessions_.begin(), sessions_.end(),
        [&](auto const& e) { return e.second.principal == principal; }));
}

std::unordered_map<std::string, session_registry::entry>::iterator session_registry::idle_lru_of(
    std::string const& principal)
{
    auto best = sessions_.end();
    for (auto it = sessions_.begin(); it != sessions_.end(); ++it) {
        if (it->second.principal != principal || it->second.conv->has_calls_in_flight()) {
            continue;
        }
        if (best == sessions_.end() || it->second.last_used < best->second.last_used) {
            best = it;
        }
    }
    return best;
}

boost::system::result<std::string, session_registry::refusal> session_registry::try_open(
    std::shared_ptr<conversation> conv, std::string const& version, std::string const& principal,
    router& r)
{
    auto const issued = std::chrono::system_clock::now();
    auto id = signer_.issue(version, issued, principal);
    conv->set_session_tag(ops::log_tag(id));
    std::shared_ptr<conversation> reclaimed;
    {
        std::lock_guard lock(mutex_);
        if (!principal.empty() && count_of(principal) >= max_per_principal_) {
            auto lru = idle_lru_of(principal);
            if (lru == sessions_.end()) {
                return refusal::principal_full;
            }
            reclaimed = lru->second.conv;
            remember_ended(lru->first, lru->second.issued);
            sessions_.erase(lru);
            ++evicted_;
        }
        if (sessions_.size() >= max_sessions_) {
            return refusal::server_full;
        }
        sessions_[id] = { std::move(conv), clock::now(), principal, issued };
        ++opened_;
    }
    if (reclaimed) {
        spdlog::info("session limit of a client reached (--max-sessions-per-principal): its "
                     "least recently used idle session was ended");
        r.cancel_all(*reclaimed);
    }
    return id;
}

session_registry::refusal session_registry::room_for(std::string const& principal) const
{
    std::lock_guard lock(mutex_);
    if (!principal.empty() && count_of(principal) >= max_per_principal_) {
        bool const any_idle = std::any_of(sessions_.begin(), sessions_.end(), [&](auto const& e) {
            return e.second.principal == principal && !e.second.conv->has_calls_in_flight();
        });
        if (!any_idle) {
            return refusal::principal_full;
        }
    }
    return sessions_.size() < max_sessions_ ? refusal::none : refusal::server_full;
}

void session_registry::cancel_all(router& r)
{
    std::vector<std::shared_ptr<conversation>> live;
    {
        std::lock_guard lock(mutex_);
        for (auto& [id, e] : sessions_) {
            live.push_back(e.conv);
        }
    }
    for (auto& conv : live) {
        r.cancel_all(*conv);
    }
}

std::shared_ptr<conversation> session_registry::find(
    std::string const& id, std::string const& principal)
{
    std::lock_guard lock(mutex_);
    if (auto it = sessions_.find(id); it != sessions_.end()) {
        if (it->second.principal != principal) {
            return nullptr; // H16: never another client's session
        }
        if (is_expired(it->second, clock::now())) {
            return nullptr; // expired; the sweep removes it
        }
        it->second.last_used = clock::now();
        return it->second.conv;
    }
    auto claims = signer_.verify(id, principal); // signed for this principal only
    if (!claims || std::chrono::system_clock::now() - claims->issued > max_age_
        || was_ended(id, claims->issued) || sessions_.size() >= max_sessions_) {
        return nullptr; // (full: the client's initialize then gets the --max-sessions error)
    }
    // Issued by a replica sharing our key: carry on with its negotiated version.
    auto conv = std::make_shared<conversation>(executor_);
    conv->adopt(claims->version);
    conv->set_session_tag(ops::log_tag(id));
    sessions_[id] = { conv, clock::now(), principal, claims->issued };
    ++adopted_;
    return conv;
}

bool session_registry::end(std::string const& id, router& r, std::string const& principal)
{
    std::shared_ptr<conversation> conv;
    {
        std::lock_guard lock(mutex_);
        auto it = sessions_.find(id);
        if (it != sessions_.end() && it->second.principal != principal) {
            return false; // H16: another client cannot end it either
        }
        if (it == sessions_.end()) {
            auto claims = signer_.verify(id, principal);
            if (!claims || was_ended(id, claims->issued)) {
                return false;
            }
            remember_ended(id, claims->issued); // another replica's session: end it here too
            ++deleted_;
            return true;
        }
        conv = it->second.conv;
        remember_ended(id, it->second.issued);
        sessions_.erase(it);
        ++deleted_;
    }
    r.cancel_all(*conv);
    return true;
}

void session_registry::end_as_elsewhere(
    std::string const& id, std::chrono::system_clock::time_point issued, router& r)
{
    std::shared_ptr<conversation> conv;
    {
        std::lock_guard lock(mutex_);
        if (auto it = sessions_.find(id); it != sessions_.end()) {
            conv = it->second.conv;
            sessions_.erase(it);
            ++deleted_;
        }
        remember_ended(id, issued);
    }
    if (conv) {
        spdlog::debug("a session ended by another replica's DELETE ended here too");
        r.cancel_all(*conv);
    }
}

boost::asio::awaitable<std::shared_ptr<conversation>> session_registry::find_shared(
    std::string id, std::string principal, router& r)
{
    auto claims = shared_ ? signer_.verify(id, principal) : std::nullopt;
    if (!claims) {
        co_return find(id, principal); // no shared store, or refused without asking it
    }
    {
        std::lock_guard lock(mutex_);
        if (was_ended(id, claims->issued)) {
            co_return nullptr;
        }
    }
    auto ended = co_await shared_->is_ended(state::digest_of(id));
    if (!ended) {
        spdlog::debug("session lookup without the state store ({}): this replica decides",
            ended.error().message);
    } else if (*ended) {
        end_as_elsewhere(id, claims->issued, r);
        co_return nullptr;
    }
    co_return find(id, principal);
}

boost::asio::awaitable<bool> session_registry::end_shared(
    std::string id, router& r, std::string principal)
{
    auto claims = shared_ ? signer_.verify(id, principal) : std::nullopt;
    if (!claims) {
        co_return end(id, r, principal);
    }
    {
        std::lock_guard lock(mutex_);
        if (was_ended(id, claims->issued)) {
            co_return false;
        }
    }
    auto marked = co_await shared_->mark_ended(state::digest_of(id), expiry_of(claims->issued));
    if (marked && !*marked) {
        end_as_elsewhere(id, claims->issued, r); // another replica's DELETE came first
        co_return false;
    }
    if (!marked) {
        spdlog::warn("a session was ended without the state store ({}): the end is final on "
                     "this replica only",
            marked.error().message);
    }
    co_return end(id, r, principal);
}

void session_registry::expire_idle(router& r)
{
    std::vector<std::shared_ptr<conversation>> expired;
    {
        std::lock_guard lock(mutex_);
        auto const now = clock::now();
        for (auto it = sessions_.begin(); it != sessions_.end();) {
            if (is_expired(it->second, now)) {
                ++expired_;
                expired.push_back(it->second.conv);
                remember_ended(it->first, it->second.issued);
                it = sessions_.erase(it);
            } else {
                ++it;
            }
        }
        // An id past its maximum age is refused by its signature's time alone: no need to
        // remember it any longer.
        // Rounded up like the expiries: an expiry before the next whole second has passed.
        ended_.forget_expired(std::chrono::ceil<std::chrono::seconds>(
            std::chrono::system_clock::now().time_since_epoch())
                                  .count());
    }
    for (auto& conv : expired) {
        r.cancel_all(*conv);
    }
    if (!expired.empty()) {
        spdlog::info("expired {} idle session(s)", expired.size());
    }
}

std::size_t session_registry::ended_count() const
{
    std::lock_guard lock(mutex_);
    return ended_.size();
}

std::size_t session_registry::ended_bytes() const
{
    std::lock_guard lock(mutex_);
    return ended_.bytes();
}

session_registry::session_counts session_registry::counts() const
{
    session_counts out;
    out.live = size();
    out.opened = opened_;
    out.adopted = adopted_;
    out.deleted = deleted_;
    out.expired = expired_;
    out.evicted = evicted_;
    return out;
}

std::size_t session_registry::size() const
{
    std::lock_guard lock(mutex_);
    return sessions_.size();
}

} // namespace toolgate::mcp
