// stdio mode: one conversation over stdin/stdout on a single-threaded io_context.
#include "app/allocator.hpp"
#include "app/app.hpp"
#include "app/controls_wiring.hpp"
#include "app/lifecycle.hpp"
#include "app/served_protocol.hpp"
#include "credentials/credential_hub.hpp"
#include "mcp/router.hpp"
#include "mcp/sign_in_setup.hpp"
#include "mcp/stdio_session.hpp"
#include "protocol/dispatcher.hpp"
#include "protocol/jsonrpc.hpp"
#include "transport/coroutine_root.hpp"
#include "transport/stdio_channel.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <memory>
#include <stdexcept>
#include <utility>

namespace toolgate::app {
namespace asio = boost::asio;

namespace {

/// stdio's part in the lifecycle: one conversation, no listener.
class stdio_mode final : public served_mode {
public:
    stdio_mode(mcp::router& r, mcp::stdio_session& session,
        credentials::credential_hub* platform_credentials, controls_wiring& controls)
        : router_(r)
        , session_(session)
        , credentials_(platform_credentials)
        , controls_(controls)
    {
    }
    void reload() override
    {
        // SIGHUP: reread the secrets file and the token store (rotation without a restart),
        // the policy tables, and reopen the audit log.
        if (credentials_) {
            spdlog::info("SIGHUP: platform credentials reloaded: {}", credentials_->reload());
        }
        if (!controls_.reload() && !credentials_) {
            spdlog::info("SIGHUP: nothing to reload");
        }
    }
    void stop_accepting() override { router_.refuse_new_calls(); }
    asio::awaitable<void> drained() override { co_await router_.until_idle(); }
    void cancel_in_flight() override { session_.cancel_all(); }
    std::size_t in_flight() const override { return router_.inflight(); }

private:
    mcp::router& router_;
    mcp::stdio_session& session_;
    credentials::credential_hub* credentials_;
    controls_wiring& controls_;
};

/// The end of a stdio conversation. It runs on the conversation's strand, so behind every
/// line already read: those lines have been decided and their replies queued (a 1.5 MB listing
/// included) before the calls still running are cancelled, and the process stops once their
/// answers and every queued line are written whole. A client that no longer reads stdout
/// must not keep the process alive: after 2 s it stops with the rest unwritten.
asio::awaitable<void> finish(
    served_mode& mode, transport::stdio_channel& channel, asio::io_context& ioc)
{
    co_await cancel_and_unwind(mode);
    channel.when_flushed([&ioc] { ioc.stop(); });
    asio::steady_timer unread(ioc, std::chrono::seconds(2));
    co_await unread.async_wait(asio::as_tuple(asio::use_awaitable));
    spdlog::warn("stdio: stdout still not read 2 s after the end; stopping anyway");
    ioc.stop();
}

} // namespace

int serve_stdio(config const& cfg, asio::io_context& ioc, service& svc)
{
    if (!cfg.credentials.credentials_file.empty() || cfg.credentials.per_request) {
        throw std::runtime_error("--credentials-file and --per-request-credentials serve several "
                                 "clients over HTTP (--transport http with client "
                                 "authentication); stdio has one client: use --secrets-file");
    }
    served_protocol stack(cfg, svc);
    mcp::router r(stack.provider(), stack.dispatcher(), cfg.limits);
    controls_wiring controls(cfg, svc.store);
    controls.install(r, stack.dispatcher().index());
    r.set_request_states(mcp::make_request_states({}));
    auto sign_in = svc.credentials ? mcp::sign_in_setup::for_stdio(
                       ioc, *svc.credentials, cfg.sign_in, cfg.upstream.call_timeout)
                                   : nullptr;
    if (sign_in) {
        r.add_step(sign_in->step()); // sign-in from the conversation (issue 26)
    }
    spdlog::info("toolgate {} on stdio: {}; {}", toolgate_version(), svc.summary,
        stack.views().mode_summary());
    if (auto const line = controls.summary(); !line.empty()) {
        spdlog::info("{}", line);
    }
    spdlog::info("memory allocator: {}", memory_allocator());

    auto conv = std::make_shared<mcp::conversation>(ioc.get_executor());
    auto channel
        = std::make_shared<transport::stdio_channel>(ioc.get_executor(), cfg.stdio.max_line_bytes);
    conv->outbox().attach(channel); // unsolicited messages are lines on stdout too
    mcp::stdio_session session(r, conv, channel, cfg.stdio.max_line_bytes);
    // docs/decisions.md: stdin EOF cancels in-flight calls and exits promptly with status 0;
    // so does the end of the lifecycle (a signal, then the calls drained or cancelled).
    stdio_mode mode(r, session, svc.credentials.get(), controls);
    bool stopped = false;
    auto const stop = [&ioc, &mode, &stopped, channel, strand = conv->strand()] {
        if (!std::exchange(stopped, true)) {
            asio::co_spawn(strand, finish(mode, *channel, ioc), asio::detached);
        }
    };
    // No --drain-delay here: nothing polls a stdio server's readiness.
    asio::signal_set signals(ioc, SIGINT, SIGTERM, SIGHUP);
    asio::co_spawn(ioc,
        run_lifecycle(signals, mode, { std::chrono::seconds(0), cfg.lifecycle.grace }),
        [&stop](std::exception_ptr const& error) {
            transport::log_root_failure("lifecycle", error);
            stop();
        });
    channel->start({
        [&session](std::string line) { session.on_line(std::move(line)); },
        [&session] { session.on_oversize(); },
        [&stop] { stop(); },
    });
    ioc.run();
    channel->stop();
    return 0;
}

} // namespace toolgate::app
