// Pacing toward the platforms (see upstream_pacer.hpp). Each credential key has N places; a
// place holds the time its last request was answered, and comes free a window after that. A
// request takes the place that comes free first and waits for it. Because a place counts from
// the answer, not the sending, no window at the platform ever sees more than N requests
// however the network delays them (the platforms count what reaches them).
#include "toolkits/upstream_pacer.hpp"

#include "toolkits/catalogue.hpp"

#include <CLI/App.hpp>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <limits>
#include <stdexcept>

namespace toolgate::toolkits {
namespace asio = boost::asio;
using std::chrono::steady_clock;

namespace {

constexpr std::int64_t never_used = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t taken = std::numeric_limits<std::int64_t>::max();
/// With every place in flight, how often to look again for one that has come back.
constexpr auto in_flight_poll = std::chrono::milliseconds(25);
/// Past this many keys, idle ones are forgotten (memory follows the credentials in use).
constexpr std::size_t keys_kept = 4096;

/// The platforms' published limits where they are per credential (docs/controlling-writes.md
/// lists the sources): the card boards per token, the accounting platform per tenant, the
/// storage platform per user, the search platform's search endpoint per key.
struct default_rate {
    std::string_view toolkit;
    std::uint32_t requests;
    std::chrono::seconds window;
};
constexpr default_rate defaults[] = {
    { "KanbanApi", 100, std::chrono::seconds(10) },
    { "LedgerApi", 60, std::chrono::seconds(60) },
    { "StoreApi", 1000, std::chrono::seconds(60) },
    { "SearchApi", 10, std::chrono::seconds(1) },
};

std::int64_t ticks(steady_clock::time_point t)
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

steady_clock::time_point at(std::int64_t ns)
{
    return steady_clock::time_point(std::chrono::nanoseconds(ns));
}

upstream_rate parse_rate(std::string_view text, std::string const& flag)
{
    auto const slash = text.find('/');
    auto const number = [&](std::string_view part, std::uint32_t& out) {
        auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), out);
        return ec == std::errc() && end == part.data() + part.size() && out > 0;
    };
    std::uint32_t requests = 0;
    std::uint32_t seconds = 0;
    if (slash == std::string_view::npos || !number(text.substr(0, slash), requests)
        || !number(text.substr(slash + 1), seconds) || seconds > 86400) {
        throw std::invalid_argument(fmt::format(
            "--upstream-rate {}: expected Toolkit=N/SECONDS (e.g. KanbanApi=100/10: at most "
            "100 requests in any 10 seconds per credential) or Toolkit=off",
            flag));
    }
    return { requests, std::chrono::seconds(seconds) };
}

} // namespace

struct upstream_pacer::key_state {
    std::mutex mutex;
    upstream_rate rate;
    std::vector<std::int64_t> places; ///< never_used, taken, or when its last answer came
};

void add_pacing_options(CLI::App& app, pacing_options& options)
{
    app.add_option("--upstream-rate", options.rates,
        "at most N requests in any SECONDS to a toolkit's platform per credential, "
        "Toolkit=N/SECONDS, or Toolkit=off to lift a default (repeatable; defaults: "
        "KanbanApi=100/10, LedgerApi=60/60 per tenant, StoreApi=1000/60, SearchApi=10/1)");
}

std::map<std::string, upstream_rate, std::less<>> read_rates(pacing_options const& options)
{
    std::map<std::string, upstream_rate, std::less<>> rates;
    for (auto const& d : defaults) {
        rates[std::string(d.toolkit)] = { d.requests, d.window };
    }
    for (auto const& flag : options.rates) {
        auto const eq = flag.find('=');
        auto const toolkit = flag.substr(0, eq);
        if (eq == std::string::npos || find_toolkit(toolkit) == nullptr) {
            throw std::invalid_argument(
                fmt::format("--upstream-rate {}: expected Toolkit=N/SECONDS with a toolkit's name "
                            "(see --list-toolkits)",
                    flag));
        }
        auto const value = std::string_view(flag).substr(eq + 1);
        if (value == "off") {
            rates.erase(toolkit);
        } else {
            rates[toolkit] = parse_rate(value, flag);
        }
    }
    return rates;
}

std::string_view pacing_key_header(std::string_view toolkit)
{
    // The accounting platform's minute limit is per tenant of a connection.
    return toolkit == "LedgerApi" ? "xero-tenant-id" : "";
}

upstream_pacer::upstream_pacer(std::map<std::string, upstream_rate, std::less<>> rates)
    : rates_(std::move(rates))
{
}

upstream_pacer::~upstream_pacer() = default;

upstream_pacer::turn::turn(
    std::shared_ptr<key_state> state, std::size_t entry, std::int64_t previous)
    : state_(std::move(state))
    , entry_(entry)
    , previous_(previous)
{
}

upstream_pacer::turn::turn(turn&& other) noexcept
    : state_(std::move(other.state_))
    , entry_(other.entry_)
    , previous_(other.previous_)
{
}

upstream_pacer::turn& upstream_pacer::turn::operator=(turn&& other) noexcept
{
    if (this != &other) {
        give_back();
        state_ = std::move(other.state_);
        entry_ = other.entry_;
        previous_ = other.previous_;
    }
    return *this;
}

upstream_pacer::turn::~turn()
{
    give_back();
}

void upstream_pacer::turn::give_back() noexcept
{
    if (state_) { // never sent (cancelled, refused): the place is as it was
        std::lock_guard lock(state_->mutex);
        state_->places[entry_] = previous_;
        state_.reset();
    }
}

void upstream_pacer::turn::done()
{
    if (state_) {
        std::lock_guard lock(state_->mutex);
        state_->places[entry_] = ticks(steady_clock::now());
        state_.reset();
    }
}

bool upstream_pacer::paces(std::string_view toolkit) const
{
    return rates_.find(toolkit) != rates_.end();
}

std::shared_ptr<upstream_pacer::key_state> upstream_pacer::state_of(std::string_view toolkit,
    std::string const& key, upstream_rate rate, steady_clock::time_point now)
{
    auto const name = std::string(toolkit) + '\n' + key;
    std::lock_guard lock(mutex_);
    if (auto it = keys_.find(name); it != keys_.end()) {
        return it->second;
    }
    if (keys_.size() >= keys_kept) {
        std::erase_if(keys_, [&](auto const& entry) {
            auto const& state = *entry.second;
            if (entry.second.use_count() > 1) {
                return false;
            }
            std::lock_guard state_lock(entry.second->mutex);
            return std::all_of(state.places.begin(), state.places.end(), [&](std::int64_t p) {
                return p != taken && (p == never_used || at(p) + state.rate.window < now);
            });
        });
    }
    auto state = std::make_shared<key_state>();
    state->rate = rate;
    state->places.assign(rate.requests, never_used);
    keys_.emplace(name, state);
    return state;
}

boost::asio::awaitable<upstream_pacer::wait_result> upstream_pacer::wait_turn(
    std::string_view toolkit, std::string key, steady_clock::time_point deadline)
{
    wait_result out;
    auto const found = rates_.find(toolkit);
    if (found == rates_.end()) {
        co_return out;
    }
    out.rate = found->second;
    auto const started = steady_clock::now();
    auto state = state_of(toolkit, key, out.rate, started);
    asio::steady_timer timer(co_await asio::this_coro::executor);
    for (;;) {
        auto const now = steady_clock::now();
        std::size_t pick = state->places.size();
        std::int64_t previous = taken;
        {
            std::lock_guard lock(state->mutex);
            for (std::size_t i = 0; i < state->places.size(); ++i) {
                if (state->places[i] < previous) {
                    previous = state->places[i];
                    pick = i;
                }
            }
            if (pick < state->places.size()) {
                state->places[pick] = taken;
            }
        }
        if (pick == state->places.size()) {
            // Every place is in flight: none comes free sooner than a window from now.
            if (now + out.rate.window > deadline) {
                out.wait
                    = std::chrono::ceil<std::chrono::milliseconds>(now + out.rate.window - started);
                break;
            }
            timer.expires_after(in_flight_poll);
        } else {
            turn place(state, pick, previous);
            auto const start
                = previous == never_used ? now : std::max(now, at(previous) + out.rate.window);
            if (start > deadline) {
                out.wait = std::chrono::ceil<std::chrono::milliseconds>(start - started);
                break;
            }
            if (start > now) {
                timer.expires_at(start);
                auto [ec] = co_await timer.async_wait(asio::as_tuple(asio::use_awaitable));
                if (ec) {
                    out.state = wait_result::kind::cancelled;
                    co_return out;
                }
            }
            out.waited = std::chrono::duration_cast<std::chrono::milliseconds>(
                steady_clock::now() - started);
            if (observer_ != nullptr && start > now) {
                observer_->on_paced(toolkit, out.waited, false);
            }
            out.place = std::move(place);
            co_return out;
        }
        auto [ec] = co_await timer.async_wait(asio::as_tuple(asio::use_awaitable));
        if (ec) {
            out.state = wait_result::kind::cancelled;
            co_return out;
        }
    }
    out.state = wait_result::kind::refused;
    if (observer_ != nullptr) {
        observer_->on_paced(toolkit, std::chrono::milliseconds(0), true);
    }
    co_return out;
}

} // namespace toolgate::toolkits
