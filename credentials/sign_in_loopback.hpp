// Over stdio there is no HTTP server for a sign-in link to point at: a loopback listener is
// started when the first link is made (as `toolgate auth login` starts one) and stopped once
// no link it served can still be used. It serves the sign-in pages and the `/callback` the
// platform returns to, and nothing else.
#pragma once

#include "credentials/sign_in_service.hpp"
#include "transport/http_listener.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace toolgate::credentials {

class sign_in_loopback final : public transport::http_handler {
public:
    /// `public_url` ("" : http://127.0.0.1:<any free port>) must be a loopback http URL; its
    /// port is the one listened on (a platform that wants the redirect URI registered exactly
    /// needs a fixed one). Throws std::invalid_argument for anything else.
    sign_in_loopback(boost::asio::io_context& ioc, std::string public_url);
    ~sign_in_loopback() override;

    /// The service whose pages this listener serves; set before the first link.
    void serve(sign_in_service& service) { service_ = &service; }
    /// Starts the listener unless it runs, and keeps it running for `keep_for` from now (a
    /// link's lifetime). False when it cannot listen (logged).
    bool ensure_started(std::chrono::seconds keep_for);
    /// The running listener's base URL; nullopt while it does not run.
    std::optional<std::string> base_url() const;
    bool is_running() const { return listener_ != nullptr; }

    boost::asio::awaitable<void> handle(
        transport::http_request request, transport::http_responder& out) override;

private:
    void stop_when_idle();

    boost::asio::io_context& ioc_;
    std::string host_ = "127.0.0.1";
    std::uint16_t port_ = 0;
    std::string public_url_;
    sign_in_service* service_ = nullptr;
    std::unique_ptr<transport::http_listener> listener_;
    boost::asio::steady_timer idle_;
    std::chrono::steady_clock::time_point keep_until_;
};

} // namespace toolgate::credentials
