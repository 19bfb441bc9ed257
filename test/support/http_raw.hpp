// A tiny blocking HTTP/1.1 client over loopback sockets for integration tests: it sends
// exactly the bytes a test wants (raw requests, half requests, stalls) and reads a whole
// response (status, lower-cased headers, body; chunked bodies de-chunked). No Beast, so the
// server's parser is tested against an independent implementation.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace toolgate::testing {

using header_pairs = std::vector<std::pair<std::string, std::string>>;

struct http_response {
    int status = 0; ///< 0 when no response arrived (closed, timed out)
    std::string reason;
    header_pairs headers; ///< names lower-cased, in order
    std::string body; ///< de-chunked; SSE bodies are the raw event text
    bool chunked = false;
    bool closed = false; ///< the server closed the connection after this response

    /// The first header with this lower-case name, or nullptr.
    std::string const* header(std::string_view lower_name) const;
    bool has_header(std::string_view lower_name) const { return header(lower_name) != nullptr; }
};

/// One open TCP connection to 127.0.0.1:port.
class http_connection {
public:
    explicit http_connection(std::uint16_t port);
    ~http_connection();
    http_connection(http_connection const&) = delete;
    http_connection& operator=(http_connection const&) = delete;

    /// Sends bytes as they are. False when the peer has closed.
    bool send(std::string_view bytes);
    /// Reads one response; status 0 when the connection closed or `timeout` passed first.
    http_response read_response(
        std::chrono::milliseconds timeout = std::chrono::seconds(10), bool head_request = false);
    /// True when the server closes the connection (EOF or reset) within `timeout`.
    bool wait_closed(std::chrono::milliseconds timeout);
    /// Reads at least until `needle` appears in the raw bytes received (or the deadline).
    /// Returns everything read so far; the bytes stay buffered for read_response.
    std::string const& read_until(std::string_view needle, std::chrono::milliseconds timeout);
    void close();
    int fd() const { return fd_; }

private:
    bool fill(std::chrono::steady_clock::time_point deadline);

    int fd_ = -1;
    std::string buffer_;
    bool eof_ = false;
};

/// `METHOD path HTTP/1.1` with `headers` and `body`. Adds `Host: 127.0.0.1:port` unless a
/// Host header is given, and Content-Length when there is a body or the method is POST, unless
/// one is given. An empty Host or Content-Length value leaves that header out.
std::string make_request(std::uint16_t port, std::string_view method, std::string_view path,
    header_pairs const& headers, std::string_view body);

/// Connects, sends one request with `Connection: close`, reads the response.
http_response http_request(std::uint16_t port, std::string_view method, std::string_view path,
    header_pairs const& headers = {}, std::string_view body = {},
    std::chrono::milliseconds timeout = std::chrono::seconds(10));

/// The `data:` payloads of an SSE body, one string per event (multi-line data joined by \n).
std::vector<std::string> sse_data(std::string_view body);

} // namespace toolgate::testing
