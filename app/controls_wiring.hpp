// The operator's controls over calls, built from the configuration for either transport: the
// policy per client, the quota counters, the audit log and the controls the router hands every
// call (docs/controlling-writes.md). SIGHUP rereads the policy and reopens the audit log.
#pragma once

#include "app/config.hpp"
#include "common/call_counters.hpp"
#include "mcp/confirmation.hpp"
#include "mcp/policy.hpp"
#include "mcp/router.hpp"
#include "mcp/write_controls.hpp"
#include "ops/audit_log.hpp"

#include <memory>
#include <string>

namespace toolgate::state {
class redis_client;
}

namespace toolgate::app {

class controls_wiring {
public:
    /// Reads the policy and opens the audit log; throws std::invalid_argument or
    /// std::runtime_error (start-up: one line, status 2) on a mistake in either. With a state
    /// store (--state-store) the quotas are counted there, so that replicas share one count
    /// per client; without, in this process's memory.
    explicit controls_wiring(
        config const& cfg, std::shared_ptr<state::redis_client> const& store = nullptr);

    /// Hands the controls to `r` when anything is configured (else calls pay nothing), with
    /// the step that lets a call ask for a confirmation; `index` (the served tools, the
    /// router's) must outlive the router.
    void install(mcp::router& r, protocol::tool_index const& index);
    /// The policy for the HTTP endpoint's views, or null when there can be none.
    mcp::operator_policy const* policy() const { return narrows_views_ ? &policy_ : nullptr; }
    /// SIGHUP: the policy tables again, the audit log reopened. Logs what happened; false
    /// when there was nothing to reload.
    bool reload();
    /// One line for the start-up log ("" when nothing is configured).
    std::string summary() const;
    mcp::write_controls& controls() { return *controls_; }
    /// Whether anything is configured (policy, audit log, confirmation).
    bool active() const { return active_; }

private:
    mcp::operator_policy policy_;
    std::unique_ptr<common::call_counters> counters_; ///< memory, or the state store
    std::unique_ptr<ops::audit_log> audit_;
    std::unique_ptr<mcp::write_controls> controls_;
    std::unique_ptr<mcp::confirmation_step> confirmation_step_;
    bool active_ = false; ///< anything configured: the router gets the controls
    bool shared_counts_ = false; ///< the quotas are counted in the state store
    bool narrows_views_ = false; ///< policy tables (now or after SIGHUP) or scope rules
};

} // namespace toolgate::app
