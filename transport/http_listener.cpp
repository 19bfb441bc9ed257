// Beast HTTP/1.1 server on C++20 coroutines (after Beast's advanced coroutine server).
// Each connection reads one request at a time under header/body limits and timeouts, then
// runs the handler while watching for the peer going away, which cancels the handler.
#include "transport/http_listener.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/chunk_encode.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <stdexcept>

namespace toolgate::transport {
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using namespace asio::experimental::awaitable_operators;

struct http_listener::impl : std::enable_shared_from_this<impl> {
    impl(asio::io_context& ioc, http_handler& h, http_limits l)
        : ioc(ioc), acceptor(asio::make_strand(ioc)), handler(h), limits(l)
    {
    }
    asio::io_context& ioc;
    tcp::acceptor acceptor;
    http_handler& handler;
    http_limits limits;
    std::atomic<std::size_t> connections{0};
    std::atomic<std::size_t> requests{0}; ///< being handled now (idle keep-alive excluded)
    std::atomic<bool> stopping{false};
};

namespace {

class connection_responder final : public http_responder {
public:
    connection_responder(beast::tcp_stream& stream, unsigned version, bool keep_alive)
        : stream_(stream), version_(version), keep_alive_(keep_alive)
    {
    }

    asio::awaitable<void> respond(unsigned status, header_list headers, std::string body) override
    {
        http::response<http::string_body> res{static_cast<http::status>(status), version_};
        res.set(http::field::server, "toolgate");
        for (auto& [name, value] : headers) {
            res.set(name, value);
        }
        res.body() = std::move(body);
        res.keep_alive(keep_alive_);
        res.prepare_payload();
        responded_ = true;
        stream_.expires_after(std::chrono::seconds(30));
        auto [ec, n] = co_await http::async_write(stream_, res, asio::as_tuple(asio::use_awaitable));
        stream_.expires_never();
        if (ec) {
            keep_alive_ = false;
        }
    }

    asio::awaitable<void> begin_stream(unsigned status, header_list headers) override
    {
        http::response<http::empty_body> res{static_cast<http::status>(status), version_};
        res.set(http::field::server, "toolgate");
        for (auto& [name, value] : headers) {
            res.set(name, value);
        }
        res.keep_alive(keep_alive_);
        res.chunked(true);
        http::response_serializer<http::empty_body> serializer{res};
        responded_ = true;
        streaming_ = true;
        auto [ec, n] = co_await http::async_write_header(stream_, serializer,
                                                         asio::as_tuple(asio::use_awaitable));
        if (ec) {
            keep_alive_ = false;
        }
    }

    asio::awaitable<void> stream_write(std::string data) override
    {
        auto [ec, n] = co_await asio::async_write(stream_, http::make_chunk(asio::buffer(data)),
                                                  asio::as_tuple(asio::use_awaitable));
        if (ec) {
            keep_alive_ = false;
        }
    }

    asio::awaitable<void> end_stream() override
    {
        auto [ec, n] = co_await asio::async_write(stream_, http::make_chunk_last(),
                                                  asio::as_tuple(asio::use_awaitable));
        if (ec) {
            keep_alive_ = false;
        }
    }

    bool has_responded() const override { return responded_; }
    bool keep_alive() const { return keep_alive_; }

private:
    beast::tcp_stream& stream_;
    unsigned version_;
    bool keep_alive_;
    bool responded_ = false;
    bool streaming_ = false;
};

asio::awaitable<void> write_simple(beast::tcp_stream& stream, http::status status,
                                   std::string body)
{
    http::response<http::string_body> res{status, 11};
    res.set(http::field::server, "toolgate");
    res.set(http::field::content_type, "application/json");
    res.body() = std::move(body);
    res.keep_alive(false);
    res.prepare_payload();
    stream.expires_after(std::chrono::seconds(5));
    co_await http::async_write(stream, res, asio::as_tuple(asio::use_awaitable));
}

/// Completes when the peer closes (or errors); bytes it sends meanwhile (a pipelined request)
/// are kept in `buffer` for the next read.
asio::awaitable<void> watch_peer(beast::tcp_stream& stream, beast::flat_buffer& buffer)
{
    for (;;) {
        auto space = buffer.prepare(4096);
        auto [ec, n] = co_await stream.socket().async_read_some(
            space, asio::as_tuple(asio::use_awaitable));
        buffer.commit(n);
        if (ec) {
            co_return;
        }
    }
}

std::string json_error(std::string_view message)
{
    return fmt::format(R"({{"jsonrpc":"2.0","id":null,"error":{{"code":-32600,"message":"{}"}}}})",
                       message);
}

http_request to_request(http::request<http::string_body>& req, std::string peer)
{
    http_request out;
    out.method = std::string(req.method_string());
    out.target = std::string(req.target());
    out.path = out.target.substr(0, out.target.find('?'));
    out.headers.reserve(16);
    for (auto const& field : req) {
        std::string name(field.name_string());
        for (auto& c : name) {
            c = (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c;
        }
        out.headers.emplace_back(std::move(name), std::string(field.value()));
    }
    out.body = std::move(req.body());
    out.peer = std::move(peer);
    return out;
}

asio::awaitable<void> run_connection(std::shared_ptr<http_listener::impl> self,
                                     beast::tcp_stream stream)
{
    auto const& limits = self->limits;
    std::string peer;
    {
        boost::system::error_code ec;
        auto ep = stream.socket().remote_endpoint(ec);
        peer = ec ? "?" : fmt::format("{}:{}", ep.address().to_string(), ep.port());
    }
    beast::flat_buffer buffer;
    bool first = true;
    while (!self->stopping) {
        http::request_parser<http::string_body> parser;
        parser.header_limit(static_cast<std::uint32_t>(limits.max_header_bytes));
        parser.body_limit(limits.max_body_bytes);
        stream.expires_after(first ? limits.header_timeout : limits.idle_timeout);
        first = false;
        auto [hec, hn] = co_await http::async_read_header(stream, buffer, parser,
                                                           asio::as_tuple(asio::use_awaitable));
        if (hec == http::error::header_limit) {
            co_await write_simple(stream, http::status::request_header_fields_too_large,
                                  json_error("Request headers too large"));
            break;
        }
        if (hec) {
            break; // closed, idle timeout, or garbage: nothing useful to answer
        }
        stream.expires_after(limits.body_timeout);
        auto [bec, bn] = co_await http::async_read(stream, buffer, parser,
                                                   asio::as_tuple(asio::use_awaitable));
        if (bec == http::error::body_limit) {
            co_await write_simple(
                stream, http::status::payload_too_large,
                json_error(fmt::format("Request body larger than {} bytes", limits.max_body_bytes)));
            break;
        }
        if (bec) {
            if (bec == beast::error::timeout) {
                co_await write_simple(stream, http::status::request_timeout,
                                      json_error("Request body not received in time"));
            }
            break;
        }
        stream.expires_never();
        auto& req = parser.get();
        connection_responder responder(stream, req.version(), req.keep_alive());
        auto request = to_request(req, peer);
        // The handler runs while we watch the socket: a peer that goes away cancels it.
        // Named first: g++ 12 double-destroys temporaries inside a co_await operand.
        auto handling = self->handler.handle(std::move(request), responder);
        auto watching = watch_peer(stream, buffer);
        ++self->requests;
        co_await (std::move(handling) || std::move(watching));
        --self->requests;
        if (!responder.has_responded() || !responder.keep_alive()) {
            break;
        }
    }
    boost::system::error_code ignored;
    stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
}

asio::awaitable<void> refuse_connection(beast::tcp_stream stream)
{
    co_await write_simple(stream, http::status::service_unavailable,
                          json_error("Too many open connections; retry later"));
}

asio::awaitable<void> accept_loop(std::shared_ptr<http_listener::impl> self)
{
    while (!self->stopping) {
        auto [ec, socket] = co_await self->acceptor.async_accept(
            asio::make_strand(self->ioc), asio::as_tuple(asio::use_awaitable));
        if (ec) {
            if (ec == asio::error::operation_aborted || self->stopping) {
                break;
            }
            continue; // e.g. EMFILE: keep serving the connections we have
        }
        beast::tcp_stream stream(std::move(socket));
        if (self->connections >= self->limits.max_connections) {
            auto ex = stream.get_executor();
            asio::co_spawn(ex, refuse_connection(std::move(stream)), [](std::exception_ptr) {});
            continue;
        }
        ++self->connections;
        auto ex = stream.get_executor();
        asio::co_spawn(ex, run_connection(self, std::move(stream)),
                       [self](std::exception_ptr error) {
                           --self->connections;
                           if (error) {
                               try {
                                   std::rethrow_exception(error);
                               } catch (std::exception const& e) {
                                   spdlog::error("http connection failed: {}", e.what());
                               }
                           }
                       });
    }
}

} // namespace

http_listener::http_listener(asio::io_context& ioc, std::string const& host, std::uint16_t port,
                             http_handler& handler, http_limits limits)
    : impl_(std::make_shared<impl>(ioc, handler, limits))
{
    boost::system::error_code ec;
    auto address = asio::ip::make_address(host, ec);
    if (ec) {
        throw std::runtime_error(fmt::format("--host {}: not an IP address", host));
    }
    tcp::endpoint endpoint(address, port);
    auto& acceptor = impl_->acceptor;
    acceptor.open(endpoint.protocol());
    acceptor.set_option(asio::socket_base::reuse_address(true));
    acceptor.bind(endpoint, ec);
    if (ec) {
        throw std::runtime_error(
            fmt::format("cannot listen on {}:{}: {}", host, port, ec.message()));
    }
    acceptor.listen(asio::socket_base::max_listen_connections);
}

http_listener::~http_listener() { stop(); }

std::uint16_t http_listener::port() const { return impl_->acceptor.local_endpoint().port(); }

void http_listener::start()
{
    asio::co_spawn(impl_->acceptor.get_executor(), accept_loop(impl_), [](std::exception_ptr) {});
}

void http_listener::stop()
{
    impl_->stopping = true;
    asio::post(impl_->acceptor.get_executor(), [self = impl_] {
        boost::system::error_code ignored;
        self->acceptor.close(ignored);
    });
}

std::size_t http_listener::open_connections() const { return impl_->connections; }

std::size_t http_listener::active_requests() const { return impl_->requests; }

} // namespace toolgate::transport
