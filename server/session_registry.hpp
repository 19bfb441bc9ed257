// Legacy Streamable HTTP sessions: ids are signed (transport::session_signer), state lives in
// this replica's memory. A valid id this replica has never seen (another replica issued it)
// is adopted with default settings until its maximum age (DECISIONS "Sessions and scale").
#pragma once

#include "server/router.hpp"
#include "transport/session_token.hpp"

#include <boost/asio/any_io_executor.hpp>

#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace toolgate::server {

class session_registry {
public:
    using clock = std::chrono::steady_clock;

    session_registry(boost::asio::any_io_executor executor, transport::session_signer signer,
                     std::chrono::seconds idle_timeout, std::chrono::seconds max_age);

    /// A fresh conversation and its id (the caller runs initialize on it first; the id is
    /// issued only when initialize succeeded, via `open`).
    std::shared_ptr<conversation> make_conversation() const;
    /// Registers `conv` (already initialized at `version`) and returns its new id.
    std::string open(std::shared_ptr<conversation> conv, std::string const& version);
    /// The live conversation for `id`, or null when the id is unknown, forged, ended or
    /// expired (the client must initialize again: 404).
    std::shared_ptr<conversation> find(std::string const& id);
    /// Ends a session (DELETE). False when there was none to end.
    bool end(std::string const& id, router& r);
    /// Drops sessions idle past the timeout, cancelling their calls.
    void expire_idle(router& r);
    std::size_t size() const;

private:
    struct entry {
        std::shared_ptr<conversation> conv;
        clock::time_point last_used;
    };
    boost::asio::any_io_executor executor_;
    transport::session_signer signer_;
    std::chrono::seconds idle_timeout_;
    std::chrono::seconds max_age_;
    mutable std::mutex mutex_;
    std::unordered_map<std::string, entry> sessions_;
    std::unordered_set<std::string> ended_; ///< ended or expired here: never adopted again
};

} // namespace toolgate::server
