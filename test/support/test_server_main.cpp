// toolgate's test twin: the same server, serving the test-only tools instead of the catalogue.
#include "app/app.hpp"
#include "test_tools.hpp"

namespace {

toolgate::app::service make_service(toolgate::app::config const&, boost::asio::io_context&)
{
    toolgate::app::service svc;
    svc.provider = toolgate::testing::make_test_tools();
    svc.summary = "test tools";
    return svc;
}

} // namespace

int main(int argc, char** argv)
{
    return toolgate::app::run_main(argc, argv, make_service);
}
