// JSON-RPC batches: only in a 2025-03-26 session (MCP-REQUIREMENTS B1–B3). Elements run in
// order; the answer is one array holding a response per request.
#include "server/router.hpp"

#include "protocol/names.hpp"
#include "protocol/request_meta.hpp"
#include "protocol/versions.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/json/array.hpp>
#include <spdlog/spdlog.h>

namespace toolgate::server {
namespace asio = boost::asio;
namespace json = boost::json;

namespace {

std::string invalid_batch(std::string message)
{
    return protocol::serialize_error(
        nullptr, {protocol::error_code::invalid_request, std::move(message), std::nullopt});
}

/// Why this batch may not be served, or "" when it may.
std::string batch_refusal(conversation& conv, json::array const& batch)
{
    if (batch.empty()) {
        return "Invalid Request: an empty batch";
    }
    {
        std::lock_guard lock(conv.mutex);
        if (!conv.session.initialized || !protocol::allows_batches(conv.session.version)) {
            return "Invalid Request: batches exist only in protocol revision 2025-03-26; send "
                   "one message per line";
        }
    }
    for (auto const& element : batch) {
        auto const* obj = element.if_object();
        if (!obj) {
            continue;
        }
        auto const* method = obj->if_contains("method");
        if (method && method->is_string() && method->get_string() == protocol::names::initialize) {
            return "Invalid Request: initialize must not be part of a batch";
        }
        auto const* params = obj->if_contains("params");
        if (params && params->is_object() && protocol::has_version_claim(&params->get_object())) {
            return "Invalid Request: a 2026-07-28 request must be sent on its own, not in a batch";
        }
    }
    return {};
}

} // namespace

asio::awaitable<std::optional<std::string>>
router::run_batch(std::shared_ptr<conversation> conv, json::array batch,
                  std::shared_ptr<transport::message_sink> sink)
{
    if (auto why = batch_refusal(*conv, batch); !why.empty()) {
        co_return invalid_batch(std::move(why));
    }
    std::string out;
    for (auto& element : batch) {
        auto classified = protocol::classify(std::move(element));
        std::optional<std::string> answer;
        if (auto* bad = std::get_if<protocol::invalid_message>(&classified)) {
            answer = protocol::serialize_error(bad->id, bad->error);
        } else {
            auto reply = co_await handle(std::move(std::get<protocol::message>(classified)),
                                           conv, sink);
            if (reply) {
                answer = reply->take();
            }
        }
        if (answer) {
            out += out.empty() ? "[" : ",";
            out += *answer;
        }
    }
    if (out.empty()) {
        co_return std::nullopt; // only notifications: nothing to answer
    }
    out += ']';
    co_return out;
}

void router::handle_batch(std::shared_ptr<conversation> conv, json::array batch,
                          std::shared_ptr<transport::message_sink> sink)
{
    auto strand = conv->strand;
    asio::co_spawn(strand, run_batch(std::move(conv), std::move(batch), sink),
                   [sink](std::exception_ptr error, std::optional<std::string> answer) {
                       if (error) {
                           spdlog::error("batch failed");
                       } else if (answer) {
                           sink->send(std::move(*answer));
                       }
                   });
}

} // namespace toolgate::server
