// posix_spawn + poll. Only the test thread touches a child_process.
#include "process.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <regex>
#include <spawn.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace toolgate::testing {

namespace {

using clock = std::chrono::steady_clock;

void ignore_sigpipe()
{
    static bool const done = [] {
        std::signal(SIGPIPE, SIG_IGN);
        return true;
    }();
    (void)done;
}

void make_pipe(int fds[2])
{
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        throw std::runtime_error(std::string("pipe2: ") + std::strerror(errno));
    }
}

void close_fd(int& fd)
{
    if (fd >= 0) {
        ::close(fd);
        fd = -1;
    }
}

std::chrono::milliseconds left(clock::time_point deadline)
{
    auto d = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now());
    return d.count() < 0 ? std::chrono::milliseconds(0) : d;
}

} // namespace

child_process::child_process(
    std::string binary, std::vector<std::string> args, spawn_options options)
{
    ignore_sigpipe();
    int in[2] = { -1, -1 };
    int out[2];
    int err[2];
    if (options.stdin_path.empty()) {
        make_pipe(in);
    }
    make_pipe(out);
    make_pipe(err);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (options.stdin_path.empty()) {
        posix_spawn_file_actions_adddup2(&actions, in[0], 0);
    } else {
        posix_spawn_file_actions_addopen(&actions, 0, options.stdin_path.c_str(), O_RDONLY, 0);
    }
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_adddup2(&actions, err[1], 2);

    std::vector<std::string> argv_storage;
    argv_storage.push_back(binary);
    for (auto& a : args) {
        argv_storage.push_back(std::move(a));
    }
    std::vector<char*> argv;
    for (auto& a : argv_storage) {
        argv.push_back(a.data());
    }
    argv.push_back(nullptr);

    std::vector<std::string> env_storage;
    for (char** e = environ; *e; ++e) {
        env_storage.emplace_back(*e);
    }
    for (auto& e : options.env) {
        env_storage.push_back(std::move(e));
    }
    std::vector<char*> envp;
    for (auto& e : env_storage) {
        envp.push_back(e.data());
    }
    envp.push_back(nullptr);

    int const rc
        = ::posix_spawn(&pid_, binary.c_str(), &actions, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    if (in[0] >= 0) {
        ::close(in[0]);
    }
    ::close(out[1]);
    ::close(err[1]);
    if (rc != 0) {
        close_fd(in[1]);
        ::close(out[0]);
        ::close(err[0]);
        throw std::runtime_error("posix_spawn " + binary + ": " + std::strerror(rc));
    }
    in_ = in[1];
    out_ = out[0];
    err_ = err[0];
    ::fcntl(out_, F_SETFL, ::fcntl(out_, F_GETFL) | O_NONBLOCK);
    ::fcntl(err_, F_SETFL, ::fcntl(err_, F_GETFL) | O_NONBLOCK);
}

child_process::~child_process()
{
    close_fd(in_);
    if (!status_ && pid_ > 0) {
        ::kill(pid_, SIGKILL);
        reap(true);
    }
    close_fd(out_);
    close_fd(err_);
}

bool child_process::write(std::string_view bytes)
{
    while (!bytes.empty()) {
        if (in_ < 0) {
            return false;
        }
        auto const n = ::write(in_, bytes.data(), bytes.size());
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            return false;
        }
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

void child_process::close_stdin()
{
    close_fd(in_);
}

void child_process::pump(std::chrono::milliseconds timeout)
{
    pollfd fds[2];
    nfds_t count = 0;
    if (!stdout_eof_) {
        fds[count++] = { out_, POLLIN, 0 };
    }
    if (!stderr_eof_) {
        fds[count++] = { err_, POLLIN, 0 };
    }
    if (count == 0) {
        return;
    }
    int const ready = ::poll(fds, count, static_cast<int>(timeout.count()));
    if (ready <= 0) {
        return;
    }
    char buffer[65536];
    for (nfds_t i = 0; i < count; ++i) {
        if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) {
            continue;
        }
        bool const is_out = fds[i].fd == out_;
        for (;;) {
            auto const n = ::read(fds[i].fd, buffer, sizeof buffer);
            if (n > 0) {
                (is_out ? out_buffer_ : err_text_).append(buffer, static_cast<std::size_t>(n));
                continue;
            }
            if (n == 0) {
                (is_out ? stdout_eof_ : stderr_eof_) = true;
            } else if (errno == EINTR) {
                continue;
            }
            break; // EAGAIN: drained for now
        }
    }
}

std::optional<std::string> child_process::read_line(std::chrono::milliseconds timeout)
{
    auto const deadline = clock::now() + timeout;
    for (;;) {
        if (auto nl = out_buffer_.find('\n'); nl != std::string::npos) {
            std::string line = out_buffer_.substr(0, nl);
            out_buffer_.erase(0, nl + 1);
            return line;
        }
        if (stdout_eof_) {
            return std::nullopt;
        }
        auto const wait = left(deadline);
        pump(wait);
        if (wait.count() == 0 && out_buffer_.find('\n') == std::string::npos) {
            return std::nullopt;
        }
    }
}

bool child_process::wait_stderr(std::string_view needle, std::chrono::milliseconds timeout)
{
    auto const deadline = clock::now() + timeout;
    for (;;) {
        if (err_text_.find(needle) != std::string::npos) {
            return true;
        }
        if (stderr_eof_ || left(deadline).count() == 0) {
            return false;
        }
        pump(std::min(left(deadline), std::chrono::milliseconds(50)));
    }
}

std::string const& child_process::stderr_text()
{
    pump(std::chrono::milliseconds(0));
    return err_text_;
}

bool child_process::reap(bool block)
{
    if (status_) {
        return true;
    }
    int raw = 0;
    pid_t const r = ::waitpid(pid_, &raw, block ? 0 : WNOHANG);
    if (r != pid_) {
        return false;
    }
    status_ = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
    return true;
}

std::optional<int> child_process::wait_exit(std::chrono::milliseconds timeout)
{
    auto const deadline = clock::now() + timeout;
    for (;;) {
        if (reap(false)) {
            // Collect what the child wrote before it went.
            while (!stdout_eof_ || !stderr_eof_) {
                pump(std::chrono::milliseconds(100));
                if (left(deadline).count() == 0) {
                    break;
                }
            }
            return status_;
        }
        if (left(deadline).count() == 0) {
            return std::nullopt;
        }
        // poll() wakes on output; a quiet child is re-checked every 10 ms.
        pump(std::min(left(deadline), std::chrono::milliseconds(10)));
    }
}

bool child_process::running()
{
    return !reap(false);
}

void child_process::signal(int sig)
{
    if (!status_) {
        ::kill(pid_, sig);
    }
}

http_server_process::http_server_process(
    std::string binary, std::vector<std::string> args, spawn_options options)
{
    std::vector<std::string> full { "--transport", "http", "--host", "127.0.0.1", "--port", "0" };
    for (auto& a : args) {
        full.push_back(std::move(a));
    }
    process_
        = std::make_unique<child_process>(std::move(binary), std::move(full), std::move(options));
    static std::regex const banner(
        R"(serving MCP \(Streamable HTTP\) at http://[^ ]*:(\d+)/[^\n]*\n)");
    auto const deadline = clock::now() + 10s;
    std::smatch m;
    for (;;) {
        auto const& text = process_->stderr_text();
        if (std::regex_search(text, m, banner)) {
            break;
        }
        if (left(deadline).count() == 0 || !process_->running()) {
            throw std::runtime_error("no port in the server's banner; stderr: " + text);
        }
        process_->pump(50ms);
    }
    port_ = static_cast<std::uint16_t>(std::stoi(m[1].str()));
}

} // namespace toolgate::testing
