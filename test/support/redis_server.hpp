// A redis-server of the test's own on 127.0.0.1: a free port picked as the other tests pick
// theirs (bind port 0, read it, close), no persistence (`--save '' --appendonly no`), a
// temporary directory, killed at the end. Stops and restarts keep the port.
#pragma once

#include "process.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace toolgate::testing {

class redis_server {
public:
    /// Starts it and waits until it answers PING. `extra` are more redis-server arguments
    /// (e.g. `--requirepass`, `x`). Throws std::runtime_error with its output when it cannot.
    explicit redis_server(std::vector<std::string> extra = {});
    ~redis_server();
    redis_server(redis_server const&) = delete;
    redis_server& operator=(redis_server const&) = delete;

    std::uint16_t port() const { return port_; }
    std::string url() const { return "redis://127.0.0.1:" + std::to_string(port_); }
    /// SIGKILL and reap; start() brings it back on the same port (empty: nothing persists).
    void kill();
    void start();
    /// SIGSTOP / SIGCONT: a Redis that accepts connections and answers nothing.
    void pause();
    void resume();
    /// Runs redis-cli against it with `args`; its stdout.
    std::string cli(std::vector<std::string> const& args) const;

private:
    std::vector<std::string> extra_;
    std::string dir_;
    std::uint16_t port_ = 0;
    std::unique_ptr<child_process> process_;
};

/// A port that was free a moment ago on 127.0.0.1.
std::uint16_t free_loopback_port();

} // namespace toolgate::testing
