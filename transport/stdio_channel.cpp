// stdio transport. Reading uses an Asio stream_descriptor when epoll accepts stdin (pipes,
// terminals); when it refuses (a regular file or /dev/null, as in `toolgate < calls.jsonl`)
// a reader thread posts the bytes to the executor instead. Writing is done by one coroutine
// draining a queue, with a blocking fallback for the same reason.
#include "transport/stdio_channel.hpp"

#include "common/thread_name.hpp"
#include "transport/coroutine_root.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <spdlog/spdlog.h>

#include <deque>
#include <mutex>
#include <optional>
#include <thread>
#include <unistd.h>
#include <vector>

namespace toolgate::transport {
namespace asio = boost::asio;

struct stdio_channel::impl {
    asio::any_io_executor executor;
    line_framer framer;
    int in_fd;
    int out_fd;
    handlers h;
    std::optional<asio::posix::stream_descriptor> input;
    std::optional<asio::posix::stream_descriptor> output;
    std::thread reader; // fallback reader when epoll refuses stdin
    std::mutex mutex; // guards queue, writing, flush_waiters
    std::deque<std::string> queue;
    bool writing = false;
    std::vector<std::function<void()>> flush_waiters;

    impl(asio::any_io_executor ex, std::size_t max_line, int in, int out)
        : executor(std::move(ex))
        , framer(max_line)
        , in_fd(in)
        , out_fd(out)
    {
    }
};

namespace {

void deliver(stdio_channel::handlers const& h, line_framer& framer, std::string_view bytes)
{
    for (auto& f : framer.feed(bytes)) {
        if (f.oversize) {
            h.on_oversize();
        } else {
            h.on_line(std::move(f.text));
        }
    }
}

asio::awaitable<void> read_loop(
    [[maybe_unused]] std::shared_ptr<stdio_channel> keep, stdio_channel::impl* self)
{
    std::string buffer(64 * 1024, '\0');
    for (;;) {
        auto [ec, n] = co_await self->input->async_read_some(
            asio::buffer(buffer), asio::as_tuple(asio::use_awaitable));
        if (n > 0) {
            deliver(self->h, self->framer, std::string_view(buffer.data(), n));
        }
        if (ec) {
            break;
        }
    }
    self->h.on_eof();
}

asio::awaitable<void> write_loop(
    [[maybe_unused]] std::shared_ptr<stdio_channel> keep, stdio_channel::impl* self)
{
    // Everything queued goes out in one gathered write: a client with many calls in flight
    // gets their answers with one system call instead of one each.
    std::deque<std::string> batch;
    std::vector<asio::const_buffer> buffers;
    for (;;) {
        batch.clear();
        std::vector<std::function<void()>> waiters;
        {
            std::lock_guard lock(self->mutex);
            if (self->queue.empty()) {
                self->writing = false;
                waiters.swap(self->flush_waiters);
            } else {
                batch.swap(self->queue);
            }
        }
        if (batch.empty()) {
            for (auto& w : waiters) {
                w();
            }
            co_return;
        }
        if (self->output) {
            buffers.clear();
            for (auto const& message : batch) {
                buffers.push_back(asio::buffer(message));
            }
            auto [ec, n] = co_await asio::async_write(
                *self->output, buffers, asio::as_tuple(asio::use_awaitable));
            if (ec) {
                spdlog::debug("stdio: stdout write failed: {}", ec.message());
            }
        } else {
            // stdout is a regular file: writes do not block for long.
            for (auto const& message : batch) {
                std::string_view rest = message;
                while (!rest.empty()) {
                    auto const n = ::write(self->out_fd, rest.data(), rest.size());
                    if (n <= 0) {
                        break;
                    }
                    rest.remove_prefix(static_cast<std::size_t>(n));
                }
            }
        }
    }
}

void watch(std::exception_ptr const& error)
{
    log_root_failure("stdio", error);
}

} // namespace

stdio_channel::stdio_channel(
    asio::any_io_executor executor, std::size_t max_line, int in_fd, int out_fd)
    : impl_(std::make_unique<impl>(std::move(executor), max_line, in_fd, out_fd))
{
    boost::system::error_code ec;
    asio::posix::stream_descriptor out(impl_->executor);
    out.assign(::dup(out_fd), ec);
    if (!ec) {
        impl_->output.emplace(std::move(out));
    }
}

stdio_channel::~stdio_channel()
{
    if (impl_->reader.joinable()) {
        impl_->reader.detach(); // blocked in read(); the process is exiting
    }
}

void stdio_channel::start(handlers h)
{
    impl_->h = std::move(h);
    boost::system::error_code ec;
    asio::posix::stream_descriptor in(impl_->executor);
    int const fd = ::dup(impl_->in_fd);
    in.assign(fd, ec);
    if (!ec) {
        impl_->input.emplace(std::move(in));
        asio::co_spawn(impl_->executor, read_loop(shared_from_this(), impl_.get()), watch);
        return;
    }
    ::close(fd);
    // epoll refuses regular files: read them on a thread and post the bytes over.
    auto self = shared_from_this();
    impl_->reader = std::thread([self] {
        common::name_this_thread("toolgate-stdin");
        auto* p = self->impl_.get();
        char buffer[64 * 1024];
        for (;;) {
            auto const n = ::read(p->in_fd, buffer, sizeof buffer);
            if (n <= 0) {
                break;
            }
            asio::post(p->executor, [self, bytes = std::string(buffer, std::size_t(n))] {
                deliver(self->impl_->h, self->impl_->framer, bytes);
            });
        }
        asio::post(p->executor, [self] { self->impl_->h.on_eof(); });
    });
}

void stdio_channel::send(std::string message)
{
    message += '\n';
    bool start_writer = false;
    {
        std::lock_guard lock(impl_->mutex);
        impl_->queue.push_back(std::move(message));
        start_writer = !impl_->writing;
        impl_->writing = true;
    }
    if (start_writer) {
        asio::co_spawn(impl_->executor, write_loop(shared_from_this(), impl_.get()), watch);
    }
}

void stdio_channel::when_flushed(std::function<void()> done)
{
    {
        std::lock_guard lock(impl_->mutex);
        if (impl_->writing) {
            impl_->flush_waiters.push_back(std::move(done));
            return;
        }
    }
    asio::post(impl_->executor, std::move(done));
}

void stdio_channel::stop()
{
    impl_->h = {};
}

} // namespace toolgate::transport
