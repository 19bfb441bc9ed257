// CONNECT proxy for tests: plain Asio coroutines, one per tunnel direction.
#include "fake_connect_proxy.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include <array>
#include <cstdio>
#include <exception>
#include <mutex>
#include <strings.h>
#include <thread>

namespace toolgate::test {
namespace asio = boost::asio;
using tcp = asio::ip::tcp;

struct fake_connect_proxy::impl {
    explicit impl(bool refuse_all);
    ~impl();

    bool refuse;
    mutable std::mutex mutex;
    std::vector<std::string> targets;
    std::vector<std::string> authorizations;
    asio::io_context ioc { 1 };
    tcp::acceptor acceptor { ioc };
    std::thread thread;
};

namespace {

constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

void report_exception(std::exception_ptr error)
{
    if (!error) {
        return;
    }
    try {
        std::rethrow_exception(error);
    } catch (std::exception const& e) {
        std::fprintf(stderr, "fake_connect_proxy: %s\n", e.what());
    }
}

/// Copies bytes from `from` to `to` until either side ends, then half-closes `to`.
asio::awaitable<void> pump(std::shared_ptr<tcp::socket> from, std::shared_ptr<tcp::socket> to)
{
    std::array<char, 16384> data {};
    for (;;) {
        auto [rec, n] = co_await from->async_read_some(asio::buffer(data), use_tuple);
        if (rec) {
            break;
        }
        auto [wec, written]
            = co_await asio::async_write(*to, asio::buffer(data.data(), n), use_tuple);
        if (wec) {
            break;
        }
    }
    boost::system::error_code ignored;
    to->shutdown(tcp::socket::shutdown_send, ignored);
}

/// The value of header `name` in a raw request head, or "".
std::string header_value(std::string const& head, std::string_view name)
{
    std::size_t line = head.find("\r\n");
    while (line != std::string::npos && line + 2 < head.size()) {
        auto const start = line + 2;
        auto const end = head.find("\r\n", start);
        auto const colon = head.find(':', start);
        if (colon != std::string::npos && colon < end && colon - start == name.size()
            && strncasecmp(head.data() + start, name.data(), name.size()) == 0) {
            auto value = head.substr(colon + 1, end - colon - 1);
            return value.substr(value.find_first_not_of(' '));
        }
        line = end;
    }
    return {};
}

asio::awaitable<void> serve_tunnel(
    fake_connect_proxy::impl* self, std::shared_ptr<tcp::socket> client)
{
    std::string head;
    auto [rec, size] = co_await asio::async_read_until(
        *client, asio::dynamic_buffer(head, 16384), "\r\n\r\n", use_tuple);
    if (rec || !head.starts_with("CONNECT ")) {
        co_return;
    }
    auto const target = head.substr(8, head.find(' ', 8) - 8);
    {
        std::lock_guard lock(self->mutex);
        self->targets.push_back(target);
        self->authorizations.push_back(header_value(head, "Proxy-Authorization"));
    }
    std::string reply = "HTTP/1.1 200 Connection established\r\n\r\n";
    auto upstream = std::make_shared<tcp::socket>(self->ioc);
    auto const colon = target.rfind(':');
    tcp::resolver resolver(self->ioc);
    auto [dec, endpoints] = co_await resolver.async_resolve(
        target.substr(0, colon), target.substr(colon + 1), use_tuple);
    if (self->refuse) {
        reply = "HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 0\r\n\r\n";
    } else if (dec) {
        reply = "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n";
    } else {
        auto [cec, ep] = co_await asio::async_connect(*upstream, endpoints, use_tuple);
        if (cec) {
            reply = "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n";
        }
    }
    auto [wec, written] = co_await asio::async_write(*client, asio::buffer(reply), use_tuple);
    if (wec || !upstream->is_open()) {
        co_return;
    }
    // Bytes the client sent after the CONNECT head (normally none before our 200).
    if (head.size() > size) {
        co_await asio::async_write(
            *upstream, asio::buffer(head.data() + size, head.size() - size), use_tuple);
    }
    asio::co_spawn(self->ioc, pump(client, upstream), report_exception);
    asio::co_spawn(self->ioc, pump(upstream, client), report_exception);
}

asio::awaitable<void> accept_loop(fake_connect_proxy::impl* self)
{
    for (;;) {
        auto [ec, socket] = co_await self->acceptor.async_accept(use_tuple);
        if (ec) {
            co_return;
        }
        auto client = std::make_shared<tcp::socket>(std::move(socket));
        asio::co_spawn(self->ioc, serve_tunnel(self, std::move(client)), report_exception);
    }
}

} // namespace

fake_connect_proxy::impl::impl(bool refuse_all)
    : refuse(refuse_all)
{
    tcp::endpoint const endpoint(asio::ip::make_address("127.0.0.1"), 0);
    acceptor.open(endpoint.protocol());
    acceptor.bind(endpoint);
    acceptor.listen();
    asio::co_spawn(ioc, accept_loop(this), report_exception);
    thread = std::thread([this] { ioc.run(); });
}

fake_connect_proxy::impl::~impl()
{
    ioc.stop();
    thread.join();
}

fake_connect_proxy::fake_connect_proxy(bool refuse)
    : impl_(std::make_unique<impl>(refuse))
{
}

fake_connect_proxy::~fake_connect_proxy() = default;

unsigned short fake_connect_proxy::port() const
{
    return impl_->acceptor.local_endpoint().port();
}

std::string fake_connect_proxy::url() const
{
    return "http://127.0.0.1:" + std::to_string(port());
}

std::vector<std::string> fake_connect_proxy::connect_targets() const
{
    std::lock_guard lock(impl_->mutex);
    return impl_->targets;
}

std::vector<std::string> fake_connect_proxy::authorizations() const
{
    std::lock_guard lock(impl_->mutex);
    return impl_->authorizations;
}

} // namespace toolgate::test
