// The step after validation: turning a checked tool call into a platform request and its
// answer into a tool result. The catalogue provider validates, then hands over to this.
#pragma once

#include "protocol/tool_descriptor.hpp"
#include "toolkits/tool_provider.hpp"
#include "toolkits/tool_spec.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>

namespace toolgate::toolkits {

class tool_executor {
public:
    virtual ~tool_executor() = default;
    /// Executes a call whose arguments already passed validation against `tool`'s params.
    virtual boost::asio::awaitable<protocol::call_result> execute(toolkit_spec const& toolkit,
        tool_spec const& tool, boost::json::object arguments, call_context& context)
        = 0;
};

} // namespace toolgate::toolkits
