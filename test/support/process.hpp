// A child process for integration tests: posix_spawn with pipes on stdin, stdout and stderr,
// line reads with deadlines (poll), and exit waits with deadlines. Every wait pumps both
// output pipes, so a chatty child never blocks on a full stderr pipe.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <vector>

namespace toolgate::testing {

using namespace std::chrono_literals;

struct spawn_options {
    std::vector<std::string> env {}; ///< extra `NAME=value` entries (added to the environment)
    std::string stdin_path {}; ///< non-empty: stdin is this file instead of a pipe
};

class child_process {
public:
    child_process(std::string binary, std::vector<std::string> args, spawn_options options = {});
    /// Kills (SIGKILL) the child if it is still running and reaps it.
    ~child_process();
    child_process(child_process const&) = delete;
    child_process& operator=(child_process const&) = delete;

    pid_t pid() const { return pid_; }

    /// Writes all bytes to the child's stdin (blocking; SIGPIPE is ignored in tests).
    /// False when stdin is closed or the child has gone.
    bool write(std::string_view bytes);
    bool write_line(std::string_view line) { return write(std::string(line) + "\n"); }
    void close_stdin();

    /// The next stdout line (without `\n`), or nullopt at the deadline or at EOF.
    std::optional<std::string> read_line(std::chrono::milliseconds timeout = 10s);
    /// True once stdout reached EOF and every buffered line has been read.
    bool stdout_done() const { return stdout_eof_ && out_buffer_.find('\n') == std::string::npos; }
    /// Stdout bytes after the last complete line (a line without its newline yet).
    std::string const& stdout_partial() const { return out_buffer_; }

    /// Waits until stderr contains `needle`, or the deadline. Returns whether it did.
    bool wait_stderr(std::string_view needle, std::chrono::milliseconds timeout = 10s);
    /// Everything the child wrote to stderr so far.
    std::string const& stderr_text();

    /// The exit status (0–255), 128+signal for a signal death, or nullopt at the deadline.
    /// Stdout and stderr are drained meanwhile (stdout lines stay readable).
    std::optional<int> wait_exit(std::chrono::milliseconds timeout = 10s);
    bool running();
    void signal(int sig);

    /// Reads what is available on stdout/stderr, waiting at most `timeout` for something.
    void pump(std::chrono::milliseconds timeout);

private:
    bool reap(bool block);

    pid_t pid_ = -1;
    int in_ = -1;
    int out_ = -1;
    int err_ = -1;
    bool stdout_eof_ = false;
    bool stderr_eof_ = false;
    std::optional<int> status_;
    std::string out_buffer_;
    std::string err_text_;
};

/// A toolgate binary serving Streamable HTTP on 127.0.0.1 and a free port; the port is read
/// from the start-up banner on stderr ("serving MCP (Streamable HTTP) at http://…:PORT/mcp").
class http_server_process {
public:
    /// Starts `binary --transport http --host 127.0.0.1 --port 0 <args...>` and waits for the
    /// banner. Throws std::runtime_error (with the child's stderr) when none appears.
    http_server_process(
        std::string binary, std::vector<std::string> args = {}, spawn_options options = {});

    std::uint16_t port() const { return port_; }
    child_process& process() { return *process_; }

private:
    std::unique_ptr<child_process> process_;
    std::uint16_t port_ = 0;
};

} // namespace toolgate::testing
