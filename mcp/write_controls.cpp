// The server's call controls (see write_controls.hpp): quota, then confirmation, before a call;
// the audit line after it.
#include "mcp/write_controls.hpp"

#include "common/tool_names.hpp"
#include "toolkits/catalogue.hpp"
#include "toolkits/tool_provider.hpp"

#include <boost/json/serialize.hpp>
#include <fmt/format.h>

namespace toolgate::mcp {
namespace json = boost::json;
namespace {

std::string qualified(toolkits::controlled_call const& call)
{
    return std::string(call.toolkit.name) + "." + std::string(call.tool.name);
}

/// A refusal the model can act on: a sentence, and when to try again as a number.
protocol::call_result over_quota(std::string message, std::chrono::milliseconds wait)
{
    auto const seconds = std::chrono::ceil<std::chrono::seconds>(wait).count();
    json::object answer;
    answer["error"] = message;
    answer["retry_after_seconds"] = std::max<std::int64_t>(seconds, 1);
    auto result = protocol::call_result::error(json::serialize(answer));
    result.structured = json::value(std::move(answer));
    return result;
}

std::string text_of(json::value const& value)
{
    if (value.is_string()) {
        return std::string(value.get_string());
    }
    return json::serialize(value);
}

/// The catalogue entry behind a served tool's descriptor (`Toolkit.Tool`).
std::optional<std::pair<toolkits::toolkit_spec const*, toolkits::tool_spec const*>> spec_of(
    protocol::tool_descriptor const& tool)
{
    auto const kit_name = common::toolkit_of(tool.dotted_name);
    auto const* kit = kit_name.empty() ? nullptr : toolkits::find_toolkit(kit_name);
    if (kit == nullptr) {
        return std::nullopt;
    }
    for (auto const& spec : kit->tools) {
        if (spec.name == common::tool_part_of(tool.dotted_name)) {
            return std::pair { kit, &spec };
        }
    }
    return std::nullopt;
}

} // namespace

write_controls::write_controls(
    operator_policy const& policy, common::call_counters& counters, ops::audit_log* audit)
    : policy_(policy)
    , counters_(counters)
    , audit_(audit)
{
}

// `call` and `context` belong to the catalogue provider's call, which awaits this coroutine.
boost::asio::awaitable<std::optional<protocol::call_result>> write_controls::admit(
    toolkits::controlled_call const& call, toolkits::call_context& context)
{
    auto const principal = std::string(context.principal());
    auto const policy = policy_.for_caller(principal);
    // The person first: a call waiting for an answer (2026-07-28: coming back with it) takes
    // no place in the quota until it goes on.
    if (!call.dry_run && call.tool.destructive && policy.confirm_destructive) {
        auto asked = co_await confirmation_.ask(call, context);
        using kind = confirmation_outcome::kind;
        if (asked.state == kind::declined || asked.state == kind::unavailable) {
            record(call, principal, context.trace_id(),
                asked.state == kind::declined ? "declined" : "refused_confirmation", &asked.result,
                {});
        }
        if (asked.state != kind::accepted) {
            co_return std::move(asked.result);
        }
    }
    if (policy.calls_per_minute) {
        auto const limit = *policy.calls_per_minute;
        auto answer = co_await counters_.take(principal, limit, clock_());
        if (answer.state != common::count_answer::kind::taken) {
            auto refusal = answer.state == common::count_answer::kind::full
                ? over_quota(fmt::format("{}: this client may make {} calls a minute (the "
                                         "operator's policy), and has; nothing was sent. Try "
                                         "again after the wait given here.",
                                 qualified(call), limit),
                    answer.retry_after)
                : protocol::call_result::error(fmt::format("{}: this client's call quota could "
                                                           "not be checked ({}); nothing was sent",
                    qualified(call), answer.failure));
            record(call, principal, context.trace_id(), "refused_quota", &refusal, {});
            co_return refusal;
        }
    }
    co_return std::nullopt;
}

void write_controls::finished(toolkits::controlled_call const& call,
    protocol::call_result const& result, toolkits::call_end how, std::chrono::nanoseconds duration,
    toolkits::call_context const& context)
{
    std::string outcome;
    switch (how) {
    case toolkits::call_end::dry_run:
        outcome = result.is_error ? "error" : "dry_run";
        break;
    case toolkits::call_end::invalid_arguments:
        outcome = "invalid_arguments";
        break;
    case toolkits::call_end::answered:
        outcome = result.is_error ? "error" : "ok";
        break;
    }
    record(call, context.principal(), context.trace_id(), std::move(outcome), &result, duration);
}

void write_controls::refused(protocol::tool_descriptor const& tool, json::object const& arguments,
    std::string_view principal, std::string_view trace_id, std::string_view why)
{
    (void)why; // the outcome says it; the reason's words are for the caller
    auto const spec = spec_of(tool);
    if (!spec) {
        return; // not a catalogue tool (a meta-tool, a test tool): nothing to record
    }
    toolkits::controlled_call const call { *spec->first, *spec->second, arguments, false };
    record(call, principal, trace_id, "refused_policy", nullptr, {});
}

void write_controls::record(toolkits::controlled_call const& call, std::string_view principal,
    std::string_view trace_id, std::string outcome, protocol::call_result const* result,
    std::chrono::nanoseconds duration)
{
    if (audit_ == nullptr || call.tool.read_only) {
        return;
    }
    ops::audit_record line;
    line.time = std::chrono::system_clock::now();
    line.principal = principal;
    line.tool = qualified(call);
    for (auto const& param : call.tool.params) {
        if (param.in != toolkits::param_location::path) {
            continue;
        }
        if (auto const* value = call.arguments.if_contains(param.name)) {
            line.targets.emplace_back(std::string(param.name), text_of(*value));
        }
    }
    for (auto const& [name, value] : call.arguments) {
        line.argument_names.emplace_back(name);
    }
    line.outcome = std::move(outcome);
    if (result != nullptr) {
        line.status = result->upstream_status;
        line.request_id = result->upstream_request_id;
    }
    line.trace_id = trace_id;
    line.duration = duration;
    audit_->write(line);
}

} // namespace toolgate::mcp
