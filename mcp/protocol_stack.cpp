// Wiring of the protocol objects (see protocol_stack.hpp).
#include "mcp/protocol_stack.hpp"

namespace toolgate::mcp {

protocol_stack::protocol_stack(toolkits::tool_provider& provider, discovery::search_texts texts,
    view_settings settings, protocol::server_identity const& identity,
    toolkits::result_options results)
    : discovery_(provider, std::move(texts), results)
    , views_(discovery_, std::move(settings), identity)
    , index_(discovery_.tools())
    , dispatcher_(identity, views_.default_view(), index_)
{
}

} // namespace toolgate::mcp
