// main() body shared by toolgate and its test twin.
#include "app/app.hpp"

#include "app/call_cli.hpp"
#include "app/served_protocol.hpp"
#include "app/state_store.hpp"
#include "credentials/auth_cli.hpp"
#include "ops/logging.hpp"

#include <spdlog/spdlog.h>

#include <cstdio>
#include <exception>

namespace toolgate::app {

namespace {

credentials::auth_cli_settings auth_cli_settings_of(config const& cfg)
{
    credentials::auth_cli_settings settings;
    settings.command = cfg.auth;
    settings.credentials.secrets_file = cfg.credentials.secrets_file;
    settings.credentials.token_store = cfg.credentials.token_store;
    settings.credentials.allow_insecure = cfg.upstream.allow_insecure;
    settings.credentials.keys = store_keys_of(cfg);
    settings.state_store = cfg.store.url;
    settings.https = https_options_of(cfg.upstream);
    return settings;
}

} // namespace

std::string const& toolgate_version()
{
    static std::string const version = TOOLGATE_VERSION;
    return version;
}

int run_main(int argc, char** argv, service_factory const& make_service)
{
    ops::init_logging();
    auto parsed = parse_config(argc, argv, toolgate_version());
    if (!parsed) {
        print_error("toolgate: " + parsed.error().message);
        return 2;
    }
    if (!*parsed) {
        return 0; // --help, --version or --print-config: printed
    }
    auto& cfg = *parsed;
    ops::set_log_level(cfg->ops.log_level);
    ops::set_log_format(cfg->ops.log_format);
    if (!cfg->auth.action.empty()) {
        try {
            return credentials::run_auth_command(auth_cli_settings_of(*cfg));
        } catch (std::invalid_argument const& e) {
            print_error(std::string("toolgate auth: ") + e.what());
            return 2;
        }
    }
    try {
        // Stdio runs on one thread; HTTP adds workers in serve_http.
        boost::asio::io_context ioc(cfg->transport == "stdio" ? 1 : int(cfg->http.threads));
        auto svc = make_service(*cfg, ioc);
        if (!svc.provider) {
            return 0; // the factory handled a one-shot command (--list-*)
        }
        if (!svc.store) {
            svc.store = make_state_store(*cfg, ioc);
        }
        if (cfg->call.requested) {
            return run_call_command(*cfg, ioc, svc);
        }
        if (cfg->command.list_tools) {
            // `--list-tools --json --tool-mode discovery`: what tools/list answers in that mode.
            served_protocol stack(*cfg, svc);
            auto page = stack.views()
                            .default_view()
                            ->pages->page("", protocol::list_variant::legacy)
                            .value();
            std::fwrite(page.data(), 1, page.size(), stdout);
            std::fputc('\n', stdout);
            return 0;
        }
        if (cfg->transport == "http") {
            return serve_http(*cfg, ioc, svc);
        }
        return serve_stdio(*cfg, ioc, svc);
    } catch (std::exception const& e) {
        // Start-up configuration problems: one clear line, status 2.
        print_error(std::string("toolgate: ") + e.what());
        return 2;
    }
}

} // namespace toolgate::app
