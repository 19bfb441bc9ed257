// Wiring of sign-in from the conversation (see sign_in_setup.hpp).
#include "mcp/sign_in_setup.hpp"

#include "transport/keyed_seal.hpp"
#include "transport/origin_policy.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace toolgate::mcp {

namespace {

std::chrono::milliseconds retry_wait_for(std::chrono::seconds call_timeout)
{
    // Answer before the client's own request timeout (55 s by default, below the TypeScript
    // SDK's 60 s), leaving time for the call itself.
    return std::chrono::duration_cast<std::chrono::milliseconds>(
        call_timeout - std::min<std::chrono::seconds>(std::chrono::seconds(5), call_timeout / 2));
}

std::unique_ptr<credentials::sign_in_links> links_for(std::string const& shared_secret)
{
    return std::make_unique<credentials::sign_in_links>(
        transport::key_for(shared_secret, "toolgate/sign-in-link/v1"));
}

std::string without_trailing_slash(std::string url)
{
    while (!url.empty() && url.back() == '/') {
        url.pop_back();
    }
    return url;
}

} // namespace

std::unique_ptr<sign_in_setup> sign_in_setup::for_http(credentials::credential_hub& hub,
    credentials::sign_in_options const& options, std::string const& shared_secret,
    std::chrono::seconds call_timeout)
{
    std::unique_ptr<sign_in_setup> out(new sign_in_setup());
    out->base_ = without_trailing_slash(options.public_url);
    auto* self = out.get();
    out->service_ = std::make_unique<credentials::sign_in_service>(
        links_for(shared_secret), hub.tokens(), hub.server_secrets(),
        [self] { return self->base_url(); }, "/oauth/callback");
    out->step_ = std::make_unique<sign_in_step>(*out->service_, retry_wait_for(call_timeout));
    return out;
}

std::unique_ptr<sign_in_setup> sign_in_setup::for_stdio(boost::asio::io_context& ioc,
    credentials::credential_hub& hub, credentials::sign_in_options const& options,
    std::chrono::seconds call_timeout)
{
    std::unique_ptr<sign_in_setup> out(new sign_in_setup());
    out->loopback_ = std::make_unique<credentials::sign_in_loopback>(ioc, options.public_url);
    auto* loopback = out->loopback_.get();
    // One process, one key: a random one.
    auto links = links_for({});
    auto const keep = links->lifetime();
    out->service_ = std::make_unique<credentials::sign_in_service>(
        std::move(links), hub.tokens(), hub.server_secrets(),
        [loopback] { return loopback->base_url(); }, "/callback",
        [loopback, keep] { return loopback->ensure_started(keep); });
    loopback->serve(*out->service_);
    out->step_ = std::make_unique<sign_in_step>(*out->service_, retry_wait_for(call_timeout));
    return out;
}

void sign_in_setup::set_bound(std::string const& host, std::uint16_t port)
{
    std::lock_guard lock(mutex_);
    if (!base_.empty() || loopback_) {
        return;
    }
    auto const named = host.find(':') != std::string::npos ? "[" + host + "]" : host;
    auto const authority = fmt::format("{}:{}", named, port);
    if (!transport::origin_policy::is_loopback_host(authority)) {
        spdlog::warn("sign-in from the conversation is off: --host {} is not a loopback "
                     "address, so give the URL browsers reach this server at with --public-url",
            host);
        return;
    }
    base_ = "http://" + authority;
}

std::optional<std::string> sign_in_setup::base_url() const
{
    std::lock_guard lock(mutex_);
    if (base_.empty()) {
        return std::nullopt;
    }
    return base_;
}

} // namespace toolgate::mcp
