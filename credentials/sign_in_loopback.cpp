// stdio's sign-in listener (see sign_in_loopback.hpp). Bound to 127.0.0.1 only (RFC 8252
// §7.3), Host checked against loopback names (DNS rebinding), a browser Origin only our own.
#include "credentials/sign_in_loopback.hpp"

#include "transport/origin_policy.hpp"

#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <stdexcept>

namespace toolgate::credentials {
namespace urls = boost::urls;

sign_in_loopback::sign_in_loopback(boost::asio::io_context& ioc, std::string public_url)
    : ioc_(ioc)
    , public_url_(std::move(public_url))
    , idle_(ioc)
{
    while (!public_url_.empty() && public_url_.back() == '/') {
        public_url_.pop_back();
    }
    if (public_url_.empty()) {
        return;
    }
    auto parsed = urls::parse_absolute_uri(public_url_);
    if (!parsed || parsed->scheme() != "http" || !parsed->has_port()
        || !transport::origin_policy::is_loopback_host(parsed->encoded_host_and_port())) {
        throw std::invalid_argument(fmt::format(
            "--public-url {}: over stdio the sign-in pages are served on this machine only; give "
            "http://127.0.0.1:<port> or http://localhost:<port>",
            public_url_));
    }
    port_ = parsed->port_number();
}

sign_in_loopback::~sign_in_loopback()
{
    if (listener_) {
        listener_->stop();
    }
}

bool sign_in_loopback::ensure_started(std::chrono::seconds keep_for)
{
    keep_until_ = std::max(keep_until_, std::chrono::steady_clock::now() + keep_for);
    if (!listener_) {
        transport::http_limits limits;
        limits.max_connections = 16;
        limits.max_body_bytes = 16 * 1024;
        try {
            listener_
                = std::make_unique<transport::http_listener>(ioc_, host_, port_, *this, limits);
        } catch (std::exception const& e) {
            spdlog::error("sign-in: cannot listen for the sign-in page: {}", e.what());
            return false;
        }
        listener_->start();
        spdlog::info("sign-in: serving the sign-in page on 127.0.0.1:{}", listener_->port());
        stop_when_idle();
    }
    return true;
}

std::optional<std::string> sign_in_loopback::base_url() const
{
    if (!listener_) {
        return std::nullopt;
    }
    if (!public_url_.empty()) {
        return public_url_;
    }
    return fmt::format("http://127.0.0.1:{}", listener_->port());
}

void sign_in_loopback::stop_when_idle()
{
    idle_.expires_at(keep_until_ + std::chrono::seconds(5));
    idle_.async_wait([this](boost::system::error_code ec) {
        if (ec || !listener_) {
            return;
        }
        if (std::chrono::steady_clock::now() < keep_until_) {
            stop_when_idle(); // a newer link extended it
            return;
        }
        spdlog::info("sign-in: no sign-in link is still valid; the sign-in page stops");
        listener_->stop();
        listener_.reset();
    });
}

boost::asio::awaitable<void> sign_in_loopback::handle(
    transport::http_request request, transport::http_responder& out)
{
    auto const* host = request.header("host");
    auto const* origin = request.header("origin");
    bool const door = (host == nullptr || transport::origin_policy::is_loopback_host(*host))
        && (origin == nullptr || (service_ && service_->is_own_origin(origin))
            || transport::origin_policy().allows_origin(origin));
    web_page page;
    if (!door) {
        page = problem_page(403, "Not allowed", "This page answers this machine only.");
    } else if (service_ == nullptr || !service_->is_own(request.path)) {
        page = problem_page(404, "Not found", "Nothing is waiting here.");
    } else {
        page = co_await service_->serve(std::move(request));
    }
    co_await out.respond(page.status, std::move(page.headers), std::move(page.body));
}

} // namespace toolgate::credentials
