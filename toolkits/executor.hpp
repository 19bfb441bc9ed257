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
    /// A dry run of the same call (toolkits/dry_run.hpp): the request it would send, shown
    /// with its credentials masked, or the error a real call would get before sending (a
    /// missing secret, say). Nothing is sent. An executor without requests to show says so.
    virtual protocol::call_result dry_run(toolkit_spec const& toolkit, tool_spec const& tool,
        boost::json::object const& arguments, call_context const& context) const
    {
        (void)toolkit;
        (void)tool;
        (void)arguments;
        (void)context;
        return protocol::call_result::error("dry runs are not available for this tool");
    }
};

} // namespace toolgate::toolkits
