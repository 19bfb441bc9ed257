// Streamable HTTP mode: the listener, sessions and endpoint on a small thread pool.
#include "server/app.hpp"
#include "server/client_auth.hpp"
#include "server/http_endpoint.hpp"
#include "server/router.hpp"
#include "server/session_registry.hpp"
#include "transport/http_listener.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/as_tuple.hpp>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <thread>

namespace toolgate::server {
namespace asio = boost::asio;

namespace {

bool is_loopback_address(std::string const& host)
{
    return host == "127.0.0.1" || host == "::1" || host.starts_with("127.");
}

asio::awaitable<void> sweep_sessions(session_registry& sessions, router& r,
                                     std::chrono::seconds every, bool const& stopping)
{
    asio::steady_timer timer(co_await asio::this_coro::executor);
    while (!stopping) {
        timer.expires_after(every);
        co_await timer.async_wait(asio::as_tuple(asio::use_awaitable));
        sessions.expire_idle(r);
    }
}

void print_banner(config const& cfg, std::uint16_t port, std::string const& summary)
{
    auto const url = fmt::format("http://{}:{}{}", cfg.host.find(':') != std::string::npos
                                                       ? "[" + cfg.host + "]"
                                                       : cfg.host,
                                 port, cfg.path);
    spdlog::info("toolgate {} serving MCP (Streamable HTTP) at {}", toolgate_version(), url);
    spdlog::info("{}", summary);
    spdlog::info("connect: npx @modelcontextprotocol/inspector --cli {} --method tools/list", url);
    spdlog::info("connect a desktop client over stdio: command \"toolgate\" (no arguments); "
                 "Ctrl-C stops this server");
}

} // namespace

int serve_http(config const& cfg, asio::io_context& ioc, toolkits::tool_provider& tools,
               std::string const& summary)
{
    auto auth = client_auth::from_config(cfg);
    if (!is_loopback_address(cfg.host) && !auth && !cfg.allow_unauthenticated) {
        throw std::runtime_error(fmt::format(
            "--host {} is not a loopback address and client authentication is not configured; "
            "set --auth-token-file or --oauth-jwks-file, bind 127.0.0.1, or pass "
            "--allow-unauthenticated behind a trusted proxy",
            cfg.host));
    }
    if (!is_loopback_address(cfg.host) && !auth) {
        spdlog::warn("serving {} without client authentication (--allow-unauthenticated)",
                     cfg.host);
    }
    if (auth && !is_loopback_address(cfg.host)) {
        // A12: bearer tokens need TLS; toolgate speaks plain HTTP, so a proxy must add it.
        spdlog::info("client authentication on; terminate TLS in front of {}:{} (A12)", cfg.host,
                     cfg.port);
    }
    protocol::server_identity identity;
    identity.version = toolgate_version();
    auto naming = cfg.tool_names == "dotted" ? protocol::tool_naming::dotted
                                             : protocol::tool_naming::wire;
    protocol::tool_pages pages(tools.tools(), naming, cfg.page_size, identity);
    protocol::tool_index index(tools.tools());
    protocol::dispatcher dispatcher(identity, pages, index);
    router r(tools, dispatcher, {cfg.max_depth, 64});

    transport::session_signer signer(cfg.session_key);
    if (signer.has_random_key()) {
        spdlog::debug("session ids are signed with a random key; set --session-key (or "
                      "TOOLGATE_SESSION_KEY) to share sessions between replicas");
    }
    session_registry sessions(ioc.get_executor(), std::move(signer), cfg.session_idle_timeout,
                              cfg.session_max_age);
    transport::origin_policy origins(cfg.allowed_origins);
    mcp_http_endpoint endpoint(r, sessions, origins,
                               {cfg.path, is_loopback_address(cfg.host), auth.get()});
    transport::http_limits limits;
    limits.max_body_bytes = cfg.max_body_bytes;
    limits.header_timeout = cfg.header_timeout;
    limits.body_timeout = cfg.body_timeout;
    limits.idle_timeout = cfg.idle_timeout;
    transport::http_listener listener(ioc, cfg.host, cfg.port, endpoint, limits);
    listener.start();
    if (auth && auth->resource().empty()) {
        // Default audience: the URL we serve, now that the port is known (before any request).
        auth->set_resource(canonical_url(cfg.host, listener.port(), cfg.path));
    }
    if (auth) {
        spdlog::info("client authentication: {} static token(s){}", auth->static_token_count(),
                     auth->oauth() ? fmt::format("; OAuth resource {}", auth->resource())
                                   : std::string());
    }
    print_banner(cfg, listener.port(), summary);

    bool stopping = false;
    auto const sweep_every = std::min<std::chrono::seconds>(cfg.session_idle_timeout / 2 + std::chrono::seconds(1),
                                                            std::chrono::seconds(30));
    asio::co_spawn(ioc, sweep_sessions(sessions, r, sweep_every, stopping),
                   [](std::exception_ptr) {});
    asio::signal_set signals(ioc, SIGINT, SIGTERM);
    asio::steady_timer drain(ioc);
    std::function<void(int)> wait_drained = [&](int rounds_left) {
        // Idle keep-alive connections are not waited for; requests being answered are.
        if (listener.active_requests() == 0 || rounds_left == 0) {
            ioc.stop();
            return;
        }
        drain.expires_after(std::chrono::milliseconds(50));
        drain.async_wait([&, rounds_left](boost::system::error_code) {
            wait_drained(rounds_left - 1);
        });
    };
    signals.async_wait([&](boost::system::error_code ec, int sig) {
        if (ec) {
            return;
        }
        // DECISIONS: stop accepting, let in-flight calls finish within a grace period, exit 0.
        spdlog::info("signal {}: no longer accepting; waiting up to 10 s for open requests", sig);
        stopping = true;
        listener.stop();
        wait_drained(200);
    });

    std::vector<std::thread> workers;
    for (unsigned i = 1; i < cfg.threads; ++i) {
        workers.emplace_back([&ioc] { ioc.run(); });
    }
    ioc.run();
    for (auto& t : workers) {
        t.join();
    }
    return 0;
}

} // namespace toolgate::server
