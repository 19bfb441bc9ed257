// The shared state store of `--state-store` (state/redis_client.hpp), made once per process
// and wired to the metrics; null without the flag, and then nothing changes.
#pragma once

#include "app/config.hpp"
#include "ops/store_metrics.hpp"
#include "state/redis_client.hpp"
#include "state/sealing.hpp"

#include <boost/asio/io_context.hpp>

#include <memory>
#include <optional>

namespace toolgate::app {

/// The store client, connecting in the background; null when `cfg.store.url` is empty.
/// Throws std::invalid_argument on a bad URL (start-up: exit status 2).
std::shared_ptr<state::redis_client> make_state_store(
    config const& cfg, boost::asio::io_context& ioc);

/// The token encryption keys of --store-key-file or TOOLGATE_STORE_KEY (and
/// TOOLGATE_STORE_KEY_PREVIOUS); none when neither is set. Throws std::invalid_argument
/// naming what is wrong (start-up: exit status 2).
std::optional<state::store_keys> store_keys_of(config const& cfg);

/// Counts the store's commands in ops' store metrics.
class store_command_counter final : public state::command_observer {
public:
    explicit store_command_counter(ops::store_metrics& metrics)
        : metrics_(metrics)
    {
    }
    void on_command(std::chrono::nanoseconds duration, bool answered) noexcept override
    {
        metrics_.record(duration, answered);
    }

private:
    ops::store_metrics& metrics_;
};

/// The store's connection as the metrics show it.
ops::store_gauges store_gauges_of(state::redis_client const& store);

} // namespace toolgate::app
