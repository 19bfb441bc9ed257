// A tiny HTTP CONNECT proxy for tests, on 127.0.0.1 port 0 and its own thread: it records each
// CONNECT and pipes bytes both ways, so a client's HTTPS_PROXY support can be checked end to end.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace toolgate::test {

class fake_connect_proxy {
public:
    /// `refuse`: answer every CONNECT with 407 instead of opening a tunnel.
    explicit fake_connect_proxy(bool refuse = false);
    ~fake_connect_proxy();
    fake_connect_proxy(fake_connect_proxy const&) = delete;
    fake_connect_proxy& operator=(fake_connect_proxy const&) = delete;

    unsigned short port() const;
    /// "http://127.0.0.1:<port>", the form HTTPS_PROXY takes.
    std::string url() const;

    /// The authority of each CONNECT received ("127.0.0.1:4433"), in order.
    std::vector<std::string> connect_targets() const;
    /// The Proxy-Authorization value of each CONNECT ("" when absent), in order.
    std::vector<std::string> authorizations() const;

    struct impl;

private:
    std::unique_ptr<impl> impl_;
};

} // namespace toolgate::test
