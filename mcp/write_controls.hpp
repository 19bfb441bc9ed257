// The operator's controls over calls (toolkits/call_controls.hpp) as this server applies them:
// a person's confirmation before a destructive call where the policy or --confirm-destructive
// asks for one (mcp/confirmation.hpp), then each caller's quota from its policy
// (mcp/policy.hpp) counted in common::call_counters, and a line in the audit log
// (ops/audit_log.hpp) for every call of a tool that may change data. Shared by every call;
// thread-safe.
#pragma once

#include "common/call_counters.hpp"
#include "mcp/confirmation.hpp"
#include "mcp/policy.hpp"
#include "ops/audit_log.hpp"
#include "toolkits/call_controls.hpp"

#include <chrono>
#include <functional>

namespace toolgate::mcp {

class write_controls final : public toolkits::call_controls {
public:
    /// `policy` and `counters` must outlive the controls; `audit` may be null (no audit log).
    write_controls(
        operator_policy const& policy, common::call_counters& counters, ops::audit_log* audit);

    boost::asio::awaitable<std::optional<protocol::call_result>> admit(
        toolkits::controlled_call const& call, toolkits::call_context& context) override;
    void finished(toolkits::controlled_call const& call, protocol::call_result const& result,
        toolkits::call_end how, std::chrono::nanoseconds duration,
        toolkits::call_context const& context) override;
    void refused(protocol::tool_descriptor const& tool, boost::json::object const& arguments,
        std::string_view principal, std::string_view trace_id, std::string_view why) override;

    /// The clock quotas count by (tests move it). Set before serving.
    void set_clock(std::function<std::chrono::system_clock::time_point()> clock)
    {
        clock_ = std::move(clock);
    }

private:
    /// Records a call of a tool that may change data (read-only tools are not recorded).
    void record(toolkits::controlled_call const& call, std::string_view principal,
        std::string_view trace_id, std::string outcome, protocol::call_result const* result,
        std::chrono::nanoseconds duration);

    operator_policy const& policy_;
    common::call_counters& counters_;
    ops::audit_log* audit_;
    person_confirmation confirmation_;
    std::function<std::chrono::system_clock::time_point()> clock_
        = [] { return std::chrono::system_clock::now(); };
};

} // namespace toolgate::mcp
