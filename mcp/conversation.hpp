// One 2025 conversation (a stdio process or one HTTP session): its negotiated protocol state
// and the tool calls it has in flight, behind one lock that stays inside this class.
#pragma once

#include "mcp/client_requests.hpp"
#include "mcp/unsolicited_outbox.hpp"
#include "protocol/dispatcher.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/strand.hpp>
#include <boost/system/result.hpp>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace toolgate::mcp {

/// A tool call in flight in a conversation: where it runs and how to cancel it.
struct inflight_call {
    explicit inflight_call(boost::asio::any_io_executor ex)
        : executor(std::move(ex))
    {
    }
    /// Cancels the call: the signal is emitted on the call's own executor (the only place a
    /// cancellation signal may be used); `cancelled` is set at once.
    void cancel(std::shared_ptr<inflight_call> const& self);

    boost::asio::any_io_executor executor; ///< where the call runs
    boost::asio::cancellation_signal signal; ///< emitted on `executor` only
    std::atomic<bool> cancelled { false };
};

class conversation {
public:
    explicit conversation(boost::asio::any_io_executor executor);
    conversation(conversation const&) = delete;
    conversation& operator=(conversation const&) = delete;

    /// Where the conversation's stdio calls and batches run.
    boost::asio::strand<boost::asio::any_io_executor> const& strand() const { return strand_; }

    /// Decides `msg` against this conversation's state (initialize and logging/setLevel change
    /// it).
    protocol::outcome dispatch(protocol::dispatcher const& dispatcher, protocol::message const& msg,
        std::shared_ptr<protocol::tool_view const> const& view);
    /// Takes over a session another replica opened (its signed id names the revision).
    void adopt(std::string version);
    /// The revision initialize negotiated ("" before).
    std::string negotiated_version() const;
    /// Whether JSON-RPC batches may be served: initialized with revision 2025-03-26.
    bool takes_batches() const;
    /// The elicitation modes initialize declared (none before, and none for an adopted
    /// session: its id does not carry them).
    protocol::elicitation_modes elicitation() const;

    /// Requests of the server to this client and their answers (2025 elicitation).
    client_requests& requests() { return requests_; }
    /// Messages to this client outside any of its requests.
    unsolicited_outbox& outbox() { return outbox_; }

    /// A short hash of the HTTP session id, for logs ("" on stdio). Set once, before the
    /// session is registered, read-only afterwards.
    void set_session_tag(std::string tag) { session_tag_ = std::move(tag); }
    std::string const& session_tag() const { return session_tag_; }

    /// Why a call could not be registered.
    enum class refusal { duplicate_id, full };
    /// Registers a call under `key` (its id as JSON text), to run on `runs_on`.
    boost::system::result<std::shared_ptr<inflight_call>, refusal> register_call(
        std::string const& key, boost::asio::any_io_executor runs_on, std::size_t limit);
    /// The same for an entry the caller made (its signal already cancels the call).
    boost::system::result<std::shared_ptr<inflight_call>, refusal> register_call(
        std::string const& key, std::shared_ptr<inflight_call> entry, std::size_t limit);
    void unregister_call(std::string const& key);
    /// Cancels the call registered under `key`; an unknown key is ignored (CN2).
    void cancel_call(std::string const& key);
    /// Cancels every call in flight (stdin EOF, session end, shutdown).
    void cancel_all_calls();
    /// The conversation is over: its calls are cancelled, the requests waiting for the client
    /// end and its outbox closes.
    void end();
    bool has_calls_in_flight() const;

private:
    boost::asio::strand<boost::asio::any_io_executor> strand_;
    mutable std::mutex mutex_;
    protocol::legacy_session session_; ///< guarded by mutex_
    std::unordered_map<std::string, std::shared_ptr<inflight_call>> inflight_; ///< guarded
    std::string session_tag_;
    client_requests requests_;
    unsolicited_outbox outbox_;
};

} // namespace toolgate::mcp
