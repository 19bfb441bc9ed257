// Streamable HTTP mode: the listener, sessions and endpoint on a small thread pool, the
// operator's endpoint, and the lifecycle that ends them.
#include "app/app.hpp"
#include "app/controls_wiring.hpp"
#include "app/http_banner.hpp"
#include "app/lifecycle.hpp"
#include "app/served_protocol.hpp"
#include "app/state_store.hpp"
#include "auth/client_auth.hpp"
#include "common/loopback.hpp"
#include "common/thread_name.hpp"
#include "credentials/credential_hub.hpp"
#include "mcp/http_endpoint.hpp"
#include "mcp/router.hpp"
#include "mcp/session_registry.hpp"
#include "mcp/sign_in_setup.hpp"
#include "ops/metrics.hpp"
#include "ops/ops_endpoint.hpp"
#include "toolkits/upstream_pacer.hpp"
#include "transport/coroutine_root.hpp"
#include "transport/http_listener.hpp"
#include "transport/https_client.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
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

/// Client authentication's options, with the bind address it judges a wildcard by.
auth::client_auth_options client_auth_options_of(config const& cfg)
{
    auto options = cfg.client_auth;
    options.host = cfg.http.host;
    return options;
}

/// The metrics port follows the MCP port's rule (security review 3, item 16): off loopback,
/// either clients authenticate, or the operator said the metrics are for anyone.
void check_metrics_exposure(config const& cfg, client_auth const* auth)
{
    auto const& listen = cfg.ops.metrics_listen;
    if (listen.empty() || common::is_loopback_host(parse_listen_address(listen)->first) || auth
        || cfg.ops.metrics_public || cfg.http.allow_unauthenticated) {
        return;
    }
    throw std::runtime_error(fmt::format(
        "--metrics-listen {} is not a loopback address and client authentication is not "
        "configured, so anyone who reaches it reads the metrics; bind it to 127.0.0.1, set "
        "--auth-token-file or --oauth-jwks-file, or pass --metrics-public to serve them to "
        "anyone who reaches that address",
        listen));
}

/// Who may reach this server, and with what: refuses (throws) an exposed bind without client
/// authentication and per-client credentials without it; says what is in force.
void check_exposure(config const& cfg, client_auth const* auth, service const& svc)
{
    auto const& host = cfg.http.host;
    auto const& creds = cfg.credentials;
    if (!common::is_loopback_host(host) && !auth && !cfg.http.allow_unauthenticated) {
        throw std::runtime_error(fmt::format(
            "--host {} is not a loopback address and client authentication is not configured; "
            "set --auth-token-file or --oauth-jwks-file, bind 127.0.0.1, or pass "
            "--allow-unauthenticated behind a trusted proxy",
            host));
    }
    if (!common::is_loopback_host(host) && !auth) {
        spdlog::warn("serving {} without client authentication (--allow-unauthenticated)", host);
    }
    check_metrics_exposure(cfg, auth);
    // Per-client credentials need to know who the client is (issue 14 item 5).
    if (!auth && (!creds.credentials_file.empty() || creds.per_request)) {
        throw std::runtime_error(
            "--credentials-file and --per-request-credentials need client authentication "
            "(--auth-token-file, TOOLGATE_AUTH_TOKENS or --oauth-jwks-file)");
    }
    if (svc.credentials && svc.credentials->multi_user()) {
        spdlog::info("platform credentials per client{}{}; the server's own {}",
            creds.credentials_file.empty() ? "" : " (credentials file)",
            creds.per_request ? " (Toolgate-Secret-* headers)" : "",
            creds.shared ? "serve clients without their own (--shared-credentials)"
                         : "serve no client");
    }
    if (auth && !common::is_loopback_host(host)) {
        // A12: bearer tokens need TLS; toolgate speaks plain HTTP, so a proxy must add it.
        spdlog::info(
            "client authentication on; terminate TLS in front of {}:{} (A12)", host, cfg.http.port);
    }
}

transport::session_signer signer_of(mcp::session_options const& o)
{
    transport::session_signer signer(o.key);
    if (signer.has_random_key()) {
        spdlog::debug("session ids are signed with a random key; set --session-key (or "
                      "TOOLGATE_SESSION_KEY) to share sessions between replicas");
    }
    return signer;
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

/// HTTP's part in the lifecycle: the listeners, the sessions and the router.
class http_mode final : public served_mode {
public:
    http_mode(router& r, session_registry& sessions, transport::http_listener& listener,
        transport::http_listener* metrics_listener, client_auth* auth, config const& cfg,
        credentials::credential_hub* platform_credentials, controls_wiring& controls)
        : router_(r)
        , sessions_(sessions)
        , listener_(listener)
        , metrics_listener_(metrics_listener)
        , auth_(auth)
        , cfg_(cfg)
        , credentials_(platform_credentials)
        , controls_(controls)
    {
    }

    /// SIGHUP: read the token file and the JWKS again (rotation without a restart), the
    /// platform credentials and the policy tables; reopen the audit log.
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
        controls_.reload();
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
    controls_wiring& controls_;
};

/// The listener of --metrics-listen (set): a few connections, GET only.
std::unique_ptr<transport::http_listener> make_metrics_listener(
    config const& cfg, asio::io_context& ioc, transport::http_handler& handler)
{
    auto const address = parse_listen_address(cfg.ops.metrics_listen);
    transport::http_limits limits;
    limits.max_body_bytes = 64 * 1024; // GET only
    limits.max_connections = 64;
    limits.max_connections_per_address = 32;
    return std::make_unique<transport::http_listener>(
        ioc, address->first, address->second, handler, limits);
}

/// Everything HTTP mode serves with, built in order (members are initialised in declaration
/// order, each from those before it) and listening once constructed.
class http_server {
public:
    http_server(
        config const& cfg, asio::io_context& ioc, service& svc, std::unique_ptr<client_auth> auth);
    int run();

private:
    mcp::endpoint_options endpoint_options_of();
    void start_metrics_port();

    config const& cfg_;
    asio::io_context& ioc_;
    service& svc_;
    std::unique_ptr<client_auth> auth_;
    served_protocol stack_;
    router router_;
    /// Policy, quotas, confirmation, audit log (docs/controlling-writes.md).
    controls_wiring controls_;
    /// Sign-in from the conversation (issue 26); null for a service without OAuth credentials.
    std::unique_ptr<mcp::sign_in_setup> sign_in_;
    session_registry sessions_;
    transport::origin_policy origins_;
    /// Label sets from the router's tools: the service's and the discovery meta-tools.
    ops::server_metrics metrics_;
    store_command_counter store_commands_ { metrics_.store() }; ///< --state-store's commands
    /// Ready once listening with the catalogue loaded; not ready from the first stop signal.
    std::atomic<bool> ready_ { false };
    mcp::mcp_http_endpoint endpoint_;
    transport::http_listener listener_;
    std::optional<ops::ops_endpoint> ops_endpoint_;
    std::unique_ptr<transport::http_listener> metrics_listener_;
};

http_server::http_server(
    config const& cfg, asio::io_context& ioc, service& svc, std::unique_ptr<client_auth> auth)
    : cfg_(cfg)
    , ioc_(ioc)
    , svc_(svc)
    , auth_(std::move(auth))
    , stack_(cfg, svc)
    , router_(stack_.provider(), stack_.dispatcher(), cfg.limits)
    , controls_(cfg, svc.store)
    , sign_in_(svc.credentials ? mcp::sign_in_setup::for_http(
                   *svc.credentials, cfg.sign_in, cfg.sessions.key, cfg.upstream.call_timeout)
                               : nullptr)
    , sessions_(ioc.get_executor(), signer_of(cfg.sessions), cfg.sessions.idle_timeout,
          cfg.sessions.max_age)
    , origins_(cfg.http.allowed_origins)
    , metrics_(stack_.provider().tools(), toolgate_version())
    , endpoint_(router_, sessions_, origins_, endpoint_options_of())
    , listener_(ioc, cfg.http.host, cfg.http.port, endpoint_, cfg.http.limits)
{
    router_.set_request_states(mcp::make_request_states(cfg.sessions.key));
    controls_.install(router_, stack_.dispatcher().index());
    if (sign_in_) {
        router_.add_step(sign_in_->step());
    }
    sessions_.set_max_sessions(cfg.sessions.max_sessions);
    sessions_.set_max_sessions_per_principal(cfg.sessions.max_per_principal);
    std::function<ops::store_gauges()> store_gauges;
    if (svc.store) {
        // --state-store: a DELETE on any replica is final on all; the store's health is shown.
        sessions_.share_ended_ids(std::make_shared<state::redis_ended_ids>(svc.store));
        svc.store->set_observer(&store_commands_);
        store_gauges = [store = svc.store] { return store_gauges_of(*store); };
    }
    // Metrics: every call, upstream request and listing counts from here on.
    router_.set_observer(&metrics_);
    if (svc.upstream) {
        svc.upstream->set_observer(&metrics_.upstream_observer());
    }
    if (svc.pacer) {
        svc.pacer->set_observer(&metrics_.upstream_observer());
    }
    listener_.start();
    if (sign_in_) {
        sign_in_->set_bound(cfg.http.host, listener_.port()); // the default --public-url
    }
    start_metrics_port();
    metrics_.set_sources({ &listener_, svc.upstream, [this] { return gauges_of(sessions_); },
        [this] { return router_.inflight(); }, &ready_, std::move(store_gauges) });
    if (auth_ && auth_->resource().empty()) {
        // Default audience: the URL we serve, now that the port is known (before any request).
        auth_->set_resource(auth::canonical_url(cfg.http.host, listener_.port(), cfg.http.path));
    }
    if (auto const line = controls_.summary(); !line.empty()) {
        spdlog::info("{}", line);
    }
    if (auth_) {
        spdlog::info("client authentication: {} static token(s){}", auth_->static_token_count(),
            auth_->oauth() ? fmt::format("; OAuth resource {}", auth_->resource()) : std::string());
    }
}

mcp::endpoint_options http_server::endpoint_options_of()
{
    mcp::endpoint_options o { cfg_.http.path, common::is_loopback_host(cfg_.http.host), auth_.get(),
        &stack_.views() };
    o.ops.ready = &ready_;
    o.ops.metrics = cfg_.ops.metrics_listen.empty() ? &metrics_ : nullptr;
    o.ops.metrics_public = cfg_.ops.metrics_public;
    o.credentials = svc_.credentials.get();
    o.policy = controls_.policy();
    o.sign_in = sign_in_ ? &sign_in_->service() : nullptr;
    if (svc_.store) {
        o.ops.store_connected = [store = svc_.store] { return store->status().connected; };
    }
    return o;
}

/// --metrics-listen: /metrics, /healthz and /readyz on a port of their own.
void http_server::start_metrics_port()
{
    if (cfg_.ops.metrics_listen.empty()) {
        return;
    }
    auto const address = parse_listen_address(cfg_.ops.metrics_listen);
    ops_endpoint_.emplace(ops::ops_options { &ready_, &metrics_, cfg_.ops.metrics_public,
                              auth_.get(), endpoint_options_of().ops.store_connected },
        origins_, common::is_loopback_host(address->first));
    metrics_listener_ = make_metrics_listener(cfg_, ioc_, *ops_endpoint_);
    metrics_listener_->start();
}

int http_server::run()
{
    auto const sweep_every = std::min<std::chrono::seconds>(
        cfg_.sessions.idle_timeout / 2 + std::chrono::seconds(1), std::chrono::seconds(30));
    asio::co_spawn(ioc_, sweep_sessions(sessions_, router_, sweep_every),
        transport::logged { "session sweeper" });
    // docs/decisions.md "Shutdown": the lifecycle stops accepting, lets in-flight calls finish
    // within the grace period, then cancels them; the process exits 0.
    asio::signal_set signals(ioc_, SIGINT, SIGTERM, SIGHUP);
    http_mode mode(router_, sessions_, listener_, metrics_listener_.get(), auth_.get(), cfg_,
        svc_.credentials.get(), controls_);
    auto options = cfg_.lifecycle;
    options.ready = &ready_;
    asio::co_spawn(
        ioc_, run_lifecycle(signals, mode, options), [this](std::exception_ptr const& error) {
            transport::log_root_failure("lifecycle", error);
            ioc_.stop();
        });
    // Last: whoever waits for the banner (a supervisor, a test) may signal at once, and the
    // signal set above must be in place by then.
    ready_ = true;
    print_banner(cfg_, listener_.port(), svc_.summary + "; " + stack_.views().mode_summary(),
        auth_.get(), metrics_listener_ ? metrics_listener_->port() : std::uint16_t(0));
    std::vector<std::thread> workers;
    for (unsigned i = 1; i < cfg_.http.threads; ++i) {
        workers.emplace_back([this, i] {
            common::name_this_thread(fmt::format("toolgate-io-{}", i));
            ioc_.run();
        });
    }
    ioc_.run();
    for (auto& t : workers) {
        t.join();
    }
    if (svc_.upstream) {
        svc_.upstream->set_observer(nullptr); // the metrics end with this object
    }
    if (svc_.store) {
        svc_.store->set_observer(nullptr);
    }
    if (svc_.pacer) {
        svc_.pacer->set_observer(nullptr);
    }
    return 0;
}

} // namespace

int serve_http(config const& cfg, asio::io_context& ioc, service& svc)
{
    auto auth = client_auth::from_options(client_auth_options_of(cfg));
    check_exposure(cfg, auth.get(), svc);
    http_server server(cfg, ioc, svc, std::move(auth));
    return server.run();
}

} // namespace toolgate::app
