// Streamable HTTP mode: the listener, sessions and endpoint on a small thread pool.
#include "app/allocator.hpp"
#include "app/app.hpp"
#include "app/lifecycle.hpp"
#include "app/served_protocol.hpp"
#include "auth/client_auth.hpp"
#include "credentials/credential_hub.hpp"
#include "mcp/http_endpoint.hpp"
#include "mcp/router.hpp"
#include "mcp/session_registry.hpp"
#include "mcp/sign_in_setup.hpp"
#include "ops/metrics.hpp"
#include "ops/ops_endpoint.hpp"
#include "transport/coroutine_root.hpp"
#include "transport/http_listener.hpp"
#include "transport/https_client.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value_from.hpp>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <optional>
#include <thread>

namespace toolgate::app {
namespace asio = boost::asio;
using auth::client_auth;
using mcp::router;
using mcp::session_registry;

namespace {

/// The client-authentication part of the configuration.
auth::client_auth_options client_auth_options_of(config const& cfg)
{
    auth::client_auth_options options;
    options.token_file = cfg.auth_token_file;
    options.jwks_file = cfg.oauth_jwks_file;
    options.issuer = cfg.oauth_issuer;
    options.audience = cfg.oauth_audience;
    options.authorization_servers = cfg.oauth_authorization_servers;
    options.scopes = cfg.oauth_scopes;
    options.leeway = cfg.oauth_leeway;
    options.host = cfg.host;
    return options;
}

bool is_loopback_address(std::string const& host)
{
    return host == "127.0.0.1" || host == "::1" || host.starts_with("127.");
}

ops::session_gauges gauges_of(session_registry const& sessions)
{
    auto const c = sessions.counts();
    return { c.live, c.opened, c.adopted, c.deleted, c.expired, c.evicted };
}

/// Runs until the io_context stops (the end of the lifecycle).
asio::awaitable<void> sweep_sessions(
    session_registry& sessions, router& r, std::chrono::seconds every)
{
    asio::steady_timer timer(co_await asio::this_coro::executor);
    for (;;) {
        timer.expires_after(every);
        co_await timer.async_wait(asio::as_tuple(asio::use_awaitable));
        sessions.expire_idle(r);
    }
}

/// `arg` as one shell word: kept as it is when plain, else single-quoted.
std::string shell_word(std::string const& arg)
{
    bool const plain = !arg.empty()
        && arg.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                 "0123456789_./,:=+@%-")
            == std::string::npos;
    if (plain) {
        return arg;
    }
    std::string out = "'";
    for (char c : arg) {
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return out + "'";
}

std::string url_host(std::string const& host)
{
    return host.find(':') != std::string::npos ? "[" + host + "]" : host;
}

void print_banner(config const& cfg, std::uint16_t port, std::string const& summary,
    client_auth const* auth, std::uint16_t metrics_port)
{
    auto const url = fmt::format("http://{}:{}{}", url_host(cfg.host), port, cfg.path);
    if (!cfg.metrics_listen.empty()) {
        auto const address = parse_listen_address(cfg.metrics_listen);
        spdlog::info("metrics at http://{}:{}/metrics{}", url_host(address->first), metrics_port,
            cfg.metrics_public ? "" : " (client authentication as on the MCP port)");
    }
    spdlog::info("memory allocator: {}", memory_allocator());
    spdlog::info("toolgate {} serving MCP (Streamable HTTP) at {}", toolgate_version(), url);
    spdlog::info("{}", summary);
    if (!auth) {
        spdlog::info(
            "connect: npx @modelcontextprotocol/inspector --cli {} --method tools/list", url);
    } else if (!auth->oauth()) {
        spdlog::info("connect with a token of --auth-token-file: npx @modelcontextprotocol/"
                     "inspector --cli {} --method tools/list --header \"Authorization: Bearer "
                     "<token>\" (static bearer tokens; there is no OAuth sign-in)",
            url);
    } else {
        spdlog::info("connect with an access token from {}: npx @modelcontextprotocol/inspector "
                     "--cli {} --method tools/list --header \"Authorization: Bearer <token>\"",
            cfg.oauth_issuer, url);
    }
    // The same tools over stdio, for a desktop client: the flags in force, as a shell command
    // and as the JSON `args` list a client's configuration file takes (one argument each).
    auto const args = stdio_arguments(cfg);
    std::string command = "toolgate";
    for (auto const& a : args) {
        command += ' ' + shell_word(a);
    }
    spdlog::info("the same tools over stdio: {}{}; Ctrl-C stops this server", command,
        args.empty() ? std::string(" (no arguments)")
                     : fmt::format(" (a client's JSON configuration: \"command\": "
                                   "\"toolgate\", \"args\": {})",
                         boost::json::serialize(boost::json::value_from(args))));
}

/// HTTP's part in the lifecycle: the listeners, the sessions and the router.
class http_mode final : public served_mode {
public:
    http_mode(router& r, session_registry& sessions, transport::http_listener& listener,
        transport::http_listener* metrics_listener, client_auth* auth, config const& cfg,
        credentials::credential_hub* platform_credentials)
        : router_(r)
        , sessions_(sessions)
        , listener_(listener)
        , metrics_listener_(metrics_listener)
        , auth_(auth)
        , cfg_(cfg)
        , credentials_(platform_credentials)
    {
    }

    /// SIGHUP: read the token file and the JWKS again (rotation without a restart), and the
    /// platform credentials.
    void reload() override
    {
        if (!auth_) {
            spdlog::info("SIGHUP: no client authentication is configured; nothing to reload");
        } else {
            try {
                spdlog::info("SIGHUP: client authentication reloaded: {}",
                    auth_->reload(client_auth_options_of(cfg_)));
            } catch (std::exception const& e) {
                spdlog::error("SIGHUP: client authentication not reloaded: {}", e.what());
            }
        }
        if (credentials_) {
            spdlog::info("SIGHUP: platform credentials reloaded: {}", credentials_->reload());
        }
    }
    /// Idle keep-alive connections close; a connection answering a request finishes it.
    void stop_accepting() override
    {
        router_.refuse_new_calls();
        listener_.stop();
        if (metrics_listener_) {
            metrics_listener_->stop();
        }
    }
    /// Every call's ticket given back, then every answer written.
    asio::awaitable<void> drained() override
    {
        co_await router_.until_idle();
        co_await listener_.until_idle();
    }
    /// Session calls through their sessions; stateless calls by closing their connections.
    void cancel_in_flight() override
    {
        sessions_.cancel_all(router_);
        listener_.close_all();
    }
    std::size_t in_flight() const override { return router_.inflight(); }

private:
    router& router_;
    session_registry& sessions_;
    transport::http_listener& listener_;
    transport::http_listener* metrics_listener_;
    client_auth* auth_;
    config const& cfg_;
    credentials::credential_hub* credentials_;
};

/// The listener of --metrics-listen (set): a few connections, GET only.
std::unique_ptr<transport::http_listener> make_metrics_listener(
    config const& cfg, asio::io_context& ioc, transport::http_handler& handler)
{
    auto const address = parse_listen_address(cfg.metrics_listen);
    transport::http_limits limits;
    limits.max_body_bytes = 64 * 1024; // GET only
    limits.max_connections = 64;
    limits.max_connections_per_address = 32;
    return std::make_unique<transport::http_listener>(
        ioc, address->first, address->second, handler, limits);
}

} // namespace

int serve_http(config const& cfg, asio::io_context& ioc, service& svc)
{
    auto auth = client_auth::from_options(client_auth_options_of(cfg));
    if (!is_loopback_address(cfg.host) && !auth && !cfg.allow_unauthenticated) {
        throw std::runtime_error(fmt::format(
            "--host {} is not a loopback address and client authentication is not configured; "
            "set --auth-token-file or --oauth-jwks-file, bind 127.0.0.1, or pass "
            "--allow-unauthenticated behind a trusted proxy",
            cfg.host));
    }
    if (!is_loopback_address(cfg.host) && !auth) {
        spdlog::warn(
            "serving {} without client authentication (--allow-unauthenticated)", cfg.host);
    }
    // Per-client credentials need to know who the client is (issue 14 item 5).
    if (!auth && (!cfg.credentials_file.empty() || cfg.per_request_credentials)) {
        throw std::runtime_error(
            "--credentials-file and --per-request-credentials need client authentication "
            "(--auth-token-file, TOOLGATE_AUTH_TOKENS or --oauth-jwks-file)");
    }
    if (svc.credentials && svc.credentials->multi_user()) {
        spdlog::info("platform credentials per client{}{}; the server's own {}",
            cfg.credentials_file.empty() ? "" : " (credentials file)",
            cfg.per_request_credentials ? " (Toolgate-Secret-* headers)" : "",
            cfg.shared_credentials ? "serve clients without their own "
                                     "(--shared-credentials)"
                                   : "serve no client");
    }
    if (auth && !is_loopback_address(cfg.host)) {
        // A12: bearer tokens need TLS; toolgate speaks plain HTTP, so a proxy must add it.
        spdlog::info(
            "client authentication on; terminate TLS in front of {}:{} (A12)", cfg.host, cfg.port);
    }
    served_protocol stack(cfg, svc);
    router r(stack.provider(), stack.dispatcher(),
        { cfg.max_depth, cfg.max_inflight_per_session, cfg.max_inflight,
            cfg.max_inflight_per_principal });
    r.set_request_states(mcp::make_request_states(cfg.session_key));

    transport::session_signer signer(cfg.session_key);
    if (signer.has_random_key()) {
        spdlog::debug("session ids are signed with a random key; set --session-key (or "
                      "TOOLGATE_SESSION_KEY) to share sessions between replicas");
    }
    session_registry sessions(
        ioc.get_executor(), std::move(signer), cfg.session_idle_timeout, cfg.session_max_age);
    sessions.set_max_sessions(cfg.max_sessions);
    sessions.set_max_sessions_per_principal(cfg.max_sessions_per_principal);
    transport::origin_policy origins(cfg.allowed_origins);
    // Metrics: every call, upstream request and listing counts from here on.
    // Label sets from the router's tools: the service's and the discovery meta-tools.
    ops::server_metrics metrics(stack.provider().tools(), toolgate_version());
    r.set_observer(&metrics);
    if (svc.upstream) {
        svc.upstream->set_observer(&metrics.upstream_observer());
    }
    // Ready once listening with the catalogue loaded (it is: the provider exists); not ready
    // from the moment shutdown begins.
    std::atomic<bool> ready { false };
    // Sign-in from the conversation (issue 26), where the service has OAuth toolkits.
    auto sign_in = svc.credentials ? mcp::sign_in_setup::for_http(
                       *svc.credentials, cfg.sign_in, cfg.session_key, cfg.call_timeout)
                                   : nullptr;
    if (sign_in) {
        r.add_step(sign_in->step());
    }
    mcp::endpoint_options mcp_options { cfg.path, is_loopback_address(cfg.host), auth.get(),
        &stack.views() };
    mcp_options.sign_in = sign_in ? &sign_in->service() : nullptr;
    mcp_options.ops.ready = &ready;
    mcp_options.ops.metrics = cfg.metrics_listen.empty() ? &metrics : nullptr;
    mcp_options.ops.metrics_public = cfg.metrics_public;
    mcp_options.credentials = svc.credentials.get();
    mcp::mcp_http_endpoint endpoint(r, sessions, origins, mcp_options);
    transport::http_limits limits;
    limits.max_body_bytes = cfg.max_body_bytes;
    limits.header_timeout = cfg.header_timeout;
    limits.body_timeout = cfg.body_timeout;
    limits.idle_timeout = cfg.idle_timeout;
    limits.max_header_bytes = cfg.max_header_bytes;
    limits.max_connections = cfg.max_connections;
    limits.max_connections_per_address = cfg.max_connections_per_address;
    transport::http_listener listener(ioc, cfg.host, cfg.port, endpoint, limits);
    listener.start();
    if (sign_in) {
        sign_in->set_bound(cfg.host, listener.port());
    }
    // --metrics-listen: /metrics, /healthz and /readyz on a port of their own.
    std::optional<ops::ops_endpoint> ops_endpoint;
    std::unique_ptr<transport::http_listener> metrics_listener;
    if (!cfg.metrics_listen.empty()) {
        ops_endpoint.emplace(ops::ops_options { &ready, &metrics, cfg.metrics_public, auth.get() },
            origins, is_loopback_address(parse_listen_address(cfg.metrics_listen)->first));
        metrics_listener = make_metrics_listener(cfg, ioc, *ops_endpoint);
        metrics_listener->start();
    }
    metrics.set_sources({ &listener, svc.upstream, [&sessions] { return gauges_of(sessions); },
        [&r] { return r.inflight(); }, &ready });
    if (auth && auth->resource().empty()) {
        // Default audience: the URL we serve, now that the port is known (before any request).
        auth->set_resource(auth::canonical_url(cfg.host, listener.port(), cfg.path));
    }
    if (auth) {
        spdlog::info("client authentication: {} static token(s){}", auth->static_token_count(),
            auth->oauth() ? fmt::format("; OAuth resource {}", auth->resource()) : std::string());
    }

    auto const sweep_every = std::min<std::chrono::seconds>(
        cfg.session_idle_timeout / 2 + std::chrono::seconds(1), std::chrono::seconds(30));
    asio::co_spawn(
        ioc, sweep_sessions(sessions, r, sweep_every), transport::logged { "session sweeper" });
    // docs/decisions.md "Shutdown": the lifecycle stops accepting, lets in-flight calls finish
    // within the grace period, then cancels them; the process exits 0.
    asio::signal_set signals(ioc, SIGINT, SIGTERM, SIGHUP);
    http_mode mode(
        r, sessions, listener, metrics_listener.get(), auth.get(), cfg, svc.credentials.get());
    asio::co_spawn(ioc,
        run_lifecycle(signals, mode, { cfg.drain_delay, cfg.shutdown_grace, &ready }),
        [&ioc](std::exception_ptr const& error) {
            transport::log_root_failure("lifecycle", error);
            ioc.stop();
        });

    // Last: whoever waits for the banner (a supervisor, a test) may signal at once, and the
    // handlers above must be in place by then.
    ready = true;
    print_banner(cfg, listener.port(), svc.summary + "; " + stack.views().mode_summary(),
        auth.get(), metrics_listener ? metrics_listener->port() : std::uint16_t(0));

    std::vector<std::thread> workers;
    for (unsigned i = 1; i < cfg.threads; ++i) {
        workers.emplace_back([&ioc] { ioc.run(); });
    }
    ioc.run();
    for (auto& t : workers) {
        t.join();
    }
    if (svc.upstream) {
        svc.upstream->set_observer(nullptr); // `metrics` ends with this scope
    }
    return 0;
}

} // namespace toolgate::app
