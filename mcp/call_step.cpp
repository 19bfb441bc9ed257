// The steps' defaults: a step that does nothing at one of its points.
#include "mcp/call_step.hpp"

namespace toolgate::mcp {

boost::asio::awaitable<std::optional<step_answer>> call_step::before(call_scope&)
{
    co_return std::nullopt;
}

boost::asio::awaitable<std::optional<step_answer>> call_step::after(
    call_scope&, protocol::call_result const&)
{
    co_return std::nullopt;
}

bool call_step::lacks_sign_in(call_scope const&, std::string_view) const
{
    return false;
}

bool call_step::may_ask(protocol::tool_call const&) const
{
    return false;
}

} // namespace toolgate::mcp
