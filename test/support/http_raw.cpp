// Blocking sockets with poll() deadlines.
#include "http_raw.hpp"

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdexcept>
#include <sys/socket.h>
#include <unistd.h>

namespace toolgate::testing {

namespace {

using clock = std::chrono::steady_clock;

std::string lower(std::string_view text)
{
    std::string out(text);
    for (auto& c : out) {
        if (c >= 'A' && c <= 'Z') {
            c = static_cast<char>(c - 'A' + 'a');
        }
    }
    return out;
}

std::string_view trim(std::string_view v)
{
    while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) {
        v.remove_prefix(1);
    }
    while (!v.empty() && (v.back() == ' ' || v.back() == '\t' || v.back() == '\r')) {
        v.remove_suffix(1);
    }
    return v;
}

} // namespace

std::string const* http_response::header(std::string_view lower_name) const
{
    for (auto const& [name, value] : headers) {
        if (name == lower_name) {
            return &value;
        }
    }
    return nullptr;
}

http_connection::http_connection(std::uint16_t port)
{
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd_ < 0) {
        throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
    }
    int one = 1;
    ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    sockaddr_in addr {};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        auto const error = errno;
        ::close(fd_);
        fd_ = -1;
        throw std::runtime_error(
            "connect 127.0.0.1:" + std::to_string(port) + ": " + std::strerror(error));
    }
}

http_connection::~http_connection()
{
    close();
}

void http_connection::close()
{
    if (fd_ >= 0) {
        ::close(fd_);
        fd_ = -1;
    }
}

bool http_connection::send(std::string_view bytes)
{
    while (!bytes.empty()) {
        auto const n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
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

bool http_connection::fill(clock::time_point deadline)
{
    if (eof_) {
        return false;
    }
    auto const wait
        = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now());
    if (wait.count() <= 0) {
        return false;
    }
    pollfd p { fd_, POLLIN, 0 };
    int const ready = ::poll(&p, 1, static_cast<int>(wait.count()));
    if (ready <= 0) {
        return false;
    }
    char chunk[16384];
    auto const n = ::recv(fd_, chunk, sizeof chunk, 0);
    if (n <= 0) {
        eof_ = true; // orderly close or reset
        return false;
    }
    buffer_.append(chunk, static_cast<std::size_t>(n));
    return true;
}

std::string const& http_connection::read_until(
    std::string_view needle, std::chrono::milliseconds timeout)
{
    auto const deadline = clock::now() + timeout;
    while (buffer_.find(needle) == std::string::npos && fill(deadline)) { }
    return buffer_;
}

bool http_connection::wait_closed(std::chrono::milliseconds timeout)
{
    auto const deadline = clock::now() + timeout;
    while (!eof_ && clock::now() < deadline) {
        fill(deadline);
    }
    return eof_;
}

http_response http_connection::read_response(std::chrono::milliseconds timeout, bool head_request)
{
    auto const deadline = clock::now() + timeout;
    http_response out;
    std::size_t end;
    while ((end = buffer_.find("\r\n\r\n")) == std::string::npos) {
        if (!fill(deadline)) {
            out.closed = eof_;
            return out;
        }
    }
    std::string_view head(buffer_.data(), end);
    auto const line_end = head.find("\r\n");
    std::string_view status_line = head.substr(0, line_end);
    // HTTP/1.1 200 OK
    auto const sp1 = status_line.find(' ');
    auto const sp2 = status_line.find(' ', sp1 + 1);
    out.status = std::stoi(std::string(status_line.substr(sp1 + 1, sp2 - sp1 - 1)));
    out.reason = sp2 == std::string_view::npos ? "" : std::string(status_line.substr(sp2 + 1));
    std::string_view rest = line_end == std::string_view::npos ? "" : head.substr(line_end + 2);
    while (!rest.empty()) {
        auto const nl = rest.find("\r\n");
        auto line = rest.substr(0, nl);
        auto const colon = line.find(':');
        if (colon != std::string_view::npos) {
            out.headers.emplace_back(
                lower(line.substr(0, colon)), std::string(trim(line.substr(colon + 1))));
        }
        if (nl == std::string_view::npos) {
            break;
        }
        rest.remove_prefix(nl + 2);
    }
    buffer_.erase(0, end + 4);

    auto const* encoding = out.header("transfer-encoding");
    auto const* length = out.header("content-length");
    auto const* connection = out.header("connection");
    bool const no_body = head_request || out.status == 204 || out.status == 304
        || (out.status >= 100 && out.status < 200);
    if (no_body) {
        // nothing
    } else if (encoding && lower(*encoding).find("chunked") != std::string::npos) {
        out.chunked = true;
        for (;;) {
            std::size_t nl;
            while ((nl = buffer_.find("\r\n")) == std::string::npos) {
                if (!fill(deadline)) {
                    out.status = 0; // incomplete
                    return out;
                }
            }
            auto const size = std::stoul(buffer_.substr(0, nl), nullptr, 16);
            while (buffer_.size() < nl + 2 + size + 2) {
                if (!fill(deadline)) {
                    out.status = 0;
                    return out;
                }
            }
            out.body.append(buffer_, nl + 2, size);
            buffer_.erase(0, nl + 2 + size + 2);
            if (size == 0) {
                break; // (no trailers expected from toolgate)
            }
        }
    } else if (length) {
        auto const size = std::stoul(*length);
        while (buffer_.size() < size) {
            if (!fill(deadline)) {
                out.status = 0;
                return out;
            }
        }
        out.body = buffer_.substr(0, size);
        buffer_.erase(0, size);
    } else {
        while (fill(deadline)) { }
        out.body = std::move(buffer_);
        buffer_.clear();
    }
    out.closed = eof_ || (connection && lower(*connection) == "close");
    return out;
}

std::string make_request(std::uint16_t port, std::string_view method, std::string_view path,
    header_pairs const& headers, std::string_view body)
{
    std::string out;
    out.append(method).append(" ").append(path).append(" HTTP/1.1\r\n");
    bool has_host = false;
    bool has_length = false;
    for (auto const& [name, value] : headers) {
        auto const l = lower(name);
        if (l == "host") {
            has_host = true;
            if (value.empty()) {
                continue; // a request without Host
            }
        }
        if (l == "content-length") {
            has_length = true;
            if (value.empty()) {
                continue; // a request without Content-Length (e.g. chunked)
            }
        }
        out.append(name).append(": ").append(value).append("\r\n");
    }
    if (!has_host) {
        out.append("Host: 127.0.0.1:").append(std::to_string(port)).append("\r\n");
    }
    if (!has_length && (!body.empty() || method == "POST")) {
        out.append("Content-Length: ").append(std::to_string(body.size())).append("\r\n");
    }
    out.append("\r\n");
    out.append(body);
    return out;
}

http_response http_request(std::uint16_t port, std::string_view method, std::string_view path,
    header_pairs const& headers, std::string_view body, std::chrono::milliseconds timeout)
{
    http_connection connection(port);
    header_pairs all = headers;
    all.emplace_back("Connection", "close");
    connection.send(make_request(port, method, path, all, body));
    return connection.read_response(timeout, method == "HEAD");
}

std::vector<std::string> sse_data(std::string_view body)
{
    std::vector<std::string> events;
    std::string current;
    bool has_data = false;
    auto flush = [&] {
        if (has_data) {
            events.push_back(current);
        }
        current.clear();
        has_data = false;
    };
    while (!body.empty()) {
        auto const nl = body.find('\n');
        auto line = body.substr(0, nl);
        if (!line.empty() && line.back() == '\r') {
            line.remove_suffix(1);
        }
        if (line.empty()) {
            flush();
        } else if (line.starts_with("data:")) {
            auto value = line.substr(5);
            if (value.starts_with(' ')) {
                value.remove_prefix(1);
            }
            if (has_data) {
                current += '\n';
            }
            current.append(value);
            has_data = true;
        }
        if (nl == std::string_view::npos) {
            break;
        }
        body.remove_prefix(nl + 1);
    }
    flush();
    return events;
}

} // namespace toolgate::testing
