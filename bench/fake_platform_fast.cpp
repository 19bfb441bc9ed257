// bench_platform: the benchmark's fake platform. An HTTPS (keep-alive) server on 127.0.0.1 that
// answers any method and path with one small canned JSON body (or, under --big-prefix, the
// large one of --big-body-file), recording nothing, so that it is not the bottleneck. Prints
// `port=<n>` on stdout once listening; exits on stdin EOF or SIGTERM.
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;

namespace {

constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

struct settings {
    std::string cert_file;
    std::string key_file;
    std::string body = R"({"ok":true,"id":"bench-1","items":[1,2,3]})";
    std::string big_body_file; ///< served for targets under big_prefix (the results scenario)
    std::string big_prefix = "/big/";
    int threads = 1;
    bool tls = true;
};

/// The canned answers, written once; shared read-only by every connection.
struct responses {
    std::string small;
    std::string big;
    std::string big_prefix;

    std::string const& for_target(std::string_view target) const
    {
        return !big.empty() && target.starts_with(big_prefix) ? big : small;
    }
};

std::string canned_response(std::string const& body)
{
    return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
        + std::to_string(body.size()) + "\r\nConnection: keep-alive\r\n\r\n" + body;
}

// One keep-alive connection: read a request (headers and body), write the canned answer.
template <class Stream>
asio::awaitable<void> serve_requests(Stream& stream, responses const& answers)
{
    beast::flat_buffer buffer;
    for (;;) {
        http::request_parser<http::string_body> parser;
        parser.body_limit(16 * 1024 * 1024);
        auto [ec, n] = co_await http::async_read(stream, buffer, parser, use_tuple);
        if (ec) {
            co_return;
        }
        auto const& response = answers.for_target(parser.get().target());
        auto [wec, w] = co_await asio::async_write(stream, asio::buffer(response), use_tuple);
        if (wec || !parser.get().keep_alive()) {
            co_return;
        }
    }
}

// Takes the socket by value: the coroutine owns it. `context` and `answers` live in main().
asio::awaitable<void> serve_tls(tcp::socket socket, ssl::context& context, responses const& answers)
{
    socket.set_option(tcp::no_delay(true));
    ssl::stream<tcp::socket> stream(std::move(socket), context);
    auto [ec] = co_await stream.async_handshake(ssl::stream_base::server, use_tuple);
    if (ec) {
        co_return;
    }
    co_await serve_requests(stream, answers);
    co_await stream.async_shutdown(use_tuple);
}

asio::awaitable<void> serve_plain(tcp::socket socket, responses const& answers)
{
    socket.set_option(tcp::no_delay(true));
    co_await serve_requests(socket, answers);
}

void report(std::exception_ptr e)
{
    if (e) {
        try {
            std::rethrow_exception(e);
        } catch (std::exception const& error) {
            std::fprintf(stderr, "bench_platform: %s\n", error.what());
        }
    }
}

// Accepts on `acceptor`, spreading connections over the io_contexts round-robin.
asio::awaitable<void> accept_loop(tcp::acceptor& acceptor, std::vector<asio::io_context*> pool,
    ssl::context& context, responses const& answers, bool tls)
{
    for (std::size_t next = 0;; ++next) {
        auto& target = *pool[next % pool.size()];
        auto [ec, socket] = co_await acceptor.async_accept(target, use_tuple);
        if (ec) {
            co_return;
        }
        if (tls) {
            asio::co_spawn(target, serve_tls(std::move(socket), context, answers), report);
        } else {
            asio::co_spawn(target, serve_plain(std::move(socket), answers), report);
        }
    }
}

asio::awaitable<void> wait_for_stdin_eof(asio::io_context& io)
{
    asio::posix::stream_descriptor in(io, ::dup(0));
    char buf[256];
    for (;;) {
        auto [ec, n] = co_await in.async_read_some(asio::buffer(buf), use_tuple);
        if (ec) {
            co_return;
        }
    }
}

bool parse(int argc, char** argv, settings& out)
{
    for (int i = 1; i < argc; ++i) {
        std::string const arg = argv[i];
        bool const has_value = i + 1 < argc;
        if (arg == "--cert" && has_value) {
            out.cert_file = argv[++i];
        } else if (arg == "--key" && has_value) {
            out.key_file = argv[++i];
        } else if (arg == "--body" && has_value) {
            out.body = argv[++i];
        } else if (arg == "--big-body-file" && has_value) {
            out.big_body_file = argv[++i];
        } else if (arg == "--big-prefix" && has_value) {
            out.big_prefix = argv[++i];
        } else if (arg == "--threads" && has_value) {
            out.threads = std::max(1, std::atoi(argv[++i]));
        } else if (arg == "--plain") {
            out.tls = false;
        } else {
            return false;
        }
    }
    return !out.tls || (!out.cert_file.empty() && !out.key_file.empty());
}

} // namespace

int main(int argc, char** argv)
{
    settings config;
    if (!parse(argc, argv, config)) {
        std::fputs("usage: bench_platform --cert PEM --key PEM [--body JSON] [--threads N] "
                   "[--plain] [--big-body-file FILE [--big-prefix /big/]]\n",
            stderr);
        return 2;
    }
    responses answers;
    answers.small = canned_response(config.body);
    answers.big_prefix = config.big_prefix;
    if (!config.big_body_file.empty()) {
        std::ifstream in(config.big_body_file, std::ios::binary);
        std::stringstream body;
        body << in.rdbuf();
        answers.big = canned_response(body.str());
    }
    ssl::context context(ssl::context::tls_server);
    if (config.tls) {
        context.use_certificate_chain_file(config.cert_file);
        context.use_private_key_file(config.key_file, ssl::context::pem);
    }

    std::vector<std::unique_ptr<asio::io_context>> contexts;
    std::vector<asio::io_context*> pool;
    for (int i = 0; i < config.threads; ++i) {
        contexts.push_back(std::make_unique<asio::io_context>(1));
        pool.push_back(contexts.back().get());
    }
    auto& main_io = *contexts.front();
    tcp::acceptor acceptor(main_io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
    acceptor.listen(1024);
    std::printf("port=%u\n", static_cast<unsigned>(acceptor.local_endpoint().port()));
    std::fflush(stdout);

    auto stop_all = [&] {
        for (auto* io : pool) {
            io->stop();
        }
    };
    asio::signal_set signals(main_io, SIGINT, SIGTERM);
    signals.async_wait([&](boost::system::error_code, int) { stop_all(); });
    // Stdin that epoll refuses (a file, /dev/null) throws: then only a signal stops us.
    asio::co_spawn(main_io, wait_for_stdin_eof(main_io), [&](std::exception_ptr e) {
        if (!e) {
            stop_all();
        }
    });
    asio::co_spawn(main_io, accept_loop(acceptor, pool, context, answers, config.tls), report);

    std::vector<std::thread> threads;
    for (std::size_t i = 1; i < pool.size(); ++i) {
        auto* io = pool[i];
        threads.emplace_back([io] {
            auto guard = asio::make_work_guard(*io);
            io->run();
        });
    }
    main_io.run();
    for (auto& t : threads) {
        t.join();
    }
    return 0;
}
