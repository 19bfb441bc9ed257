// The start-up banner of HTTP mode (see http_banner.hpp).
#include "app/http_banner.hpp"

#include "app/allocator.hpp"
#include "app/app.hpp"

#include <boost/json/serialize.hpp>
#include <boost/json/value_from.hpp>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace toolgate::app {
namespace {

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

/// How to connect with the Inspector's CLI, for the client authentication in force.
void print_connect_hint(
    std::string const& url, auth::client_auth const* auth, std::string const& issuer)
{
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
            issuer, url);
    }
}

} // namespace

void print_banner(config const& cfg, std::uint16_t port, std::string const& summary,
    auth::client_auth const* auth, std::uint16_t metrics_port)
{
    auto const url = fmt::format("http://{}:{}{}", url_host(cfg.http.host), port, cfg.http.path);
    if (!cfg.ops.metrics_listen.empty()) {
        auto const address = parse_listen_address(cfg.ops.metrics_listen);
        spdlog::info("metrics at http://{}:{}/metrics{}", url_host(address->first), metrics_port,
            cfg.ops.metrics_public ? "" : " (client authentication as on the MCP port)");
    }
    spdlog::info("memory allocator: {}", memory_allocator());
    spdlog::info("toolgate {} serving MCP (Streamable HTTP) at {}", toolgate_version(), url);
    spdlog::info("{}", summary);
    print_connect_hint(url, auth, cfg.client_auth.issuer);
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

} // namespace toolgate::app
