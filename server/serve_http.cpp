// Streamable HTTP mode (filled in with the HTTP transport).
#include "server/app.hpp"

#include <stdexcept>

namespace toolgate::server {

int serve_http(config const&, boost::asio::io_context&, toolkits::tool_provider&,
               std::string const&)
{
    throw std::runtime_error("the HTTP transport is not built yet");
}

} // namespace toolgate::server
