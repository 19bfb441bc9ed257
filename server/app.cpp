// main() body shared by toolgate and its test twin.
#include "server/app.hpp"

#include "server/logging.hpp"

#include <spdlog/spdlog.h>

#include <exception>
#include <iostream>

namespace toolgate::server {

std::string const& toolgate_version()
{
    static std::string const version = TOOLGATE_VERSION;
    return version;
}

int run_main(int argc, char** argv, service_factory const& make_service)
{
    init_logging();
    int exit_code = 0;
    auto cfg = parse_config(argc, argv, exit_code, toolgate_version());
    if (!cfg) {
        return exit_code;
    }
    set_log_level(cfg->log_level);
    try {
        // Stdio runs on one thread; HTTP adds workers in serve_http.
        boost::asio::io_context ioc(cfg->transport == "stdio" ? 1 : int(cfg->threads));
        auto svc = make_service(*cfg, ioc);
        if (!svc.provider) {
            return 0; // the factory handled a one-shot command (--list-*)
        }
        if (cfg->transport == "http") {
            return serve_http(*cfg, ioc, *svc.provider, svc.summary);
        }
        spdlog::info("toolgate {} on stdio: {}", toolgate_version(), svc.summary);
        return serve_stdio(*cfg, ioc, *svc.provider);
    } catch (std::exception const& e) {
        // Start-up configuration problems: one clear line, status 2.
        std::cerr << "toolgate: " << e.what() << '\n';
        return 2;
    }
}

} // namespace toolgate::server
