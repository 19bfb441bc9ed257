// Making the shared state store (see state_store.hpp).
#include "app/state_store.hpp"

#include <spdlog/spdlog.h>

#include <cstdlib>
#include <stdexcept>

namespace toolgate::app {

std::shared_ptr<state::redis_client> make_state_store(
    config const& cfg, boost::asio::io_context& ioc)
{
    if (cfg.store.url.empty()) {
        return nullptr;
    }
    auto endpoint = state::parse_redis_url(cfg.store.url, std::getenv("TOOLGATE_REDIS_PASSWORD"));
    if (!endpoint) {
        throw std::invalid_argument(endpoint.error().message);
    }
    spdlog::info("state store: Redis at {}{}", endpoint->describe(),
        endpoint->password.empty() ? " (no password)" : "");
    auto store = state::redis_client::make(ioc.get_executor(), std::move(*endpoint), {});
    store->start();
    return store;
}

std::optional<state::store_keys> store_keys_of(config const& cfg)
{
    auto keys = state::load_store_keys(
        cfg.store, std::getenv("TOOLGATE_STORE_KEY"), std::getenv("TOOLGATE_STORE_KEY_PREVIOUS"));
    if (!keys) {
        throw std::invalid_argument(keys.error().message);
    }
    return *keys;
}

ops::store_gauges store_gauges_of(state::redis_client const& store)
{
    auto const s = store.status();
    return { s.connected, s.connects };
}

} // namespace toolgate::app
