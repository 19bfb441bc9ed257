// stdio_channel over pipes and regular files: lines in (split anywhere, CRLF, oversize, EOF),
// messages out (one per line, never interleaved, flushed), both the epoll and the fallback
// paths.
#include "transport/stdio_channel.hpp"

#include <boost/asio/io_context.hpp>
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

using toolgate::transport::stdio_channel;
namespace asio = boost::asio;
using namespace std::chrono_literals;

namespace {

struct pipe_pair {
    int read_end = -1;
    int write_end = -1;
    pipe_pair()
    {
        int fds[2];
        REQUIRE(::pipe(fds) == 0);
        read_end = fds[0];
        write_end = fds[1];
    }
    ~pipe_pair()
    {
        close_write();
        if (read_end >= 0) {
            ::close(read_end);
        }
    }
    void close_write()
    {
        if (write_end >= 0) {
            ::close(write_end);
            write_end = -1;
        }
    }
    void write(std::string const& bytes) const
    {
        REQUIRE(::write(write_end, bytes.data(), bytes.size()) == ssize_t(bytes.size()));
    }
};

/// What the channel delivered, in order: "line:<text>", "oversize", "eof".
struct recorder {
    std::vector<std::string> events;
    stdio_channel::handlers handlers()
    {
        return { [this](std::string line) { events.push_back("line:" + line); },
            [this] { events.push_back("oversize"); }, [this] { events.push_back("eof"); } };
    }
};

/// Runs `ioc` until `done` holds or 5 s pass.
template <class Pred> void run_until(asio::io_context& ioc, Pred done)
{
    auto const deadline = std::chrono::steady_clock::now() + 5s;
    while (!done() && std::chrono::steady_clock::now() < deadline) {
        ioc.run_for(10ms);
        ioc.restart();
    }
}

std::string read_all(int fd)
{
    std::string out;
    char buffer[4096];
    for (;;) {
        auto const n = ::read(fd, buffer, sizeof buffer);
        if (n <= 0) {
            return out;
        }
        out.append(buffer, std::size_t(n));
    }
}

} // namespace

TEST_CASE("stdio channel: lines split across reads arrive whole, in order, then EOF", "[stdio]")
{
    asio::io_context ioc;
    pipe_pair in;
    pipe_pair out;
    auto channel
        = std::make_shared<stdio_channel>(ioc.get_executor(), 1024, in.read_end, out.write_end);
    recorder seen;
    channel->start(seen.handlers());
    in.write("{\"a\":");
    ioc.run_for(50ms); // nothing complete yet: nothing delivered
    ioc.restart();
    CHECK(seen.events.empty());
    in.write("1}\n{\"b\":2}\r\n\n{\"c\"");
    in.write(":3}\n");
    in.close_write();
    run_until(ioc, [&] { return !seen.events.empty() && seen.events.back() == "eof"; });
    channel->stop();
    REQUIRE(seen.events.size() == 4);
    CHECK(seen.events[0] == "line:{\"a\":1}");
    CHECK(seen.events[1] == "line:{\"b\":2}"); // CR of CRLF dropped; the empty line skipped
    CHECK(seen.events[2] == "line:{\"c\":3}");
    CHECK(seen.events[3] == "eof");
}

TEST_CASE("stdio channel: an oversize line is reported and the next line still arrives", "[stdio]")
{
    asio::io_context ioc;
    pipe_pair in;
    pipe_pair out;
    auto channel
        = std::make_shared<stdio_channel>(ioc.get_executor(), 16, in.read_end, out.write_end);
    recorder seen;
    channel->start(seen.handlers());
    in.write(std::string(100, 'x') + "\n{\"ok\":true}\n");
    in.close_write();
    run_until(ioc, [&] { return !seen.events.empty() && seen.events.back() == "eof"; });
    channel->stop();
    REQUIRE(seen.events.size() == 3);
    CHECK(seen.events[0] == "oversize");
    CHECK(seen.events[1] == "line:{\"ok\":true}");
}

TEST_CASE("stdio channel: a regular file as stdin is read by the fallback reader", "[stdio]")
{
    asio::io_context ioc;
    std::FILE* file = std::tmpfile();
    REQUIRE(file != nullptr);
    std::string const content = "{\"n\":1}\n{\"n\":2}\n";
    REQUIRE(std::fwrite(content.data(), 1, content.size(), file) == content.size());
    std::fflush(file);
    std::rewind(file);
    pipe_pair out;
    auto channel
        = std::make_shared<stdio_channel>(ioc.get_executor(), 1024, ::fileno(file), out.write_end);
    recorder seen;
    channel->start(seen.handlers());
    run_until(ioc, [&] { return !seen.events.empty() && seen.events.back() == "eof"; });
    channel->stop();
    channel.reset();
    std::fclose(file);
    REQUIRE(seen.events.size() == 3);
    CHECK(seen.events[0] == "line:{\"n\":1}");
    CHECK(seen.events[1] == "line:{\"n\":2}");
}

TEST_CASE("stdio channel: messages sent from many threads never share a line", "[stdio]")
{
    asio::io_context ioc;
    pipe_pair in;
    pipe_pair out;
    auto channel
        = std::make_shared<stdio_channel>(ioc.get_executor(), 1024, in.read_end, out.write_end);
    recorder seen;
    channel->start(seen.handlers());
    constexpr int threads = 4;
    constexpr int each = 200;
    std::vector<std::thread> senders;
    for (int t = 0; t < threads; ++t) {
        senders.emplace_back([&channel, t] {
            for (int i = 0; i < each; ++i) {
                // Long enough that a torn write would show.
                channel->send(std::string(3000, char('a' + t)) + std::to_string(i));
            }
        });
    }
    // Drain the pipe while the writer runs (a full pipe would block it).
    std::string written;
    std::thread drain([&] { written = read_all(out.read_end); });
    for (auto& s : senders) {
        s.join();
    }
    bool flushed = false;
    channel->when_flushed([&] { flushed = true; });
    run_until(ioc, [&] { return flushed; });
    CHECK(flushed);
    in.close_write();
    run_until(ioc, [&] { return !seen.events.empty() && seen.events.back() == "eof"; });
    channel->stop();
    channel.reset();
    ioc.run_for(50ms);
    out.close_write();
    drain.join();
    std::size_t lines = 0;
    std::size_t start = 0;
    while (start < written.size()) {
        auto const end = written.find('\n', start);
        REQUIRE(end != std::string::npos);
        auto const line = std::string_view(written).substr(start, end - start);
        REQUIRE(line.size() > 3000);
        // One sender's letter throughout: no other message's bytes inside this line.
        CHECK(line.find_first_not_of(line.front()) == 3000);
        ++lines;
        start = end + 1;
    }
    CHECK(lines == threads * each);
}

TEST_CASE("stdio channel: when_flushed with nothing queued runs soon", "[stdio]")
{
    asio::io_context ioc;
    pipe_pair in;
    pipe_pair out;
    auto channel
        = std::make_shared<stdio_channel>(ioc.get_executor(), 1024, in.read_end, out.write_end);
    bool flushed = false;
    channel->when_flushed([&] { flushed = true; });
    CHECK_FALSE(flushed); // not inline: on the executor
    run_until(ioc, [&] { return flushed; });
    CHECK(flushed);
}
