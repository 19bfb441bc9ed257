// Beast operations of the outbound client: resolve, connect, CONNECT tunnel, TLS handshake and
// one HTTP/1.1 exchange. The only TU that instantiates Beast stream operations for it
// (STYLE §8): concrete stream types, no templates over streams.
#include "transport/upstream_connection.hpp"

#include "transport/cancellation.hpp"
#include "transport/read_room.hpp"
#include "transport/tls_context.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <sys/socket.h>

namespace toolgate::transport {
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;
using tls_stream = beast::ssl_stream<beast::tcp_stream>;
using boost::system::error_code;

struct upstream_connection::impl {
    impl(asio::io_context& ioc, std::shared_ptr<ssl::context> ctx)
        : tls_context(std::move(ctx))
        , strand(asio::make_strand(ioc))
        , tcp(strand)
    {
    }
    beast::tcp_stream& lowest() { return tls ? tls->next_layer() : tcp; }

    std::shared_ptr<ssl::context> tls_context; // declared first: outlives `tls`
    asio::strand<asio::io_context::executor_type> strand;
    beast::tcp_stream tcp; // the connection, until TLS takes it over
    std::optional<tls_stream> tls; // engaged after a successful handshake set-up
    beast::flat_buffer buffer; // kept across exchanges: bytes read past one response
};

namespace {

constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);
constexpr std::uint32_t header_limit = 64 * 1024;
constexpr std::size_t response_room = 64 * 1024; // a TLS record (16 KiB) and more per read

std::string format_duration(std::chrono::milliseconds d)
{
    if (d.count() % 1000 == 0) {
        return fmt::format("{} s", d.count() / 1000);
    }
    return fmt::format("{} ms", d.count());
}

step_outcome failed(outbound_failure failure, std::string detail)
{
    step_outcome out;
    out.failure = failure;
    out.detail = std::move(detail);
    return out;
}

/// A connect-phase failure: timeouts name the bound that expired (connect timeout or the
/// call's deadline), other errors the system's words ("Connection refused").
step_outcome connect_failure(asio::cancellation_state const& cs, error_code ec,
    open_params const& p, std::string_view who, std::string_view phase)
{
    if (is_cancelled(cs)) {
        return failed(
            outbound_failure::cancelled, fmt::format("{}: cancelled during {}", who, phase));
    }
    if (ec == beast::error::timeout) {
        if (p.connect_by >= p.deadline) {
            return failed(outbound_failure::timeout,
                fmt::format("{} {}: {} not done within the {} deadline", p.method, who, phase,
                    format_duration(p.call_timeout)));
        }
        return failed(outbound_failure::connect,
            fmt::format(
                "{}: {} timed out after {}", who, phase, format_duration(p.connect_timeout)));
    }
    return failed(
        outbound_failure::connect, fmt::format("{}: {} failed: {}", who, phase, ec.message()));
}

/// HTTP CONNECT through the proxy (RFC 9110 §9.3.6). Read with read_until rather than a
/// Beast parser: a 2xx answer to CONNECT has no body, which a generic parser would wait for.
/// `s` and `p` belong to the awaiting open_connection frame, which outlives this coroutine.
asio::awaitable<step_outcome> open_tunnel(upstream_connection::impl& s, open_params const& p)
{
    auto const cs = co_await asio::this_coro::cancellation_state;
    auto const who = fmt::format("proxy {}:{}", p.proxy->host, p.proxy->port);
    std::string request
        = fmt::format("CONNECT {0} HTTP/1.1\r\nHost: {0}\r\n", p.target.authority());
    if (!p.proxy->authorization.empty()) {
        request += "Proxy-Authorization: " + p.proxy->authorization + "\r\n";
    }
    request += "\r\n";
    auto [wec, written] = co_await asio::async_write(s.tcp, asio::buffer(request), use_tuple);
    if (wec) {
        co_return connect_failure(cs, wec, p, who, "CONNECT write");
    }
    std::string reply;
    auto [rec, header_size] = co_await asio::async_read_until(
        s.tcp, asio::dynamic_buffer(reply, header_limit), "\r\n\r\n", use_tuple);
    if (rec) {
        co_return connect_failure(cs, rec, p, who, "CONNECT read");
    }
    // "HTTP/1.1 200 Connection established": any 2xx opens the tunnel.
    if (reply.size() < 12 || !reply.starts_with("HTTP/1.") || reply[9] != '2') {
        auto const line = reply.substr(0, std::min(reply.find("\r\n"), std::size_t { 80 }));
        co_return failed(outbound_failure::connect,
            fmt::format("{}: CONNECT to {} refused: {}", who, p.target.authority(), line));
    }
    if (reply.size() != header_size) {
        co_return failed(
            outbound_failure::protocol, fmt::format("{}: sent data before the TLS handshake", who));
    }
    co_return step_outcome {};
}

/// Copies the request into a Beast message. Headers that check_sendable_headers() refuses
/// (control characters: header injection; sizes Beast would throw on) are refused here too,
/// without throwing, should a caller have skipped the check.
common::checked<void> build_message(http::request<http::string_body>& req, exchange_params& p)
{
    if (auto sendable = check_sendable_headers(p.headers); !sendable) {
        return sendable;
    }
    auto const verb = http::string_to_verb(p.method);
    if (verb == http::verb::unknown) {
        req.method_string(p.method);
    } else {
        req.method(verb);
    }
    req.target(p.target.target);
    req.version(11);
    req.set(http::field::host, p.target.host_header);
    bool has_agent = false;
    for (auto const& [name, value] : p.headers) {
        has_agent = has_agent || beast::iequals(name, "user-agent");
        req.insert(name, value);
    }
    if (!has_agent && !p.user_agent.empty()) {
        req.set(http::field::user_agent, p.user_agent);
    }
    req.body() = std::move(p.body);
    req.prepare_payload();
    req.keep_alive(true);
    return {};
}

/// An exchange failure: which host, which phase, whether any response byte had arrived.
step_outcome exchange_failure(asio::cancellation_state const& cs, error_code ec,
    exchange_params const& p, std::string_view phase, bool got_some)
{
    auto const who = fmt::format("{} {}{}", p.method, p.target.authority(), p.target.path);
    if (is_cancelled(cs)) {
        return failed(
            outbound_failure::cancelled, fmt::format("{}: cancelled during {}", who, phase));
    }
    if (ec == beast::error::timeout) {
        return failed(outbound_failure::timeout,
            fmt::format("{}: no complete response within the {} deadline ({})", who,
                format_duration(p.call_timeout), phase));
    }
    if (ec == http::error::body_limit) {
        return failed(outbound_failure::too_large,
            fmt::format("{}: response body exceeds the {}-byte cap", who, p.max_response_bytes));
    }
    if (ec == http::error::header_limit) {
        return failed(outbound_failure::too_large,
            fmt::format("{}: response header exceeds {} bytes", who, header_limit));
    }
    auto out = failed(outbound_failure::protocol,
        got_some
            ? fmt::format("{}: connection broke mid-response ({}: {})", who, phase, ec.message())
            : fmt::format("{}: connection closed before any response byte ({}: {})", who, phase,
                ec.message()));
    out.nothing_received = !got_some;
    return out;
}

} // namespace

upstream_connection::upstream_connection(asio::io_context& ioc, std::shared_ptr<ssl::context> tls)
    : impl_(std::make_unique<impl>(ioc, std::move(tls)))
{
}

upstream_connection::~upstream_connection() = default;

asio::any_io_executor upstream_connection::executor() const
{
    return impl_->strand;
}

void upstream_connection::close()
{
    impl_->lowest().close();
}

bool upstream_connection::looks_idle()
{
    auto& socket = impl_->lowest().socket();
    if (!socket.is_open()) {
        return false;
    }
    char byte = 0;
    auto const n = ::recv(socket.native_handle(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    // -1 with EAGAIN: nothing to read, still open. 0: closed by the peer. > 0: bytes nobody
    // asked for (a TLS alert, say). Any other error: the connection is broken.
    return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
}

asio::awaitable<step_outcome> open_connection(
    std::shared_ptr<upstream_connection> conn, open_params p)
{
    co_await asio::this_coro::throw_if_cancelled(false);
    auto const cs = co_await asio::this_coro::cancellation_state;
    auto& s = conn->state();
    std::string const host = p.proxy ? p.proxy->host : p.target.host;
    std::string const port = p.proxy ? p.proxy->port : p.target.port;
    auto const who = p.proxy ? fmt::format("proxy {}:{}", host, port) : p.target.authority();

    // Resolver operations ignore per-operation cancellation in Asio 1.81; the check after
    // them keeps a cancelled call from going further.
    tcp::resolver resolver(s.strand);
    auto [rec, endpoints] = co_await resolver.async_resolve(host, port, use_tuple);
    if (is_cancelled(cs)) {
        co_return failed(
            outbound_failure::cancelled, fmt::format("{}: cancelled during DNS lookup", who));
    }
    if (rec) {
        co_return failed(outbound_failure::resolve,
            fmt::format("{}: DNS lookup failed: {}", who, rec.message()));
    }
    if (p.refuse_private_addresses && !p.proxy) {
        for (auto const& entry : endpoints) {
            if (is_non_public_address(entry.endpoint().address().to_string())) {
                co_return failed(outbound_failure::connect,
                    fmt::format("{}: resolves to a loopback, private or link-local address, "
                                "where neither a redirect nor a host a client named may "
                                "lead; not followed",
                        who));
            }
        }
    }
    s.tcp.expires_at(p.connect_by);
    auto [cec, endpoint] = co_await s.tcp.async_connect(endpoints, use_tuple);
    if (cec) {
        co_return connect_failure(cs, cec, p, who, "connect");
    }
    error_code ignored;
    s.tcp.socket().set_option(tcp::no_delay(true), ignored);
    if (p.proxy) {
        auto tunnel = co_await open_tunnel(s, p);
        if (tunnel.failure != outbound_failure::none) {
            co_return tunnel;
        }
    }
    if (p.target.tls) {
        s.tls.emplace(std::move(s.tcp), *s.tls_context);
        if (!set_tls_peer_identity(s.tls->native_handle(), p.target.host, p.target.host_is_ip)) {
            co_return failed(outbound_failure::tls,
                fmt::format("{}: TLS set-up refused the host name", p.target.authority()));
        }
        s.tls->next_layer().expires_at(p.connect_by);
        auto [hec] = co_await s.tls->async_handshake(ssl::stream_base::client, use_tuple);
        if (hec == beast::error::timeout || (hec && is_cancelled(cs))) {
            co_return connect_failure(cs, hec, p, p.target.authority(), "TLS handshake");
        }
        if (hec) {
            auto const why = tls_verify_failure(s.tls->native_handle());
            co_return failed(outbound_failure::tls,
                why.empty()
                    ? fmt::format(
                        "{}: TLS handshake failed: {}", p.target.authority(), hec.message())
                    : fmt::format("{}: TLS handshake failed: certificate verification failed: {}",
                        p.target.authority(), why));
        }
    }
    s.lowest().expires_never();
    co_return step_outcome {};
}

asio::awaitable<step_outcome> exchange(std::shared_ptr<upstream_connection> conn, exchange_params p)
{
    co_await asio::this_coro::throw_if_cancelled(false);
    auto const cs = co_await asio::this_coro::cancellation_state;
    auto& s = conn->state();
    http::request<http::string_body> request;
    if (auto built = build_message(request, p); !built) {
        co_return failed(outbound_failure::bad_url, std::move(built.error().message));
    }

    s.lowest().expires_at(p.deadline);
    error_code ec;
    std::size_t written = 0;
    if (s.tls) {
        auto [wec, n] = co_await http::async_write(*s.tls, request, use_tuple);
        ec = wec;
        written = n;
    } else {
        auto [wec, n] = co_await http::async_write(s.tcp, request, use_tuple);
        ec = wec;
        written = n;
    }
    if (ec) {
        conn->close();
        auto out = exchange_failure(cs, ec, p, "write", false);
        out.nothing_written = written == 0;
        co_return out;
    }

    http::response_parser<http::string_body> parser;
    parser.header_limit(header_limit);
    parser.body_limit(p.max_response_bytes);
    parser.skip(p.method == "HEAD"); // a HEAD answer has headers only (RFC 9110 §9.3.2)
    make_read_room(s.buffer, response_room); // one read per TLS record (read_room.hpp)
    if (s.tls) {
        auto [rec, n] = co_await http::async_read(*s.tls, s.buffer, parser, use_tuple);
        ec = rec;
    } else {
        auto [rec, n] = co_await http::async_read(s.tcp, s.buffer, parser, use_tuple);
        ec = rec;
    }
    // A body delimited by connection close, ended without TLS close_notify: many servers do
    // that, and the framing (close) is all HTTP/1.1 gives us here. Accept it, as Beast's
    // examples accept stream_truncated after a complete response.
    if (ec == ssl::error::stream_truncated && parser.is_header_done() && parser.need_eof()) {
        parser.put_eof(ec);
    }
    if (ec) {
        conn->close();
        co_return exchange_failure(cs, ec, p, "read", parser.got_some());
    }

    auto& message = parser.get();
    step_outcome out;
    out.response.status = message.result_int();
    out.response.reason = std::string(message.reason());
    for (auto const& field : message) {
        out.response.headers.emplace_back(
            std::string(field.name_string()), std::string(field.value()));
    }
    out.response.body = std::move(message.body());
    // Pool it only when the server keeps it open and sent nothing past this response.
    out.reusable = message.keep_alive() && s.buffer.size() == 0 && !is_cancelled(cs);
    give_back_read_room(s.buffer); // an idle connection in the pool holds no room
    if (out.reusable) {
        s.lowest().expires_never();
    } else {
        conn->close();
    }
    co_return out;
}

} // namespace toolgate::transport
