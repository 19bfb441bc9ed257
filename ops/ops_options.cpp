// The operator's flags (see ops_options.hpp).
#include "ops/ops_options.hpp"

#include <CLI/App.hpp>

#include <charconv>

namespace toolgate::ops {

void add_metrics_options(CLI::App& app, options& o)
{
    app.add_option("--metrics-listen", o.metrics_listen,
           "serve /metrics (and /healthz, /readyz) on this ADDR:PORT instead of the HTTP "
           "port, e.g. 127.0.0.1:9464")
        ->envname("TOOLGATE_METRICS_LISTEN")
        ->check([](std::string const& v) {
            return parse_listen_address(v) ? std::string()
                                           : std::string("expected ADDR:PORT, e.g. 127.0.0.1:9464");
        });
    app.add_flag("--metrics-public", o.metrics_public,
        "serve /metrics without client authentication (a scraper on a private network)");
}

void add_log_options(CLI::App& app, options& o)
{
    app.add_option("--log-level", o.log_level, "stderr log level")
        ->check(CLI::IsMember({ "trace", "debug", "info", "warn", "error", "off" }))
        ->envname("TOOLGATE_LOG_LEVEL");
    app.add_option("--log-format", o.log_format,
           "stderr log format: text, or json (one object a line: time, level, message, "
           "fields)")
        ->check(CLI::IsMember({ "text", "json" }))
        ->envname("TOOLGATE_LOG_FORMAT");
}

std::optional<std::pair<std::string, std::uint16_t>> parse_listen_address(std::string_view text)
{
    auto const colon = text.rfind(':');
    if (colon == std::string_view::npos || colon == 0) {
        return std::nullopt;
    }
    auto host = text.substr(0, colon);
    if (host.starts_with('[') && host.ends_with(']')) {
        host = host.substr(1, host.size() - 2);
    } else if (host.find(':') != std::string_view::npos) {
        return std::nullopt; // IPv6 needs brackets
    }
    auto const port_text = text.substr(colon + 1);
    unsigned port = 0;
    auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
    if (host.empty() || ec != std::errc() || end != port_text.data() + port_text.size()
        || port > 65535) {
        return std::nullopt;
    }
    return std::pair { std::string(host), static_cast<std::uint16_t>(port) };
}

} // namespace toolgate::ops
