// Session bookkeeping for legacy HTTP clients.
#include "server/session_registry.hpp"

#include <spdlog/spdlog.h>

namespace toolgate::server {

session_registry::session_registry(boost::asio::any_io_executor executor,
                                   transport::session_signer signer,
                                   std::chrono::seconds idle_timeout, std::chrono::seconds max_age)
    : executor_(std::move(executor)), signer_(std::move(signer)), idle_timeout_(idle_timeout),
      max_age_(max_age)
{
}

std::shared_ptr<conversation> session_registry::make_conversation() const
{
    return std::make_shared<conversation>(executor_);
}

std::string session_registry::open(std::shared_ptr<conversation> conv, std::string const& version,
                                   std::string const& principal)
{
    auto id = signer_.issue(version, std::chrono::system_clock::now(), principal);
    std::lock_guard lock(mutex_);
    sessions_[id] = {std::move(conv), clock::now(), principal};
    return id;
}

std::optional<std::string> session_registry::try_open(std::shared_ptr<conversation> conv,
                                                       std::string const& version,
                                                       std::string const& principal)
{
    auto id = signer_.issue(version, std::chrono::system_clock::now(), principal);
    std::lock_guard lock(mutex_);
    if (sessions_.size() >= max_sessions_) {
        return std::nullopt;
    }
    sessions_[id] = {std::move(conv), clock::now(), principal};
    return id;
}

bool session_registry::has_room() const
{
    std::lock_guard lock(mutex_);
    return sessions_.size() < max_sessions_;
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

std::shared_ptr<conversation> session_registry::find(std::string const& id,
                                                     std::string const& principal)
{
    std::lock_guard lock(mutex_);
    if (auto it = sessions_.find(id); it != sessions_.end()) {
        if (it->second.principal != principal) {
            return nullptr; // H16: never another client's session
        }
        if (clock::now() - it->second.last_used > idle_timeout_) {
            return nullptr; // expired; the sweep removes it
        }
        it->second.last_used = clock::now();
        return it->second.conv;
    }
    if (ended_.contains(id)) {
        return nullptr;
    }
    auto claims = signer_.verify(id, principal); // signed for this principal only
    if (!claims || std::chrono::system_clock::now() - claims->issued > max_age_ ||
        sessions_.size() >= max_sessions_) {
        return nullptr; // (full: the client's initialize then gets the --max-sessions error)
    }
    // Issued by a replica sharing our key: carry on with its negotiated version.
    auto conv = std::make_shared<conversation>(executor_);
    conv->session.initialized = true;
    conv->session.version = claims->version;
    sessions_[id] = {conv, clock::now(), principal};
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
            if (ended_.contains(id) || !signer_.verify(id, principal)) {
                return false;
            }
            ended_.insert(id); // another replica's session: end it here too
            return true;
        }
        conv = it->second.conv;
        sessions_.erase(it);
        ended_.insert(id);
    }
    r.cancel_all(*conv);
    return true;
}

void session_registry::expire_idle(router& r)
{
    std::vector<std::shared_ptr<conversation>> expired;
    {
        std::lock_guard lock(mutex_);
        auto const now = clock::now();
        for (auto it = sessions_.begin(); it != sessions_.end();) {
            if (now - it->second.last_used > idle_timeout_) {
                expired.push_back(it->second.conv);
                ended_.insert(it->first);
                it = sessions_.erase(it);
            } else {
                ++it;
            }
        }
    }
    for (auto& conv : expired) {
        r.cancel_all(*conv);
    }
    if (!expired.empty()) {
        spdlog::info("expired {} idle session(s)", expired.size());
    }
}

std::size_t session_registry::size() const
{
    std::lock_guard lock(mutex_);
    return sessions_.size();
}

} // namespace toolgate::server
