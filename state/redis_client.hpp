// The Redis client replicas share state through: hiredis's asynchronous API driven from the
// Asio event loop (its socket watched by an Asio descriptor on a strand of ours), so no thread
// that serves requests ever blocks on Redis. Every command has a deadline; a connection that
// misses one, or breaks, is dropped and made again with backoff. While there is none, commands
// fail at once with a sentence saying so.
#pragma once

#include "common/result.hpp"
#include "state/redis_endpoint.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

struct redisAsyncContext;

namespace toolgate::state {

/// One Redis reply.
struct redis_reply {
    enum class kind { nil, string, integer, array, status, error };
    kind type = kind::nil;
    std::string text; ///< string, status or error
    long long integer = 0;
    std::vector<redis_reply> elements;

    bool is_nil() const { return type == kind::nil; }
    bool is_error() const { return type == kind::error; }
};

/// Told of every command's end (not a connection's set-up), on the client's strand; must be
/// cheap and thread-safe (metrics: atomics).
class command_observer {
public:
    virtual ~command_observer() = default;
    /// `answered`: Redis replied (an error reply counts); false: down, timed out, dropped.
    virtual void on_command(std::chrono::nanoseconds duration, bool answered) noexcept = 0;
};

struct redis_client_options {
    /// How long one command may take, and a connection's set-up (connect, AUTH, SELECT).
    std::chrono::milliseconds command_timeout { 1500 };
    std::chrono::milliseconds connect_timeout { 2000 };
    /// Reconnection: the first pause, doubled after each failure up to the last (±20%).
    std::chrono::milliseconds first_backoff { 100 };
    std::chrono::milliseconds max_backoff { 3000 };
};

/// What /readyz and /metrics show of the store.
struct redis_status {
    bool connected = false;
    std::uint64_t commands = 0;
    std::uint64_t failures = 0; ///< commands without an answer (down, timed out, dropped)
    std::uint64_t connects = 0; ///< connections made (the first and every reconnection)
};

class redis_client : public std::enable_shared_from_this<redis_client> {
public:
    static std::shared_ptr<redis_client> make(
        boost::asio::any_io_executor executor, redis_endpoint endpoint, redis_client_options o);
    ~redis_client();
    redis_client(redis_client const&) = delete;
    redis_client& operator=(redis_client const&) = delete;

    /// Starts connecting (and reconnecting, until stop()). Returns at once.
    void start();
    /// Drops the connection and stops reconnecting; commands fail from then on.
    void stop();

    /// Runs one command (`args` as Redis's argument vector, binary-safe). An error reply is a
    /// reply; no answer in time, or no connection, is a problem naming the store. Callable from
    /// any executor.
    boost::asio::awaitable<common::checked<redis_reply>> command(std::vector<std::string> args);

    redis_status status() const;
    /// Sets (or, with null, clears) who is told of each command; it must outlive the client's
    /// use or be cleared first.
    void set_observer(command_observer* observer) { observer_ = observer; }
    redis_endpoint const& endpoint() const { return endpoint_; }

    struct watch; ///< the socket's Asio side (internal)
    struct pending; ///< one command waiting for its reply (internal)
    /// Internal, for the socket hooks (on strand_): why the connection failed, and that
    /// hiredis freed it.
    void note_problem(std::string why);
    void on_context_gone();

private:
    redis_client(boost::asio::any_io_executor executor, redis_endpoint endpoint,
        redis_client_options options);

    boost::asio::awaitable<common::checked<redis_reply>> run(
        std::vector<std::string> args, bool setup);
    boost::asio::awaitable<void> keep_connected();
    boost::asio::awaitable<void> wait_for_first_connection();
    boost::asio::awaitable<common::checked<void>> connect_once();
    boost::asio::awaitable<common::checked<void>> handshake();
    /// Frees the context (its pending commands fail); `why` goes to the log.
    void drop(std::string const& why);

    using strand_type = boost::asio::strand<boost::asio::any_io_executor>;
    strand_type strand_;
    redis_endpoint endpoint_;
    redis_client_options options_;
    redisAsyncContext* context_ = nullptr; ///< on strand_ only
    std::shared_ptr<watch> watch_;
    boost::asio::steady_timer lost_; ///< cancelled when the connection goes
    bool stopped_ = false;
    bool first_attempt_done_ = false; ///< commands wait for the first connection attempt
    std::string last_problem_; ///< why the last connection attempt or connection ended

    std::atomic<command_observer*> observer_ { nullptr };
    std::atomic<bool> ready_ { false };
    std::atomic<std::uint64_t> commands_ { 0 };
    std::atomic<std::uint64_t> failures_ { 0 };
    std::atomic<std::uint64_t> connects_ { 0 };
};

} // namespace toolgate::state
