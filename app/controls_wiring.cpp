// Wiring of the call controls (see controls_wiring.hpp).
#include "app/controls_wiring.hpp"

#include "mcp/memory_call_counters.hpp"
#include "state/redis_call_counters.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace toolgate::app {

controls_wiring::controls_wiring(
    config const& cfg, std::shared_ptr<state::redis_client> const& store)
    : policy_(cfg.policy)
{
    if (store) {
        counters_ = std::make_unique<state::redis_call_counters>(store);
        shared_counts_ = true;
    } else {
        counters_ = std::make_unique<mcp::memory_call_counters>();
    }
    if (!cfg.audit.file.empty()) {
        audit_ = std::make_unique<ops::audit_log>(cfg.audit.file);
    }
    controls_ = std::make_unique<mcp::write_controls>(policy_, *counters_, audit_.get());
    // A config file may gain policy tables by SIGHUP: its views and calls are watched from
    // the start.
    narrows_views_ = !cfg.policy.config_file.empty() || !cfg.policy.scope_toolsets.empty();
    active_ = narrows_views_ || audit_ != nullptr || cfg.policy.confirm_destructive;
}

void controls_wiring::install(mcp::router& r, protocol::tool_index const& index)
{
    if (active_) {
        r.set_controls(controls_.get());
        confirmation_step_ = std::make_unique<mcp::confirmation_step>(policy_, index);
        r.add_step(*confirmation_step_);
    }
}

bool controls_wiring::reload()
{
    if (narrows_views_) {
        try {
            spdlog::info("SIGHUP: policy reloaded: {}", policy_.reload());
        } catch (std::exception const& e) {
            spdlog::error("SIGHUP: policy not reloaded, the one in force stays: {}", e.what());
        }
    }
    if (audit_) {
        audit_->reopen();
    }
    return narrows_views_ || audit_ != nullptr;
}

std::string controls_wiring::summary() const
{
    if (!active_) {
        return {};
    }
    return fmt::format("call controls: {}{}{}", policy_.summary(),
        shared_counts_ ? "; quotas counted in the state store" : "",
        audit_ ? fmt::format("; audit log {}", audit_->path()) : std::string());
}

} // namespace toolgate::app
