// JSON-RPC batches: only in a 2025-03-26 session (docs/protocol-rules.md B1–B3). Elements run in
// order; the answer is one array holding a response per request.
#include "mcp/router.hpp"
#include "protocol/names.hpp"
#include "protocol/request_meta.hpp"
#include "protocol/versions.hpp"

#include <boost/json/array.hpp>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace toolgate::mcp {
namespace asio = boost::asio;
namespace json = boost::json;

namespace {

protocol::rpc_error invalid_batch(std::string message)
{
    return { protocol::error_code::invalid_request, std::move(message), std::nullopt };
}

/// Whether this batch may be served: the error to answer with when it may not.
protocol::rpc_result<void> check_batch(
    conversation& conv, json::array const& batch, std::size_t max_messages)
{
    if (batch.empty()) {
        return invalid_batch("Invalid Request: an empty batch");
    }
    if (!conv.takes_batches()) {
        return invalid_batch(
            "Invalid Request: batches exist only in protocol revision 2025-03-26; send "
            "one message per line");
    }
    for (auto const& element : batch) {
        auto const* obj = element.if_object();
        if (!obj) {
            continue;
        }
        auto const* method = obj->if_contains("method");
        if (method && method->is_string() && method->get_string() == protocol::names::initialize) {
            return invalid_batch("Invalid Request: initialize must not be part of a batch");
        }
        auto const* params = obj->if_contains("params");
        if (params && params->is_object() && protocol::has_version_claim(&params->get_object())) {
            return invalid_batch(
                "Invalid Request: a 2026-07-28 request must be sent on its own, not in a batch");
        }
    }
    if (batch.size() > max_messages) {
        return invalid_batch(fmt::format("Invalid Request: a batch holds at most {} messages "
                                         "(this one {}); send fewer at a time",
            max_messages, batch.size()));
    }
    return {};
}

} // namespace

asio::awaitable<router::batch_outcome> router::run_batch(std::shared_ptr<conversation> conv,
    json::array batch, std::shared_ptr<transport::message_sink> sink, credentials_ptr credentials,
    std::string principal, std::shared_ptr<protocol::tool_view const> view)
{
    if (auto checked = check_batch(*conv, batch, limits_.max_batch_messages); !checked) {
        co_return batch_outcome { protocol::serialize_error(nullptr, checked.error()),
            std::nullopt };
    }
    protocol::batch_reply out;
    std::size_t bytes = 2;
    for (auto& element : batch) {
        auto classified = protocol::classify(std::move(element));
        std::optional<protocol::reply> answer;
        json::value id;
        if (!classified) {
            auto const& bad = classified.error();
            answer = protocol::reply(protocol::serialize_error(bad.id, bad.error));
        } else {
            // Each element is decided and run as a message of its own would be: through the
            // connection's view (read-only, toolkits, tools) and counted against the caller's
            // principal (security review 3, items 3 and 4).
            auto& msg = *classified;
            id = msg.id();
            auto decided = decide(msg, conv.get(), view);
            if (auto* r = std::get_if<protocol::reply>(&decided)) {
                answer = std::move(*r);
            } else if (auto* call = std::get_if<protocol::tool_call>(&decided)) {
                answer = co_await run_decided(std::move(*call), conv, sink, principal, credentials);
            }
        }
        if (!answer) {
            continue;
        }
        auto const size = answer->text.size() + answer->shared.size() + answer->tail.size() + 1;
        if (bytes + size > limits_.max_batch_answer_bytes) {
            // Answered, but too large to carry: the client gets an error it can act on.
            answer = protocol::reply(protocol::serialize_error(id,
                { protocol::error_code::internal_error,
                    fmt::format("The batch's answer would exceed {} bytes: send this request "
                                "on its own",
                        limits_.max_batch_answer_bytes),
                    std::nullopt }));
        }
        bytes += answer->text.size() + answer->shared.size() + answer->tail.size() + 1;
        out.replies.push_back(std::move(*answer));
    }
    if (out.replies.empty()) {
        co_return batch_outcome {}; // only notifications: nothing to answer
    }
    co_return batch_outcome { std::nullopt, std::move(out) };
}

} // namespace toolgate::mcp
