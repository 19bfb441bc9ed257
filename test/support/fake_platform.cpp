// The fake platform's server: Beast over TLS (or plain TCP) on its own thread and io_context,
// one coroutine per connection, answers taken from the queue, the handler, or a default.
#include "fake_platform.hpp"

#include "test_pki.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <exception>
#include <mutex>
#include <strings.h>
#include <thread>

namespace toolgate::test {
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;

namespace {
constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);
}

std::string recorded_request::header(std::string_view name) const
{
    for (auto const& [key, value] : headers) {
        if (key.size() == name.size() && strncasecmp(key.data(), name.data(), key.size()) == 0) {
            return value;
        }
    }
    return {};
}

bool recorded_request::has_header(std::string_view name) const
{
    for (auto const& entry : headers) {
        if (entry.first.size() == name.size()
            && strncasecmp(entry.first.data(), name.data(), name.size()) == 0) {
            return true;
        }
    }
    return false;
}

std::string recorded_request::path() const
{
    return target.substr(0, target.find('?'));
}

std::string recorded_request::query() const
{
    auto const mark = target.find('?');
    return mark == std::string::npos ? std::string() : target.substr(mark + 1);
}

// Member order matters for shutdown: the io_context is destroyed before the TLS context and
// the counters, because destroying it destroys the suspended connection coroutines, whose
// streams still refer to both.
struct fake_platform::impl {
    explicit impl(fake_platform_options o);
    ~impl();
    fake_response answer(recorded_request request);
    void notify();

    fake_platform_options options;
    ssl::context tls { ssl::context::tls_server };

    mutable std::mutex mutex; // guards requests, queue, on_request
    std::vector<recorded_request> requests;
    std::deque<fake_response> queue;
    handler on_request;

    std::atomic<std::size_t> accepted { 0 }, handshakes { 0 }, closed { 0 };
    std::atomic<std::size_t> in_flight { 0 }, max_in_flight { 0 }, request_total { 0 };
    mutable std::mutex wait_mutex; // only for cv
    mutable std::condition_variable cv;

    asio::io_context ioc { 1 };
    tcp::acceptor acceptor { ioc };
    std::thread thread;
};

namespace {

void report_exception(std::exception_ptr error)
{
    if (!error) {
        return;
    }
    try {
        std::rethrow_exception(error);
    } catch (std::exception const& e) {
        std::fprintf(stderr, "fake_platform: connection coroutine failed: %s\n", e.what());
    }
}

recorded_request to_record(http::request<http::string_body>& req, std::size_t connection)
{
    recorded_request out;
    out.method = std::string(req.method_string());
    out.target = std::string(req.target());
    for (auto const& field : req) {
        out.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
    }
    out.body = std::move(req.body());
    out.connection = connection;
    return out;
}

/// Reads until the peer closes or breaks the connection: what a stalled server sees.
template <class Stream>
asio::awaitable<void> drain_until_closed(Stream& stream, beast::flat_buffer& buffer)
{
    for (;;) {
        http::request_parser<http::string_body> parser;
        auto [ec, n] = co_await http::async_read(stream, buffer, parser, use_tuple);
        if (ec) {
            co_return;
        }
    }
}

/// Serves requests on one connection until it ends. `stream` lives in the calling
/// serve_connection frame, which awaits this coroutine.
template <class Stream>
asio::awaitable<void> serve_requests(fake_platform::impl* self, Stream& stream, std::size_t id)
{
    beast::flat_buffer buffer;
    auto& socket = beast::get_lowest_layer(stream).socket();
    for (;;) {
        http::request_parser<http::string_body> parser;
        parser.body_limit(64u << 20);
        auto [ec, n] = co_await http::async_read(stream, buffer, parser, use_tuple);
        if (ec) {
            co_return;
        }
        auto request = parser.release();
        bool const head = request.method() == http::verb::head;
        auto script = self->answer(to_record(request, id));
        if (script.delay.count() > 0) {
            asio::steady_timer timer(co_await asio::this_coro::executor, script.delay);
            co_await timer.async_wait(use_tuple);
        }
        boost::system::error_code ignored;
        switch (script.action) {
        case fake_action::reset:
            // Linger 0 makes close() send RST: the client sees a reset, not an orderly EOF.
            socket.set_option(asio::socket_base::linger(true, 0), ignored);
            socket.close(ignored);
            --self->in_flight;
            co_return;
        case fake_action::close:
            socket.shutdown(tcp::socket::shutdown_both, ignored);
            socket.close(ignored);
            --self->in_flight;
            co_return;
        case fake_action::stall:
            --self->in_flight;
            co_await drain_until_closed(stream, buffer);
            co_return;
        case fake_action::respond:
            break;
        }
        http::response<http::string_body> response { static_cast<http::status>(script.status), 11 };
        for (auto const& [name, value] : script.headers) {
            response.insert(name, value);
        }
        response.body() = std::move(script.body);
        response.prepare_payload();
        if (head) {
            response.body().clear(); // keeps the Content-Length of the full answer
        }
        response.keep_alive(script.keep_alive && request.keep_alive());
        auto [wec, written] = co_await http::async_write(stream, response, use_tuple);
        --self->in_flight;
        self->notify();
        if (wec || !response.keep_alive()) {
            socket.shutdown(tcp::socket::shutdown_send, ignored);
            co_await drain_until_closed(stream, buffer);
            co_return;
        }
        if (script.close_idle_after.count() > 0) {
            asio::steady_timer timer(co_await asio::this_coro::executor, script.close_idle_after);
            co_await timer.async_wait(use_tuple);
            socket.shutdown(tcp::socket::shutdown_both, ignored);
            socket.close(ignored);
            co_return;
        }
    }
}

asio::awaitable<void> serve_connection(
    fake_platform::impl* self, tcp::socket socket, std::size_t id)
{
    beast::tcp_stream tcp(std::move(socket));
    if (!self->options.tls) {
        co_await serve_requests(self, tcp, id);
    } else {
        beast::ssl_stream<beast::tcp_stream> stream(std::move(tcp), self->tls);
        stream.next_layer().expires_after(std::chrono::seconds(10));
        auto [ec] = co_await stream.async_handshake(ssl::stream_base::server, use_tuple);
        if (!ec) {
            ++self->handshakes;
            self->notify();
            stream.next_layer().expires_never();
            co_await serve_requests(self, stream, id);
        }
    }
    ++self->closed;
    self->notify();
}

asio::awaitable<void> accept_loop(fake_platform::impl* self)
{
    for (;;) {
        auto [ec, socket] = co_await self->acceptor.async_accept(use_tuple);
        if (ec) {
            co_return;
        }
        auto const id = ++self->accepted;
        self->notify();
        asio::co_spawn(self->ioc, serve_connection(self, std::move(socket), id), report_exception);
    }
}

} // namespace

fake_platform::impl::impl(fake_platform_options o)
    : options(o)
{
    pem_pair server;
    static std::vector<std::string> const names = { "localhost" };
    static std::vector<std::string> const addresses = { "127.0.0.1", "::1" };
    switch (options.cert) {
    case fake_platform_options::certificate::valid:
        server = test_ca::shared().issue_server(names, addresses);
        break;
    case fake_platform_options::certificate::wrong_host:
        server = test_ca::shared().issue_server({ "wrong.example.test" }, {});
        break;
    case fake_platform_options::certificate::unknown_ca:
        server = test_ca("untrusted test CA").issue_server(names, addresses);
        break;
    }
    tls.use_certificate_chain(asio::buffer(server.certificate));
    tls.use_private_key(asio::buffer(server.private_key), ssl::context::pem);

    tcp::endpoint const endpoint(asio::ip::make_address("127.0.0.1"), 0);
    acceptor.open(endpoint.protocol());
    acceptor.set_option(asio::socket_base::reuse_address(true));
    acceptor.bind(endpoint);
    acceptor.listen();
    asio::co_spawn(ioc, accept_loop(this), report_exception);
    thread = std::thread([this] { ioc.run(); });
}

fake_platform::impl::~impl()
{
    ioc.stop();
    thread.join();
}

fake_response fake_platform::impl::answer(recorded_request request)
{
    fake_response out;
    {
        std::lock_guard lock(mutex);
        requests.push_back(request);
        if (!queue.empty()) {
            out = std::move(queue.front());
            queue.pop_front();
        } else if (on_request) {
            out = on_request(request);
        }
    }
    ++request_total;
    auto const now = ++in_flight;
    auto seen = max_in_flight.load();
    while (now > seen && !max_in_flight.compare_exchange_weak(seen, now)) { }
    notify();
    return out;
}

void fake_platform::impl::notify()
{
    {
        std::lock_guard lock(wait_mutex);
    }
    cv.notify_all();
}

fake_platform::fake_platform(fake_platform_options options)
    : impl_(std::make_unique<impl>(options))
{
}

fake_platform::~fake_platform() = default;

unsigned short fake_platform::port() const
{
    return impl_->acceptor.local_endpoint().port();
}

std::string fake_platform::url(std::string_view path_and_query, std::string_view host) const
{
    std::string out = impl_->options.tls ? "https://" : "http://";
    if (host.find(':') != std::string_view::npos) {
        out.append("[").append(host).append("]");
    } else {
        out.append(host);
    }
    return out.append(":").append(std::to_string(port())).append(path_and_query);
}

std::string const& fake_platform::ca_file()
{
    return test_ca::shared_pem_path();
}

void fake_platform::push(fake_response response)
{
    std::lock_guard lock(impl_->mutex);
    impl_->queue.push_back(std::move(response));
}

void fake_platform::set_handler(handler h)
{
    std::lock_guard lock(impl_->mutex);
    impl_->on_request = std::move(h);
}

std::vector<recorded_request> fake_platform::requests() const
{
    std::lock_guard lock(impl_->mutex);
    return impl_->requests;
}

std::size_t fake_platform::request_count() const
{
    return impl_->request_total;
}
std::size_t fake_platform::connections_accepted() const
{
    return impl_->accepted;
}
std::size_t fake_platform::tls_handshakes() const
{
    return impl_->handshakes;
}
std::size_t fake_platform::connections_closed() const
{
    return impl_->closed;
}
std::size_t fake_platform::max_concurrent_requests() const
{
    return impl_->max_in_flight;
}

bool fake_platform::wait_until(
    std::function<bool(fake_platform const&)> const& ready, std::chrono::milliseconds timeout) const
{
    std::unique_lock lock(impl_->wait_mutex);
    return impl_->cv.wait_for(lock, timeout, [&] { return ready(*this); });
}

} // namespace toolgate::test
