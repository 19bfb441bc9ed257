// toolgate's test twin: the same server, serving the test-only tools instead of the catalogue.
#include "server/app.hpp"
#include "test_tools.hpp"

namespace {

toolgate::server::service make_service(toolgate::server::config const&, boost::asio::io_context&)
{
    toolgate::server::service svc;
    svc.provider = toolgate::testing::make_test_tools();
    svc.summary = "test tools";
    return svc;
}

} // namespace

int main(int argc, char** argv)
{
    return toolgate::server::run_main(argc, argv, make_service);
}
