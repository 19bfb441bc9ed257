// Legacy Streamable HTTP sessions: ids are signed (transport::session_signer), state lives in
// this replica's memory. A valid id this replica has never seen (another replica issued it)
// is adopted with default settings until its maximum age (docs/decisions.md "Sessions and scale").
#pragma once

#include "mcp/router.hpp"
#include "state/ended_ids.hpp"
#include "state/shared_ended_ids.hpp"
#include "transport/session_token.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/system/result.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace toolgate::mcp {

class session_registry {
public:
    using clock = std::chrono::steady_clock;

    /// `ended_bound`: how many ended ids are remembered at most (state::ended_id_table).
    session_registry(boost::asio::any_io_executor executor, transport::session_signer signer,
        std::chrono::seconds idle_timeout, std::chrono::seconds max_age,
        std::size_t ended_bound = state::ended_id_table::default_bound);

    /// A fresh conversation and its id (the caller runs initialize on it first; the id is
    /// issued only when initialize succeeded, via `open`).
    std::shared_ptr<conversation> make_conversation() const;
    /// Registers `conv` (already initialized at `version`) for `principal` (the
    /// authenticated client, empty without client auth) and returns its new id.
    std::string open(std::shared_ptr<conversation> conv, std::string const& version,
        std::string const& principal = {});
    /// Why a session could not be opened.
    enum class refusal { none, server_full, principal_full };
    /// As `open`, but refused when `max_sessions` sessions are live already (--max-sessions),
    /// or when `principal` (non-empty: client authentication is on) holds its own maximum
    /// (--max-sessions-per-principal) and none of its sessions is idle: an idle one (no call
    /// in flight), the least recently used, is ended to make room first (security review 7).
    boost::system::result<std::string, refusal> try_open(std::shared_ptr<conversation> conv,
        std::string const& version, std::string const& principal, router& r);
    /// Whether one more session fits under the limits now, for `principal`.
    refusal room_for(std::string const& principal) const;
    void set_max_sessions(std::size_t limit) { max_sessions_ = limit; }
    std::size_t max_sessions() const { return max_sessions_; }
    void set_max_sessions_per_principal(std::size_t limit) { max_per_principal_ = limit; }
    std::size_t max_sessions_per_principal() const { return max_per_principal_; }
    /// The live conversation for `id`, or null when the id is unknown, forged, ended,
    /// expired or belongs to another principal (the client must initialize again: 404, H16).
    std::shared_ptr<conversation> find(std::string const& id, std::string const& principal = {});
    /// Ends a session (DELETE) of `principal`. False when there was none to end.
    bool end(std::string const& id, router& r, std::string const& principal = {});

    /// Ended ids shared with the other replicas (--state-store): from then on find_shared and
    /// end_shared consult it. Set before serving.
    void share_ended_ids(std::shared_ptr<state::shared_ended_ids> shared)
    {
        shared_ = std::move(shared);
    }
    /// As find, but an id another replica ended is not found here either (and a live session
    /// of it here ends). When the shared store cannot answer, this replica's own knowledge
    /// decides (a request is not refused for it).
    boost::asio::awaitable<std::shared_ptr<conversation>> find_shared(
        std::string id, std::string principal, router& r);
    /// As end, and the end is recorded for every replica; false (404) when another replica
    /// ended it first. `r` outlives the call.
    boost::asio::awaitable<bool> end_shared(std::string id, router& r, std::string principal);
    /// Drops sessions idle past the timeout or older than the maximum age, cancelling their
    /// calls, and forgets ended ids whose maximum age has passed.
    void expire_idle(router& r);
    /// Ended ids still remembered (tests, metrics).
    std::size_t ended_count() const;
    /// Bytes the remembered ended ids take (tests).
    std::size_t ended_bytes() const;
    /// Cancels the calls of every live session (the end of a shutdown's grace period).
    void cancel_all(router& r);
    std::size_t size() const;

    /// For metrics: live sessions, and how many were opened and ended here, and how.
    struct session_counts {
        std::size_t live = 0;
        std::uint64_t opened = 0; ///< by initialize on this replica
        std::uint64_t adopted = 0; ///< a signed id issued by another replica (or before a restart)
        std::uint64_t deleted = 0; ///< DELETE
        std::uint64_t expired = 0; ///< idle timeout or maximum age
        std::uint64_t evicted = 0; ///< a client's least recently used idle one, for a new one
    };
    session_counts counts() const;

private:
    struct entry {
        std::shared_ptr<conversation> conv;
        clock::time_point last_used;
        std::string principal;
        std::chrono::system_clock::time_point issued; ///< from the id: --session-max-age
    };
    /// Whether `e` is past its idle timeout or its maximum age (caller holds mutex_).
    bool is_expired(entry const& e, clock::time_point now) const;
    /// Remembers `id` as ended until its maximum age has passed (caller holds mutex_).
    void remember_ended(std::string const& id, std::chrono::system_clock::time_point issued);
    /// Ends `id` here because another replica ended it: its live session, if any, goes.
    void end_as_elsewhere(
        std::string const& id, std::chrono::system_clock::time_point issued, router& r);
    /// Whether `id`, issued at `issued`, was ended (caller holds mutex_).
    bool was_ended(std::string const& id, std::chrono::system_clock::time_point issued) const;
    /// The Unix second an id issued at `issued` stops being valid.
    std::int64_t expiry_of(std::chrono::system_clock::time_point issued) const;
    boost::asio::any_io_executor executor_;
    transport::session_signer signer_;
    std::chrono::seconds idle_timeout_;
    std::chrono::seconds max_age_;
    /// Sessions of `principal`, and its least recently used one without calls in flight
    /// (caller holds mutex_).
    std::size_t count_of(std::string const& principal) const;
    std::unordered_map<std::string, entry>::iterator idle_lru_of(std::string const& principal);

    std::atomic<std::uint64_t> opened_ { 0 };
    std::atomic<std::uint64_t> adopted_ { 0 };
    std::atomic<std::uint64_t> deleted_ { 0 };
    std::atomic<std::uint64_t> expired_ { 0 };
    std::atomic<std::uint64_t> evicted_ { 0 };
    std::atomic<std::size_t> max_sessions_ { 1024 };
    std::atomic<std::size_t> max_per_principal_ { 64 };
    mutable std::mutex mutex_;
    std::unordered_map<std::string, entry> sessions_;
    /// Ended or expired here, never to be adopted again, as digests with the time each id stops
    /// being valid anyway (issued + max age): dropped then; bounded in number (security
    /// review 8, issue 27).
    state::ended_id_table ended_;
    std::shared_ptr<state::shared_ended_ids> shared_; ///< null: this replica only
};

} // namespace toolgate::mcp
