// Beast HTTP/1.1 server on C++20 coroutines (after Beast's advanced coroutine server).
// Each connection reads one request at a time under header/body limits and timeouts, then
// runs the handler while watching for the peer going away, which cancels the handler.
#include "transport/http_listener.hpp"

#include "common/ascii.hpp"
#include "transport/activity.hpp"
#include "transport/cancellation.hpp"
#include "transport/coroutine_root.hpp"
#include "transport/read_room.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
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
#include <boost/optional/optional.hpp>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace toolgate::transport {
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

struct http_listener::impl : std::enable_shared_from_this<impl> {
    impl(asio::io_context& context, http_handler& h, http_limits l)
        : ioc(context)
        , acceptor(asio::make_strand(context))
        , handler(h)
        , limits(l)
    {
    }
    asio::io_context& ioc;
    tcp::acceptor acceptor;
    http_handler& handler;
    http_limits limits;
    std::atomic<std::size_t> connections { 0 };
    activity requests; ///< being handled now (idle keep-alive excluded)
    std::atomic<std::size_t> refusing { 0 }; ///< 503 answers being written
    std::atomic<bool> stopping { false };
    std::atomic<std::uint64_t> accepted { 0 };
    /// Responses by status code (100–599; anything else at 0). Relaxed increments: one per
    /// response, read only by scrapes.
    std::array<std::atomic<std::uint64_t>, 600> responses {};

    void count_response(unsigned status)
    {
        responses[status < responses.size() ? status : 0].fetch_add(1, std::memory_order_relaxed);
    }

    /// One open connection, for stop() and close_all(). `stream` and `busy` are touched on
    /// the connection's strand only; the map under `mutex`.
    struct connection_handle {
        asio::any_io_executor strand;
        beast::tcp_stream* stream = nullptr; ///< null once the connection has ended
        std::atomic<bool> busy { false }; ///< a request is being read or answered
        bool evicted = false; ///< chosen by evict_oldest_idle (under `mutex`)
    };
    std::mutex mutex;
    std::unordered_map<std::uint64_t, std::shared_ptr<connection_handle>> open;
    std::uint64_t next_id = 0;
    std::unordered_map<std::string, std::size_t> per_address; ///< open connections by address

    /// Takes a place for a connection from `address`; false when it has its maximum already.
    bool admit_address(std::string const& address)
    {
        std::lock_guard lock(mutex);
        auto& count = per_address[address];
        if (count >= limits.max_connections_per_address) {
            if (count == 0) {
                per_address.erase(address);
            }
            return false;
        }
        ++count;
        return true;
    }
    void release_address(std::string const& address)
    {
        std::lock_guard lock(mutex);
        if (auto it = per_address.find(address); it != per_address.end() && --it->second == 0) {
            per_address.erase(it);
        }
    }

    /// Closes the longest-open connection that is not answering a request, on its strand;
    /// false when every one is busy (limits.evict_idle_when_full).
    bool evict_oldest_idle()
    {
        std::shared_ptr<connection_handle> oldest;
        {
            std::lock_guard lock(mutex);
            auto best = std::numeric_limits<std::uint64_t>::max();
            for (auto& [id, h] : open) {
                if (id < best && !h->busy && !h->evicted) {
                    best = id;
                    oldest = h;
                }
            }
            if (!oldest) {
                return false;
            }
            oldest->evicted = true;
        }
        asio::post(oldest->strand, [oldest] {
            if (oldest->stream && !oldest->busy) {
                boost::system::error_code ignored;
                oldest->stream->socket().close(ignored);
            }
        });
        return true;
    }

    /// Closes the connections (all, or the idle ones) on their own strands.
    void close_connections(bool idle_only)
    {
        std::vector<std::shared_ptr<connection_handle>> handles;
        {
            std::lock_guard lock(mutex);
            for (auto& [id, h] : open) {
                handles.push_back(h);
            }
        }
        for (auto& h : handles) {
            asio::post(h->strand, [h, idle_only] {
                if (h->stream && !(idle_only && h->busy)) {
                    boost::system::error_code ignored;
                    h->stream->socket().close(ignored);
                }
            });
        }
    }
};

namespace {

class connection_responder final : public http_responder {
public:
    connection_responder(
        http_listener::impl& owner, beast::tcp_stream& stream, unsigned version, bool keep_alive)
        : owner_(owner)
        , stream_(stream)
        , version_(version)
        , keep_alive_(keep_alive)
    {
    }

    asio::awaitable<void> respond(unsigned status, header_list headers, std::string body) override
    {
        http::response<http::string_body> res { static_cast<http::status>(status), version_ };
        res.set(http::field::server, "toolgate");
        for (auto& [name, value] : headers) {
            res.set(name, value);
        }
        for (auto& [name, value] : always_) {
            res.set(name, value);
        }
        res.body() = std::move(body);
        res.keep_alive(keep_alive_);
        res.prepare_payload();
        responded_ = true;
        owner_.count_response(status);
        stream_.expires_after(std::chrono::seconds(30));
        auto [ec, n]
            = co_await http::async_write(stream_, res, asio::as_tuple(asio::use_awaitable));
        stream_.expires_never();
        if (ec) {
            keep_alive_ = false;
        }
    }

    asio::awaitable<void> respond_parts(unsigned status, header_list headers, std::string head,
        std::string_view shared, std::string tail) override
    {
        // `head` and `tail` live in this frame until the write is done. The list is named
        // first: g++ 12 mishandles a braced list inside a co_await operand.
        std::vector<std::string_view> pieces { head, shared, tail };
        co_await respond_pieces(status, std::move(headers), std::move(pieces));
    }

    asio::awaitable<void> respond_pieces(
        unsigned status, header_list headers, std::vector<std::string_view> pieces) override
    {
        http::response<http::empty_body> res { static_cast<http::status>(status), version_ };
        res.set(http::field::server, "toolgate");
        for (auto& [name, value] : headers) {
            res.set(name, value);
        }
        for (auto& [name, value] : always_) {
            res.set(name, value);
        }
        res.keep_alive(keep_alive_);
        std::size_t length = 0;
        std::vector<asio::const_buffer> body;
        body.reserve(pieces.size());
        for (auto piece : pieces) {
            length += piece.size();
            body.emplace_back(piece.data(), piece.size());
        }
        res.content_length(length);
        http::response_serializer<http::empty_body> serializer { res };
        responded_ = true;
        owner_.count_response(status);
        stream_.expires_after(std::chrono::seconds(30));
        auto [hec, hn] = co_await http::async_write_header(
            stream_, serializer, asio::as_tuple(asio::use_awaitable));
        if (!hec) {
            auto [bec, bn]
                = co_await asio::async_write(stream_, body, asio::as_tuple(asio::use_awaitable));
            hec = bec;
        }
        stream_.expires_never();
        if (hec) {
            keep_alive_ = false;
        }
    }

    asio::awaitable<void> begin_stream(unsigned status, header_list headers) override
    {
        http::response<http::empty_body> res { static_cast<http::status>(status), version_ };
        res.set(http::field::server, "toolgate");
        for (auto& [name, value] : headers) {
            res.set(name, value);
        }
        for (auto& [name, value] : always_) {
            res.set(name, value);
        }
        res.keep_alive(keep_alive_);
        res.chunked(true);
        http::response_serializer<http::empty_body> serializer { res };
        responded_ = true;
        streaming_ = true;
        owner_.count_response(status);
        auto [ec, n] = co_await http::async_write_header(
            stream_, serializer, asio::as_tuple(asio::use_awaitable));
        if (ec) {
            keep_alive_ = false;
        }
    }

    asio::awaitable<void> stream_write(std::string data) override
    {
        auto [ec, n] = co_await asio::async_write(
            stream_, http::make_chunk(asio::buffer(data)), asio::as_tuple(asio::use_awaitable));
        if (ec) {
            keep_alive_ = false;
        }
    }

    asio::awaitable<void> end_stream() override
    {
        auto [ec, n] = co_await asio::async_write(
            stream_, http::make_chunk_last(), asio::as_tuple(asio::use_awaitable));
        if (ec) {
            keep_alive_ = false;
        }
    }

    bool has_responded() const override { return responded_; }
    void close_after_response() override { keep_alive_ = false; }
    void add_response_header(std::string name, std::string value) override
    {
        always_.emplace_back(std::move(name), std::move(value));
    }
    void mark_authenticated() override { authenticated_ = true; }
    bool keep_alive() const { return keep_alive_; }
    bool authenticated() const { return authenticated_; }

private:
    http_listener::impl& owner_;
    beast::tcp_stream& stream_;
    unsigned version_;
    bool keep_alive_;
    bool responded_ = false;
    bool streaming_ = false;
    bool authenticated_ = false;
    header_list always_; ///< added to whatever answer goes out
};

asio::awaitable<void> write_simple(
    http_listener::impl& owner, beast::tcp_stream& stream, http::status status, std::string body)
{
    owner.count_response(static_cast<unsigned>(status));
    http::response<http::string_body> res { status, 11 };
    res.set(http::field::server, "toolgate");
    res.set(http::field::content_type, "application/json");
    res.body() = std::move(body);
    res.keep_alive(false);
    res.prepare_payload();
    stream.expires_after(std::chrono::seconds(5));
    co_await http::async_write(stream, res, asio::as_tuple(asio::use_awaitable));
}

/// Watches a connection while its request is handled, so that a peer going away cancels the
/// handler (a tool call nobody waits for any more). One peeking receive of one byte: no second
/// coroutine, and the byte stays in the socket. It completes when the peer sends (a pipelined
/// request: stop watching, the next read gets it) or closes (cancel the handler).
class peer_watch {
public:
    peer_watch(beast::tcp_stream& stream, std::shared_ptr<asio::cancellation_signal> hangup)
        : stream_(stream)
        , active_(std::make_shared<bool>(true))
    {
        // Not a wait for readability: Asio re-arms epoll (epoll_ctl) for every such wait,
        // while a receive first tries the socket at once (one recv, EAGAIN) and then waits on
        // the registration it already has.
        stream.socket().async_receive(asio::buffer(&byte_, 1), tcp::socket::message_peek,
            [active = active_, hangup = std::move(hangup)](
                boost::system::error_code ec, std::size_t n) {
                // Runs on the connection's strand, as the coroutine does. `active` is false
                // once the handler is done; a receive aborted while it is still true means
                // the socket was closed under it (shutdown's close_all): cancel then too.
                if (!*active || (!ec && n > 0)) {
                    return;
                }
                hangup->emit(asio::cancellation_type::terminal); // EOF, reset, closed
            });
    }
    peer_watch(peer_watch const&) = delete;
    peer_watch& operator=(peer_watch const&) = delete;
    /// The handler is done (or threw): a receive that already completed is ignored, a pending
    /// one is cancelled before `byte_`, which it would write into, goes away.
    ~peer_watch()
    {
        *active_ = false;
        boost::system::error_code ignored;
        stream_.socket().cancel(ignored);
    }

private:
    beast::tcp_stream& stream_;
    std::shared_ptr<bool> active_;
    char byte_ = 0;
};

std::string json_error(std::string_view message)
{
    return fmt::format(
        R"({{"jsonrpc":"2.0","id":null,"error":{{"code":-32600,"message":"{}"}}}})", message);
}

http_request to_request(http::request<http::string_body>& req, std::string peer)
{
    http_request out;
    out.method = std::string(req.method_string());
    out.target = std::string(req.target());
    out.path = out.target.substr(0, out.target.find('?'));
    out.headers.reserve(16);
    for (auto const& field : req) {
        out.headers.emplace_back(
            common::to_lower_ascii(field.name_string()), std::string(field.value()));
    }
    out.body = std::move(req.body());
    out.peer = std::move(peer);
    return out;
}

/// Registers a connection with its listener for as long as the coroutine frame lives.
class connection_registration {
public:
    connection_registration(std::shared_ptr<http_listener::impl> self, beast::tcp_stream& stream)
        : self_(std::move(self))
        , handle_(std::make_shared<http_listener::impl::connection_handle>())
    {
        handle_->strand = stream.get_executor();
        handle_->stream = &stream;
        std::lock_guard lock(self_->mutex);
        id_ = ++self_->next_id;
        self_->open.emplace(id_, handle_);
    }
    connection_registration(connection_registration const&) = delete;
    connection_registration& operator=(connection_registration const&) = delete;
    ~connection_registration()
    {
        handle_->stream = nullptr;
        std::lock_guard lock(self_->mutex);
        self_->open.erase(id_);
    }
    void set_busy(bool busy) { handle_->busy = busy; }

private:
    std::shared_ptr<http_listener::impl> self_;
    std::shared_ptr<http_listener::impl::connection_handle> handle_;
    std::uint64_t id_ = 0;
};

/// Closes after an error answer sent before the request was read whole: the rest of the
/// request is drained briefly first (for one second, at most `reads` reads of 4 KiB), so that
/// closing with unread bytes does not reset the connection before the client reads the answer
/// (a lingering close).
asio::awaitable<void> drain_and_close(beast::tcp_stream& stream, int reads = 256)
{
    boost::system::error_code ec;
    stream.socket().shutdown(tcp::socket::shutdown_send, ec);
    stream.expires_after(std::chrono::seconds(1));
    std::array<char, 4096> sink;
    for (int i = 0; i < reads && !ec; ++i) {
        std::size_t n = 0;
        std::tie(ec, n) = co_await stream.async_read_some(
            asio::buffer(sink), asio::as_tuple(asio::use_awaitable));
    }
    stream.socket().close(ec);
}

/// 413 for a body over the limit, then a lingering close.
asio::awaitable<void> refuse_large_body(http_listener::impl& self, beast::tcp_stream& stream)
{
    co_await write_simple(self, stream, http::status::payload_too_large,
        json_error(fmt::format("Request body larger than {} bytes", self.limits.max_body_bytes)));
    co_await drain_and_close(stream);
}

/// The remote address as logs show it ("?" when the socket no longer knows it).
std::string peer_of(beast::tcp_stream& stream)
{
    boost::system::error_code ec;
    auto ep = stream.socket().remote_endpoint(ec);
    return ec ? "?" : fmt::format("{}:{}", ep.address().to_string(), ep.port());
}

/// Room for up to 16 KiB of an announced request body (read_room.hpp): a 1 MB body in about
/// 64 reads, not 2,000. Not more: a client that announces a body and stalls holds this room
/// until --body-timeout (at most 16 MiB over the default 1,024 connections).
std::size_t body_room(boost::optional<std::uint64_t> announced)
{
    constexpr std::uint64_t most = 16 * 1024;
    return static_cast<std::size_t>(std::min(announced.value_or(0), most));
}

asio::awaitable<void> run_connection(std::shared_ptr<http_listener::impl> self,
    beast::tcp_stream stream, std::shared_ptr<asio::cancellation_signal> hangup)
{
    connection_registration registration(self, stream);
    auto const& limits = self->limits;
    auto const peer = peer_of(stream);
    beast::flat_buffer buffer;
    // Until a request on this connection has passed client authentication, waiting for the
    // next one gets only the header timeout: an unauthenticated client cannot park idle
    // connections for the keep-alive timeout (security review 6).
    bool authenticated = false;
    while (!self->stopping) {
        http::request_parser<http::string_body> parser;
        parser.header_limit(static_cast<std::uint32_t>(limits.max_header_bytes));
        parser.body_limit(limits.max_body_bytes);
        stream.expires_after(authenticated ? limits.idle_timeout : limits.header_timeout);
        auto [hec, hn] = co_await http::async_read_header(
            stream, buffer, parser, asio::as_tuple(asio::use_awaitable));
        if (hec == http::error::header_limit) {
            co_await write_simple(*self, stream, http::status::request_header_fields_too_large,
                json_error("Request headers too large"));
            break;
        }
        if (hec == http::error::body_limit) {
            // Beast checks Content-Length against the limit while reading the header.
            co_await refuse_large_body(*self, stream);
            co_return;
        }
        if (hec) {
            break; // closed, idle timeout, or garbage: nothing useful to answer
        }
        registration.set_busy(true);
        make_read_room(buffer, body_room(parser.content_length()));
        stream.expires_after(limits.body_timeout);
        auto [bec, bn] = co_await http::async_read(
            stream, buffer, parser, asio::as_tuple(asio::use_awaitable));
        if (bec == http::error::body_limit) {
            co_await refuse_large_body(*self, stream);
            co_return;
        }
        if (bec) {
            if (bec == beast::error::timeout) {
                co_await write_simple(*self, stream, http::status::request_timeout,
                    json_error("Request body not received in time"));
            }
            break;
        }
        stream.expires_never();
        auto& req = parser.get();
        connection_responder responder(*self, stream, req.version(), req.keep_alive());
        auto request = to_request(req, peer);
        // The handler runs in this coroutine while the socket is watched: a peer that goes
        // away cancels it through this connection's cancellation slot (`hangup`).
        bool peer_gone = false;
        {
            // Counted however the handler ends, an exception included (shutdown waits on it).
            activity_guard counted(self->requests);
            peer_watch watch(stream, hangup);
            try {
                co_await self->handler.handle(std::move(request), responder);
            } catch (boost::system::system_error const& e) {
                if (e.code() != asio::error::operation_aborted) {
                    throw;
                }
                peer_gone = true;
            }
        }
        registration.set_busy(false);
        give_back_read_room(buffer, 4096); // a large body's room is not kept while idle
        authenticated = authenticated || responder.authenticated();
        auto const cs = co_await asio::this_coro::cancellation_state;
        if (peer_gone || is_cancelled(cs) || !responder.has_responded()
            || !responder.keep_alive()) {
            break; // after a cancellation every further co_await here would throw
        }
    }
    boost::system::error_code ignored;
    stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
}

/// --max-connections reached: answer 503 and close. The request is drained briefly first, so
/// that closing with unread bytes does not reset the connection before the client reads the
/// answer.
asio::awaitable<void> refuse_connection(
    std::shared_ptr<http_listener::impl> self, beast::tcp_stream stream, bool per_address = false)
{
    auto const message = per_address
        ? fmt::format("Too many open connections from this address (limit {}, "
                      "--max-connections-per-address); retry later",
            self->limits.max_connections_per_address)
        : fmt::format("Too many open connections (limit {}, --max-connections); retry later",
            self->limits.max_connections);
    co_await write_simple(*self, stream, http::status::service_unavailable, json_error(message));
    // A short drain: the server is over its connection limit.
    co_await drain_and_close(stream, 16);
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
            // e.g. EMFILE: keep serving the connections we have, and do not spin: the
            // failing accept would otherwise return at once, forever.
            spdlog::warn("http: accept failed: {}; pausing 100 ms", ec.message());
            asio::steady_timer pause(self->acceptor.get_executor());
            pause.expires_after(std::chrono::milliseconds(100));
            co_await pause.async_wait(asio::as_tuple(asio::use_awaitable));
            continue;
        }
        // Answers leave in one or two writes; Nagle's algorithm would hold the second back
        // for the peer's delayed ACK (tens of milliseconds).
        socket.set_option(tcp::no_delay(true), ec);
        self->accepted.fetch_add(1, std::memory_order_relaxed);
        beast::tcp_stream stream(std::move(socket));
        if (self->connections >= self->limits.max_connections
            && !(self->limits.evict_idle_when_full && self->evict_oldest_idle())) {
            if (self->refusing >= 64) {
                continue; // a flood: drop it without an answer rather than pile up writers
            }
            ++self->refusing;
            auto ex = stream.get_executor();
            asio::co_spawn(ex, refuse_connection(self, std::move(stream)),
                [self](std::exception_ptr const& error) {
                    --self->refusing;
                    log_root_failure("http refusal", error);
                });
            continue;
        }
        std::string address;
        {
            boost::system::error_code aec;
            auto ep = stream.socket().remote_endpoint(aec);
            address = aec ? std::string("?") : ep.address().to_string();
        }
        if (!self->admit_address(address)) {
            if (self->refusing >= 64) {
                continue;
            }
            ++self->refusing;
            auto ex = stream.get_executor();
            asio::co_spawn(ex, refuse_connection(self, std::move(stream), true),
                [self](std::exception_ptr const& error) {
                    --self->refusing;
                    log_root_failure("http refusal", error);
                });
            continue;
        }
        ++self->connections;
        auto ex = stream.get_executor();
        // The connection's cancellation slot: peer_watch emits on it when the peer goes away
        // mid-request. The completion handler keeps the signal alive for the coroutine's life.
        auto hangup = std::make_shared<asio::cancellation_signal>();
        auto slot = hangup->slot();
        asio::co_spawn(ex, run_connection(self, std::move(stream), hangup),
            asio::bind_cancellation_slot(slot, [self, hangup, address](std::exception_ptr error) {
                --self->connections;
                self->release_address(address);
                log_root_failure("http connection", error);
            }));
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

http_listener::~http_listener()
{
    stop();
}

std::uint16_t http_listener::port() const
{
    return impl_->acceptor.local_endpoint().port();
}

void http_listener::start()
{
    asio::co_spawn(
        impl_->acceptor.get_executor(), accept_loop(impl_), logged { "http accept loop" });
}

void http_listener::stop()
{
    impl_->stopping = true;
    asio::post(impl_->acceptor.get_executor(), [self = impl_] {
        boost::system::error_code ignored;
        self->acceptor.close(ignored);
    });
    impl_->close_connections(true);
}

void http_listener::close_all()
{
    impl_->close_connections(false);
}

std::size_t http_listener::open_connections() const
{
    return impl_->connections;
}

boost::asio::awaitable<void> http_listener::until_idle()
{
    return impl_->requests.until_idle();
}

std::size_t http_listener::active_requests() const
{
    return impl_->requests.count();
}

http_listener_stats http_listener::stats() const
{
    http_listener_stats out;
    out.open_connections = impl_->connections;
    out.active_requests = impl_->requests.count();
    out.accepted = impl_->accepted.load(std::memory_order_relaxed);
    for (unsigned code = 0; code < impl_->responses.size(); ++code) {
        if (auto n = impl_->responses[code].load(std::memory_order_relaxed); n > 0) {
            out.responses.emplace_back(code, n);
        }
    }
    return out;
}

} // namespace toolgate::transport
