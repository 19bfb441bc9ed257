// The tests' own redis-server (see redis_server.hpp).
#include "redis_server.hpp"

#include <arpa/inet.h>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <netinet/in.h>
#include <stdexcept>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

namespace toolgate::testing {

std::uint16_t free_loopback_port()
{
    int const fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr {};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0
        || ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
        throw std::runtime_error("no free port on 127.0.0.1");
    }
    ::close(fd);
    return ntohs(addr.sin_port);
}

redis_server::redis_server(std::vector<std::string> extra)
    : extra_(std::move(extra))
{
    auto pattern = (std::filesystem::temp_directory_path() / "toolgate-redis-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
        throw std::runtime_error("mkdtemp failed");
    }
    dir_ = pattern;
    // The port is free when asked for but not held: under ctest -j another test's server can
    // take it before redis-server binds it, so a failed first start tries another port.
    for (int attempt = 1;; ++attempt) {
        port_ = free_loopback_port();
        try {
            start();
            return;
        } catch (std::runtime_error const&) {
            if (attempt == 3) {
                throw;
            }
        }
    }
}

redis_server::~redis_server()
{
    if (process_) {
        process_->signal(SIGCONT);
    }
    process_.reset(); // SIGKILL and reap
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
}

void redis_server::start()
{
    std::vector<std::string> args { "--port", std::to_string(port_), "--bind", "127.0.0.1",
        "--save", "", "--appendonly", "no", "--dir", dir_, "--daemonize", "no" };
    args.insert(args.end(), extra_.begin(), extra_.end());
    process_ = std::make_unique<child_process>("/usr/bin/redis-server", args);
    // redis-server logs to stdout: "Ready to accept connections" once it listens.
    for (int i = 0; i < 100; ++i) {
        while (auto line = process_->read_line(50ms)) {
            if (line->find("Ready to accept connections") != std::string::npos) {
                return;
            }
        }
        if (!process_->running()) {
            break;
        }
    }
    throw std::runtime_error("redis-server did not become ready: " + process_->stderr_text());
}

void redis_server::kill()
{
    process_.reset();
}

void redis_server::pause()
{
    process_->signal(SIGSTOP);
}

void redis_server::resume()
{
    process_->signal(SIGCONT);
}

std::string redis_server::cli(std::vector<std::string> const& args) const
{
    std::vector<std::string> all { "-h", "127.0.0.1", "-p", std::to_string(port_) };
    all.insert(all.end(), args.begin(), args.end());
    child_process cli("/usr/bin/redis-cli", all);
    std::string out;
    while (auto line = cli.read_line(5s)) {
        out += *line + "\n";
    }
    cli.wait_exit(5s);
    return out;
}

} // namespace toolgate::testing
