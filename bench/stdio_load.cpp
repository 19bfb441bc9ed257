// The stdio load driver of `make bench` (issue 15 item 3): starts an MCP server as a child
// process, initializes it, then keeps `--window` requests in flight over its stdin/stdout
// pipes until `--count` answers have come back or `--seconds` have passed. One thread, one
// poll() loop and no JSON parsing (answers are counted by their newline), so that the driver
// costs far less per message than any server it drives. Prints one JSON line:
// {"requests":N,"seconds":S,"bytes":B}.
//
//   stdio_load --method tools/call --tool NAME --args '{"k":"v"}' --count 40000 --window 64
//              --seconds 20 -- SERVER ARGV...
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <string>
#include <string_view>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

struct options {
    std::string method = "tools/call";
    std::string tool;
    std::string args = "{}";
    std::size_t count = 1000;
    std::size_t window = 64;
    double seconds = 20;
    std::vector<char*> argv;
};

[[noreturn]] void fail(std::string const& message)
{
    std::fprintf(stderr, "stdio_load: %s\n", message.c_str());
    std::exit(2);
}

options parse(int argc, char** argv)
{
    options o;
    for (int i = 1; i < argc; ++i) {
        std::string_view const a = argv[i];
        if (a == "--") {
            for (int j = i + 1; j < argc; ++j) {
                o.argv.push_back(argv[j]);
            }
            break;
        }
        if (i + 1 >= argc) {
            fail(fmt::format("{} needs a value", a));
        }
        std::string const v = argv[++i];
        if (a == "--method") {
            o.method = v;
        } else if (a == "--tool") {
            o.tool = v;
        } else if (a == "--args") {
            o.args = v;
        } else if (a == "--count") {
            o.count = std::stoul(v);
        } else if (a == "--window") {
            o.window = std::stoul(v);
        } else if (a == "--seconds") {
            o.seconds = std::stod(v);
        } else {
            fail(fmt::format("unknown option {}", a));
        }
    }
    if (o.argv.empty()) {
        fail("no server command after --");
    }
    if (o.window == 0) {
        fail("--window must be at least 1");
    }
    o.argv.push_back(nullptr);
    return o;
}

struct child {
    pid_t pid = -1;
    int to = -1; ///< the server's stdin
    int from = -1; ///< the server's stdout
};

child spawn(std::vector<char*> const& argv)
{
    int in[2];
    int out[2];
    if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0) {
        fail(fmt::format("pipe: {}", std::strerror(errno)));
    }
    pid_t const pid = fork();
    if (pid < 0) {
        fail(fmt::format("fork: {}", std::strerror(errno)));
    }
    if (pid == 0) {
        dup2(in[0], STDIN_FILENO);
        dup2(out[1], STDOUT_FILENO);
        execvp(argv[0], argv.data());
        std::fprintf(stderr, "stdio_load: exec %s: %s\n", argv[0], std::strerror(errno));
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    return { pid, in[1], out[0] };
}

void write_all(int fd, std::string_view data)
{
    while (!data.empty()) {
        auto const n = write(fd, data.data(), data.size());
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            fail(fmt::format("write to the server: {}", std::strerror(errno)));
        }
        data.remove_prefix(static_cast<std::size_t>(n));
    }
}

/// Reads until one whole line has arrived (the initialize answer); returns it.
std::string read_line(int fd)
{
    std::string line;
    char c = 0;
    for (;;) {
        auto const n = read(fd, &c, 1);
        if (n <= 0) {
            fail("the server closed its stdout during initialize");
        }
        if (c == '\n') {
            return line;
        }
        line += c;
    }
}

std::string request(options const& o, std::size_t id)
{
    if (o.method == "tools/call") {
        return fmt::format(
            R"({{"jsonrpc":"2.0","id":{},"method":"tools/call","params":{{"name":"{}","arguments":{}}}}})"
            "\n",
            id, o.tool, o.args);
    }
    return fmt::format(R"({{"jsonrpc":"2.0","id":{},"method":"{}","params":{{}}}})"
                       "\n",
        id, o.method);
}

/// The requests, and how far the run has got with them.
struct progress {
    std::vector<std::string> lines;
    std::size_t sent = 0; ///< whole requests written
    std::size_t partial = 0; ///< bytes of lines[sent] written so far
    std::size_t done = 0; ///< answers counted
    std::size_t bytes = 0; ///< answer bytes read
    bool first_checked = false;
};

/// As many whole requests as the window allows, in one write where they fit.
void send_some(int fd, options const& o, progress& p)
{
    std::string batch;
    std::size_t const until = std::min(o.count, p.done + o.window);
    batch.append(p.lines[p.sent], p.partial, std::string::npos);
    for (std::size_t i = p.sent + 1; i < until; ++i) {
        batch += p.lines[i];
    }
    auto const n = write(fd, batch.data(), batch.size());
    if (n < 0 && errno != EAGAIN && errno != EINTR) {
        fail(fmt::format("write to the server: {}", std::strerror(errno)));
    }
    auto left = n > 0 ? static_cast<std::size_t>(n) : 0;
    while (left > 0) {
        auto const rest = p.lines[p.sent].size() - p.partial;
        if (left >= rest) {
            left -= rest;
            p.partial = 0;
            ++p.sent;
        } else {
            p.partial += left;
            left = 0;
        }
    }
}

/// Reads what the server has answered and counts the answers (one a line).
void receive_some(int fd, options const& o, progress& p, std::vector<char>& buffer)
{
    auto const n = read(fd, buffer.data(), buffer.size());
    if (n == 0) {
        fail("the server closed its stdout");
    }
    if (n < 0) {
        if (errno == EINTR || errno == EAGAIN) {
            return;
        }
        fail(fmt::format("read: {}", std::strerror(errno)));
    }
    std::string_view const got(buffer.data(), static_cast<std::size_t>(n));
    if (!p.first_checked) {
        // The first answer must be a result: a failing call would measure errors.
        if (got.substr(0, std::min<std::size_t>(got.size(), 300)).find("\"error\"")
            != std::string_view::npos) {
            fail(fmt::format("{} failed: {}", o.method, got.substr(0, 300)));
        }
        p.first_checked = true;
    }
    p.bytes += got.size();
    for (char ch : got) {
        p.done += ch == '\n' ? 1 : 0;
    }
}

} // namespace

int main(int argc, char** argv)
{
    auto const o = parse(argc, argv);
    std::signal(SIGPIPE, SIG_IGN);
    auto c = spawn(o.argv);
    write_all(c.to,
        R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",)"
        R"("capabilities":{},"clientInfo":{"name":"stdio_load","version":"1"}}})"
        "\n"
        R"({"jsonrpc":"2.0","method":"notifications/initialized"})"
        "\n");
    if (read_line(c.from).find("\"result\"") == std::string::npos) {
        fail("initialize failed");
    }
    // The requests are built before the clock starts: the driver's work is writing and
    // counting only.
    progress p;
    p.lines.reserve(o.count);
    for (std::size_t i = 0; i < o.count; ++i) {
        p.lines.push_back(request(o, i + 1));
    }
    fcntl(c.to, F_SETFL, fcntl(c.to, F_GETFL) | O_NONBLOCK);

    using clock = std::chrono::steady_clock;
    auto const start = clock::now();
    auto const deadline = start + std::chrono::duration<double>(o.seconds);
    std::vector<char> buffer(1 << 20);
    while (p.done < o.count && clock::now() < deadline) {
        bool const can_send = p.sent < o.count && p.sent - p.done < o.window;
        pollfd fds[2] = { { c.from, POLLIN, 0 }, { c.to, short(can_send ? POLLOUT : 0), 0 } };
        if (poll(fds, 2, 100) < 0) {
            if (errno == EINTR) {
                continue;
            }
            fail(fmt::format("poll: {}", std::strerror(errno)));
        }
        if ((fds[1].revents & POLLOUT) != 0) {
            send_some(c.to, o, p);
        }
        if ((fds[0].revents & (POLLIN | POLLHUP)) != 0) {
            receive_some(c.from, o, p, buffer);
        }
    }
    double const seconds = std::chrono::duration<double>(clock::now() - start).count();
    close(c.to); // EOF: the server exits
    close(c.from);
    int status = 0;
    waitpid(c.pid, &status, 0);
    std::printf("{\"requests\":%zu,\"seconds\":%.6f,\"bytes\":%zu}\n", p.done, seconds, p.bytes);
    return 0;
}
