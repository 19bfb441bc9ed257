// Pacing toward the platforms (docs/controlling-writes.md "Pacing"): at most N requests in any
// window of S seconds per platform credential (--upstream-rate Toolkit=N/S, with defaults from
// the platforms' published per-credential limits), so that many agents sharing one credential
// queue here instead of collecting 429s. A request waits for its turn in front of the outbound
// client; one that would wait past its call's deadline is refused at once with the wait.
#pragma once

#include "transport/outbound_observer.hpp"

#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
}

namespace toolgate::toolkits {

/// The pacing flags (added by add_pacing_options).
struct pacing_options {
    /// --upstream-rate Toolkit=N/SECONDS (repeatable), or Toolkit=off to lift a default.
    std::vector<std::string> rates;
};

void add_pacing_options(CLI::App& app, pacing_options& options);

/// N requests in any window of `window`.
struct upstream_rate {
    std::uint32_t requests = 0;
    std::chrono::milliseconds window { 0 };
};

/// Each toolkit's rate in force: the defaults, then the flags. Throws std::invalid_argument
/// naming a flag that is not `Toolkit=N/SECONDS` or `Toolkit=off`, or an unknown toolkit.
std::map<std::string, upstream_rate, std::less<>> read_rates(pacing_options const& options);

/// The request header whose value is part of a toolkit's pacing key beside its credential
/// (the accounting platform limits each tenant of a token); "" for none.
std::string_view pacing_key_header(std::string_view toolkit);

class upstream_pacer {
public:
    /// `rates` by toolkit; toolkits without one are not paced.
    explicit upstream_pacer(std::map<std::string, upstream_rate, std::less<>> rates);
    ~upstream_pacer();
    upstream_pacer(upstream_pacer const&) = delete;
    upstream_pacer& operator=(upstream_pacer const&) = delete;

    struct key_state;

    /// One request's place in its credential's window: the window counts the request from
    /// its answer on (done()), so that however late it reached the platform, the next one's
    /// turn comes a full window after. A place never used is given back.
    class turn {
    public:
        turn() = default;
        turn(std::shared_ptr<key_state> state, std::size_t entry, std::int64_t previous);
        turn(turn&& other) noexcept;
        turn& operator=(turn&& other) noexcept;
        turn(turn const&) = delete;
        ~turn();
        /// The request got its answer (or failed after being sent).
        void done();

    private:
        /// Gives the place back as it was (never sent).
        void give_back() noexcept;

        std::shared_ptr<key_state> state_;
        std::size_t entry_ = 0;
        std::int64_t previous_ = 0;
    };

    struct wait_result {
        enum class kind { go, refused, cancelled } state = kind::go;
        /// refused: how long the request would have had to wait (at least).
        std::chrono::milliseconds wait { 0 };
        std::chrono::milliseconds waited { 0 }; ///< go: how long it waited
        turn place; ///< go: hold until the answer, then done()
        upstream_rate rate; ///< the toolkit's rate (for messages)
    };

    /// Whether `toolkit` is paced at all.
    bool paces(std::string_view toolkit) const;
    /// Waits for a turn of `key` (a digest naming the credential, never the credential) under
    /// `toolkit`'s rate, or refuses at once when the turn comes after `deadline`. The caller's
    /// cancellation slot ends the wait (cancelled). Thread-safe.
    boost::asio::awaitable<wait_result> wait_turn(
        std::string_view toolkit, std::string key, std::chrono::steady_clock::time_point deadline);

    /// Told of every wait and refusal from now on (metrics); null: nobody. Set before serving.
    void set_observer(transport::outbound_observer* observer) { observer_ = observer; }
    std::map<std::string, upstream_rate, std::less<>> const& rates() const { return rates_; }

private:
    std::shared_ptr<key_state> state_of(std::string_view toolkit, std::string const& key,
        upstream_rate rate, std::chrono::steady_clock::time_point now);

    std::map<std::string, upstream_rate, std::less<>> rates_;
    std::mutex mutex_; ///< guards keys_ (each key's state has a lock of its own)
    std::map<std::string, std::shared_ptr<key_state>, std::less<>> keys_;
    transport::outbound_observer* observer_ = nullptr;
};

} // namespace toolgate::toolkits
