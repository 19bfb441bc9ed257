// A fake platform for tests: an HTTPS (or HTTP) server on 127.0.0.1, port 0, on its own thread,
// with a certificate from the test CA. It records every request, counts connections and TLS
// handshakes, and answers from a script. Beast stays in fake_platform.cpp.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace toolgate::test {

using header_pairs = std::vector<std::pair<std::string, std::string>>;

/// One request as it reached the fake.
struct recorded_request {
    std::string method;
    std::string target; ///< path and query, as sent
    header_pairs headers;
    std::string body;
    std::size_t connection = 0; ///< 1-based number of the connection it came on

    /// First header with this name (case-insensitive), or "".
    std::string header(std::string_view name) const;
    bool has_header(std::string_view name) const;
    std::string path() const; ///< target up to '?'
    std::string query() const; ///< target after '?', or ""
};

/// What the fake does with a request.
enum class fake_action {
    respond, ///< send the response (after `delay`)
    reset, ///< abort the connection (TCP RST) without a byte of response
    close, ///< close the connection cleanly without a byte of response
    stall, ///< never answer; wait for the client to close the connection
};

/// A scripted answer.
struct fake_response {
    unsigned status = 200;
    header_pairs headers = { { "Content-Type", "application/json" } };
    std::string body = R"({"ok":true})";
    std::chrono::milliseconds delay { 0 };
    fake_action action = fake_action::respond;
    bool keep_alive = true; ///< false: `Connection: close`, then close
    /// > 0: keep the connection alive after answering, then close it after this long without
    /// a word, as a server's idle timeout does.
    std::chrono::milliseconds close_idle_after { 0 };
};

struct fake_platform_options {
    enum class certificate {
        valid, ///< SAN 127.0.0.1, ::1 and localhost, issued by test_ca::shared()
        wrong_host, ///< issued by the shared CA for `wrong.example.test` only
        unknown_ca, ///< valid names, issued by a CA no client trusts
    };
    certificate cert = certificate::valid;
    bool tls = true; ///< false: plain HTTP
};

/// Runs from construction to destruction. Every accessor is thread-safe; the handler runs on
/// the fake's own thread.
class fake_platform {
public:
    using handler = std::function<fake_response(recorded_request const&)>;

    explicit fake_platform(fake_platform_options options = {});
    ~fake_platform();
    fake_platform(fake_platform const&) = delete;
    fake_platform& operator=(fake_platform const&) = delete;

    unsigned short port() const;
    /// "https://<host>:<port><path_and_query>".
    std::string url(
        std::string_view path_and_query = "/", std::string_view host = "127.0.0.1") const;
    /// PEM file of the CA that issued the valid and wrong_host certificates.
    static std::string const& ca_file();

    /// Queues an answer; queued answers are used first, in order, then the handler.
    void push(fake_response response);
    /// Answers requests once the queue is empty (default: 200 `{"ok":true}`).
    void set_handler(handler h);

    std::vector<recorded_request> requests() const;
    std::size_t request_count() const;
    std::size_t connections_accepted() const;
    std::size_t tls_handshakes() const; ///< completed server-side handshakes
    std::size_t connections_closed() const; ///< connections that have ended, for any reason
    std::size_t max_concurrent_requests() const; ///< most requests in progress at one time

    /// Waits (bounded, on a condition variable woken at every request, connection and close)
    /// until `ready` holds; `ready` may call any accessor. Returns its last value.
    bool wait_until(std::function<bool(fake_platform const&)> const& ready,
        std::chrono::milliseconds timeout) const;

    struct impl;

private:
    std::unique_ptr<impl> impl_;
};

} // namespace toolgate::test
