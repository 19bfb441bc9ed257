// The router's part around each tool: a 2026-07-28 retry's requestState checked, the steps
// of mcp/call_step.hpp before and after the tool, and the answers that replace a result (a
// step's, or an input_required result with its signed state).
#include "mcp/router.hpp"
#include "protocol/jsonrpc.hpp"

#include <fmt/format.h>

namespace toolgate::mcp {
namespace asio = boost::asio;
namespace json = boost::json;

namespace {

/// `earlier` with `later`'s members on top: a state carries on what a verified one held.
json::object merged(json::object const* earlier, json::object later)
{
    if (earlier == nullptr) {
        return later;
    }
    json::object out = *earlier;
    for (auto& [key, value] : later) {
        out[key] = std::move(value);
    }
    return out;
}

} // namespace

bool router::may_ask(protocol::tool_call const& call, conversation const* conv) const
{
    // Only a 2025 conversation whose client declared elicitation can be asked anything.
    if (conv == nullptr || call.modern || !call.elicitation.any()) {
        return false;
    }
    if (provider_.may_ask_client(*call.tool, call.arguments)) {
        return true;
    }
    for (auto const* step : steps_) {
        if (step->may_ask(call)) {
            return true;
        }
    }
    return false;
}

std::string router::render(protocol::tool_call const& call, call_scope const& scope,
    step_answer answer, bool& is_error) const
{
    is_error = false;
    if (auto* result = std::get_if<protocol::call_result>(&answer)) {
        return dispatcher_.call_reply(call, *result);
    }
    if (auto* error = std::get_if<protocol::rpc_error>(&answer)) {
        is_error = true;
        return protocol::serialize_error(call.id, *error);
    }
    auto& needed = std::get<input_needed>(answer);
    if (!call.modern || !states_) {
        // A step asked a 2025 client for input the 2026-07-28 way: a bug of ours.
        is_error = true;
        return protocol::serialize_error(call.id, protocol::error_code::internal_error,
            fmt::format("Internal error: {} needs the client's input, which this request cannot "
                        "carry",
                call.tool->name));
    }
    auto state = states_->issue({ call.tool->dotted_name, call.arguments, scope.principal() },
        merged(scope.retry_state(), std::move(needed.state)));
    return dispatcher_.input_required_reply(call, std::move(needed.input_requests), state);
}

asio::awaitable<router::step_outcome> router::run_with_steps(
    protocol::tool_call& call, toolkits::call_context& context, call_scope& scope)
{
    step_outcome out;
    auto const finish = [&](step_answer answer) {
        out.answer = render(call, scope, std::move(answer), out.answer_is_error);
    };
    // MRTR: a requestState is attacker-controlled input; only one this server signed for this
    // very call and caller, not yet expired, is handed on. Answers without a state are
    // nobody's, and ignored.
    if (call.modern && call.retry.state) {
        auto verified = states_
            ? states_->verify(
                *call.retry.state, { call.tool->dotted_name, call.arguments, scope.principal() })
            : protocol::rpc_result<json::object>(
                protocol::rpc_error { protocol::error_code::invalid_params,
                    "Invalid params: this server issues no requestState", std::nullopt });
        if (!verified) {
            finish(verified.error());
            co_return out;
        }
        scope.set_retry_state(std::move(*verified));
    }
    for (auto* step : steps_) {
        if (auto answer = co_await step->before(scope)) {
            finish(std::move(*answer));
            co_return out;
        }
    }
    // A 2026-07-28 call keeps its arguments for a requestState bound to them after the tool
    // ran; a 2025 call's move into the tool (call_step::after sees them empty).
    // Named first: g++ 12 double-destroys temporaries inside a co_await operand.
    json::object arguments;
    if (call.modern) {
        arguments = call.arguments;
    } else {
        arguments = std::move(call.arguments);
    }
    out.result = co_await provider_.call(*call.tool, std::move(arguments), context);
    for (auto* step : steps_) {
        if (auto answer = co_await step->after(scope, out.result)) {
            finish(std::move(*answer));
            co_return out;
        }
    }
    if (out.result.input_requests) {
        finish(input_needed {
            std::move(*out.result.input_requests), std::move(out.result.input_state) });
    }
    co_return out;
}

} // namespace toolgate::mcp
