// A call's scope and its way to ask the client (see call_scope.hpp).
#include "mcp/call_scope.hpp"

#include "mcp/http_answer.hpp"
#include "protocol/versions.hpp"

namespace toolgate::mcp {
namespace json = boost::json;

call_scope::call_scope(protocol::tool_call const& call, std::string principal,
    std::shared_ptr<conversation> conv, std::shared_ptr<transport::message_sink> sink,
    std::shared_ptr<toolkits::call_credentials const> credentials,
    std::chrono::milliseconds answer_timeout)
    : call_(call)
    , principal_(std::move(principal))
    , conv_(std::move(conv))
    , sink_(std::move(sink))
    , reachable_(sink_ != discard_sink()) // an HTTP answer that cannot stream
    , credentials_(std::move(credentials))
    , answer_timeout_(answer_timeout)
{
}

bool call_scope::takes_url_elicitation() const
{
    // URL mode arrived with 2025-11-25; a client of an older revision that names it anyway
    // would not know the -32042 error.
    return call_.elicitation.url
        && (call_.modern || call_.version >= protocol::newest_legacy_version);
}

bool call_scope::can_ask() const
{
    // 2026-07-28 forbids requests to the client (MRTR replaces them).
    return conv_ != nullptr && !call_.modern && reachable_ && call_.elicitation.any();
}

boost::asio::awaitable<protocol::rpc_result<json::value>> call_scope::ask(
    std::string method, json::object params)
{
    if (!can_ask()) {
        co_return protocol::rpc_error { protocol::error_code::internal_error,
            call_.modern ? "a 2026-07-28 request cannot be answered with a request to the client "
                           "(return input requests instead)"
                         : "this client cannot be asked during this call (it declared no "
                           "elicitation, or its answer cannot carry a request)",
            std::nullopt };
    }
    co_return co_await conv_->requests().ask(
        sink_, std::move(method), std::move(params), answer_timeout_);
}

json::object const* call_scope::retry_state() const
{
    return retry_state_ ? &*retry_state_ : nullptr;
}

json::object const* call_scope::input_responses() const
{
    // Only a verified retry's answers count: without our state they could be anyone's.
    return retry_state_ && call_.retry.responses ? &*call_.retry.responses : nullptr;
}

} // namespace toolgate::mcp
