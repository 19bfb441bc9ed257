// stdio mode: one conversation over stdin/stdout on a single-threaded io_context.
#include "app/allocator.hpp"
#include "app/app.hpp"
#include "app/served_protocol.hpp"
#include "credentials/credential_hub.hpp"
#include "mcp/router.hpp"
#include "mcp/sign_in_setup.hpp"
#include "mcp/stdio_session.hpp"
#include "protocol/dispatcher.hpp"
#include "protocol/jsonrpc.hpp"
#include "transport/stdio_channel.hpp"

#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <functional>
#include <memory>
#include <stdexcept>

namespace toolgate::app {
namespace asio = boost::asio;

int serve_stdio(config const& cfg, asio::io_context& ioc, service& svc)
{
    if (!cfg.credentials_file.empty() || cfg.per_request_credentials) {
        throw std::runtime_error("--credentials-file and --per-request-credentials serve several "
                                 "clients over HTTP (--transport http with client "
                                 "authentication); stdio has one client: use --secrets-file");
    }
    served_protocol stack(cfg, svc);
    mcp::router r(stack.provider(), stack.dispatcher(),
        { cfg.max_depth, cfg.max_inflight_per_session, cfg.max_inflight });
    r.set_request_states(mcp::make_request_states({}));
    auto sign_in = svc.credentials
        ? mcp::sign_in_setup::for_stdio(ioc, *svc.credentials, cfg.sign_in, cfg.call_timeout)
        : nullptr;
    if (sign_in) {
        r.add_step(sign_in->step()); // sign-in from the conversation (issue 26)
    }
    spdlog::info("toolgate {} on stdio: {}; {}", toolgate_version(), svc.summary,
        stack.views().mode_summary());
    spdlog::info("memory allocator: {}", memory_allocator());

    auto conv = std::make_shared<mcp::conversation>(ioc.get_executor());
    auto channel
        = std::make_shared<transport::stdio_channel>(ioc.get_executor(), cfg.max_line_bytes);
    conv->outbox().attach(channel); // unsolicited messages are lines on stdout too
    mcp::stdio_session session(r, conv, channel, cfg.max_line_bytes);
    bool stopped = false;
    auto stop = [&ioc, &session, &stopped, channel] {
        // docs/decisions.md: stdin EOF cancels in-flight calls and exits promptly with status 0.
        if (stopped) {
            return;
        }
        stopped = true;
        session.cancel_all();
        channel->when_flushed([&ioc] { ioc.stop(); });
    };
    // docs/decisions.md "Shutdown": a signal lets the calls in flight finish within
    // --shutdown-grace (new calls are refused meanwhile), then cancels the rest; a second signal or
    // stdin EOF cuts the wait short.
    asio::steady_timer drain(ioc);
    std::chrono::steady_clock::time_point deadline;
    std::function<void()> poll_drained = [&] {
        if (stopped) {
            return;
        }
        if (r.inflight() == 0 || std::chrono::steady_clock::now() >= deadline) {
            if (r.inflight() != 0) {
                spdlog::warn("shutdown: grace period over; cancelling {} call(s)", r.inflight());
            }
            stop();
            return;
        }
        drain.expires_after(std::chrono::milliseconds(20));
        drain.async_wait([&](boost::system::error_code ec) {
            if (!ec) {
                poll_drained();
            }
        });
    };
    asio::signal_set signals(ioc, SIGINT, SIGTERM);
    std::function<void(boost::system::error_code, int)> on_signal
        = [&](boost::system::error_code ec, int sig) {
              if (ec || stopped) {
                  return;
              }
              if (r.is_refusing_calls()) {
                  spdlog::info("signal {} again: cancelling calls now", sig);
                  stop();
                  return;
              }
              spdlog::info("signal {}: waiting up to {} s for {} call(s) in flight", sig,
                  cfg.shutdown_grace.count(), r.inflight());
              r.refuse_new_calls();
              deadline = std::chrono::steady_clock::now() + cfg.shutdown_grace;
              signals.async_wait(on_signal);
              poll_drained();
          };
    signals.async_wait(on_signal);
    // SIGHUP: reread the secrets file and the token store (rotation without a restart).
    asio::signal_set hangups(ioc, SIGHUP);
    std::function<void(boost::system::error_code, int)> on_hangup
        = [&](boost::system::error_code ec, int) {
              if (ec || stopped) {
                  return;
              }
              if (svc.credentials) {
                  spdlog::info(
                      "SIGHUP: platform credentials reloaded: {}", svc.credentials->reload());
              } else {
                  spdlog::info("SIGHUP: nothing to reload");
              }
              hangups.async_wait(on_hangup);
          };
    hangups.async_wait(on_hangup);
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
