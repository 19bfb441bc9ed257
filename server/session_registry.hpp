// Legacy Streamable HTTP sessions: ids are signed (transport::session_signer), state lives in
// this replica's memory. A valid id this replica has never seen (another replica issued it)
// is adopted with default settings until its maximum age (DECISIONS "Sessions and scale").
#pragma once

#include "server/router.hpp"
#include "transport/session_token.hpp"

#include <boost/asio/any_io_executor.hpp>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
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
    /// Registers `conv` (already initialized at `version`) for `principal` (the
    /// authenticated client, empty without client auth) and returns its new id.
    std::string open(std::shared_ptr<conversation> conv, std::string const& version,
                     std::string const& principal = {});
    /// As `open`, but nullopt when `max_sessions` sessions are live already (--max-sessions).
    std::optional<std::string> try_open(std::shared_ptr<conversation> conv,
                                        std::string const& version,
                                        std::string const& principal = {});
    /// Whether one more session fits under the limit now.
    bool has_room() const;
    void set_max_sessions(std::size_t limit) { max_sessions_ = limit; }
    std::size_t max_sessions() const { return max_sessions_; }
    /// The live conversation for `id`, or null when the id is unknown, forged, ended,
    /// expired or belongs to another principal (the client must initialize again: 404, H16).
    std::shared_ptr<conversation> find(std::string const& id, std::string const& principal = {});
    /// Ends a session (DELETE) of `principal`. False when there was none to end.
    bool end(std::string const& id, router& r, std::string const& principal = {});
    /// Drops sessions idle past the timeout, cancelling their calls.
    void expire_idle(router& r);
    /// Cancels the calls of every live session (the end of a shutdown's grace period).
    void cancel_all(router& r);
    std::size_t size() const;

private:
    struct entry {
        std::shared_ptr<conversation> conv;
        clock::time_point last_used;
        std::string principal;
    };
    boost::asio::any_io_executor executor_;
    transport::session_signer signer_;
    std::chrono::seconds idle_timeout_;
    std::chrono::seconds max_age_;
    std::atomic<std::size_t> max_sessions_{1024};
    mutable std::mutex mutex_;
    std::unordered_map<std::string, entry> sessions_;
    std::unordered_set<std::string> ended_; ///< ended or expired here: never adopted again
};

} // namespace toolgate::server
