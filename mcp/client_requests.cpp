// Server-to-client requests (see client_requests.hpp). Each wait is a one-slot channel the
// response is put into; the waiting call races it against its timeout.
#include "mcp/client_requests.hpp"

#include "protocol/names.hpp"
#include "transport/cancellation.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/experimental/concurrent_channel.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/serialize.hpp>
#include <fmt/format.h>

namespace toolgate::mcp {
namespace asio = boost::asio;
namespace json = boost::json;
using namespace asio::experimental::awaitable_operators;
using protocol::rpc_error;

struct client_requests::waiter {
    explicit waiter(asio::any_io_executor const& ex)
        : answer(ex, 1)
    {
    }
    asio::experimental::concurrent_channel<void(boost::system::error_code, json::value)> answer;
};

namespace {

/// Removes a wait from the table when the asking coroutine leaves, however it leaves.
struct wait_guard {
    std::mutex& mutex;
    std::unordered_map<std::string, std::shared_ptr<client_requests::waiter>>& table;
    std::string key;
    ~wait_guard()
    {
        std::lock_guard lock(mutex);
        table.erase(key);
    }
};

rpc_error gone(std::string why)
{
    return { protocol::error_code::internal_error, std::move(why), std::nullopt };
}

/// A response's `result`, or its error (code and message as the client gave them).
protocol::rpc_result<json::value> answer_of(json::object const& response)
{
    if (auto const* result = response.if_contains("result")) {
        return *result;
    }
    auto const* error = response.if_contains("error");
    auto const* e = error ? error->if_object() : nullptr;
    rpc_error out { protocol::error_code::internal_error, "the client answered with an error",
        std::nullopt };
    if (e) {
        if (auto const* code = e->if_contains("code"); code && code->is_int64()) {
            out.code = static_cast<int>(code->get_int64());
        }
        if (auto const* message = e->if_contains("message"); message && message->is_string()) {
            out.message = std::string(message->get_string());
        }
    }
    return out;
}

/// Tells the client we no longer wait for `id` (MCP basic/utilities/cancellation).
void withdraw(transport::message_sink& sink, json::value const& id, std::string_view reason)
{
    json::object params;
    params["requestId"] = id;
    params["reason"] = reason;
    sink.send(protocol::serialize_notification(protocol::names::cancelled, std::move(params)));
}

} // namespace

asio::awaitable<protocol::rpc_result<json::value>> client_requests::ask(
    std::shared_ptr<transport::message_sink> sink, std::string method, json::object params,
    std::chrono::milliseconds timeout)
{
    auto const executor = co_await asio::this_coro::executor;
    auto w = std::make_shared<waiter>(executor);
    json::value id;
    std::string key;
    {
        std::lock_guard lock(mutex_);
        if (closed_) {
            co_return gone("the session ended before the client could be asked");
        }
        // Our ids are strings with a prefix of our own: they cannot be confused with the
        // client's request ids, which live in the other direction anyway.
        id = json::string(fmt::format("toolgate-{}", next_id_++));
        key = json::serialize(id);
        waiting_.emplace(key, w);
    }
    wait_guard guard { mutex_, waiting_, key };
    sink->send(protocol::serialize_request(id, method, std::move(params)));
    asio::steady_timer timer(executor);
    timer.expires_after(timeout);
    bool cancelled = false;
    std::variant<std::tuple<boost::system::error_code, json::value>,
        std::tuple<boost::system::error_code>>
        outcome;
    try {
        outcome = co_await (w->answer.async_receive(asio::as_tuple(asio::use_awaitable))
            || timer.async_wait(asio::as_tuple(asio::use_awaitable)));
    } catch (boost::system::system_error const&) {
        cancelled = true; // the call itself was cancelled
    }
    cancelled = cancelled || transport::is_cancelled(co_await asio::this_coro::cancellation_state);
    if (cancelled) {
        withdraw(*sink, id, "the call was cancelled");
        throw boost::system::system_error(asio::error::operation_aborted);
    }
    if (outcome.index() == 1) {
        withdraw(*sink, id, "no answer in time");
        co_return gone(fmt::format("the client did not answer {} within {} s", method,
            std::chrono::duration_cast<std::chrono::seconds>(timeout).count()));
    }
    auto& [ec, response] = std::get<0>(outcome);
    if (ec) {
        co_return gone("the session ended before the client answered");
    }
    co_return answer_of(response.as_object());
}

bool client_requests::deliver(protocol::message const& response)
{
    std::shared_ptr<waiter> w;
    {
        std::lock_guard lock(mutex_);
        auto it = waiting_.find(json::serialize(response.id()));
        if (it == waiting_.end()) {
            return false;
        }
        w = std::move(it->second);
        waiting_.erase(it);
    }
    return w->answer.try_send(boost::system::error_code(), response.document());
}

void client_requests::close()
{
    std::unordered_map<std::string, std::shared_ptr<waiter>> ended;
    {
        std::lock_guard lock(mutex_);
        closed_ = true;
        ended.swap(waiting_);
    }
    for (auto& [key, w] : ended) {
        w->answer.try_send(asio::error::operation_aborted, json::value());
    }
}

std::size_t client_requests::waiting() const
{
    std::lock_guard lock(mutex_);
    return waiting_.size();
}

} // namespace toolgate::mcp
