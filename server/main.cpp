// toolgate's entry point: serves the compiled-in catalogue.
#include "server/app.hpp"

#include <span>
#include <vector>

namespace {

// Until the catalogue is wired in, the server lists no tools.
class no_tools final : public toolgate::toolkits::tool_provider {
public:
    std::span<const toolgate::protocol::tool_descriptor> tools() const override { return {}; }
    boost::asio::awaitable<toolgate::protocol::call_result>
    call(toolgate::protocol::tool_descriptor const&, boost::json::object,
         toolgate::toolkits::call_context&) override
    {
        co_return toolgate::protocol::call_result::error("no tools");
    }
};

toolgate::server::service make_service(toolgate::server::config const&, boost::asio::io_context&)
{
    return {std::make_unique<no_tools>(), "0 toolkits, 0 tools"};
}

} // namespace

int main(int argc, char** argv) { return toolgate::server::run_main(argc, argv, make_service); }
