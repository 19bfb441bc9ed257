// stdio mode: one conversation over stdin/stdout on a single-threaded io_context.
#include "protocol/dispatcher.hpp"
#include "protocol/jsonrpc.hpp"
#include "server/app.hpp"
#include "server/router.hpp"
#include "transport/stdio_channel.hpp"

#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace toolgate::server {
namespace asio = boost::asio;

namespace {

protocol::tool_naming naming_of(config const& cfg)
{
    return cfg.tool_names == "dotted" ? protocol::tool_naming::dotted : protocol::tool_naming::wire;
}

} // namespace

int serve_stdio(config const& cfg, asio::io_context& ioc, toolkits::tool_provider& tools)
{
    protocol::server_identity identity;
    identity.version = toolgate_version();
    protocol::tool_pages pages(tools.tools(), naming_of(cfg), cfg.page_size, identity);
    protocol::tool_index index(tools.tools());
    protocol::dispatcher dispatcher(identity, pages, index);
    router r(tools, dispatcher, {cfg.max_depth, 64});

    auto conv = std::make_shared<conversation>(ioc.get_executor());
    auto channel = std::make_shared<transport::stdio_channel>(ioc.get_executor(), cfg.max_line_bytes);
    auto stop = [&ioc, &r, conv, channel] {
        // DECISIONS: stdin EOF cancels in-flight calls and exits promptly with status 0.
        r.cancel_all(*conv);
        channel->when_flushed([&ioc] { ioc.stop(); });
    };
    asio::signal_set signals(ioc, SIGINT, SIGTERM);
    signals.async_wait([&stop](boost::system::error_code ec, int sig) {
        if (!ec) {
            spdlog::info("signal {}: shutting down", sig);
            stop();
        }
    });
    std::size_t const limit = cfg.max_line_bytes;
    channel->start({
        [&r, conv, channel](std::string line) { r.on_text(conv, std::move(line), channel); },
        [channel, limit] {
            channel->send(protocol::serialize_error(
                nullptr, {protocol::error_code::parse_error,
                          fmt::format("Parse error: message longer than {} bytes; it was "
                                      "skipped (raise --max-line-bytes to allow it)",
                                      limit),
                          std::nullopt}));
        },
        [&stop] { stop(); },
    });
    ioc.run();
    return 0;
}

} // namespace toolgate::server
