// Sign-in from the conversation, put together for one server: the service that makes links
// and serves their pages (credentials/), the step the router runs around every call (mcp/),
// and over stdio the loopback listener the links point at. app/ builds one per transport.
#pragma once

#include "credentials/credential_hub.hpp"
#include "credentials/sign_in_loopback.hpp"
#include "credentials/sign_in_options.hpp"
#include "credentials/sign_in_service.hpp"
#include "mcp/sign_in_step.hpp"

#include <boost/asio/io_context.hpp>

#include <chrono>
#include <memory>
#include <mutex>
#include <string>

namespace toolgate::mcp {

class sign_in_setup {
public:
    /// HTTP: links on `public_url`, else on the loopback address set_bound() names; the
    /// callback is `/oauth/callback`. `shared_secret` (--session-key) keys the links, so
    /// replicas given the same one accept each other's. `call_timeout`: a 2026-07-28 retry
    /// waits for the sign-in a little less than it.
    static std::unique_ptr<sign_in_setup> for_http(credentials::credential_hub& hub,
        credentials::sign_in_options const& options, std::string const& shared_secret,
        std::chrono::seconds call_timeout);
    /// stdio: links on a loopback listener started with the first one; the callback is
    /// `/callback`, as `toolgate auth login` registers it.
    static std::unique_ptr<sign_in_setup> for_stdio(boost::asio::io_context& ioc,
        credentials::credential_hub& hub, credentials::sign_in_options const& options,
        std::chrono::seconds call_timeout);

    /// HTTP without --public-url: where the server listens. A loopback host makes the base
    /// URL; any other leaves sign-in off (browsers could not reach it), and says so.
    void set_bound(std::string const& host, std::uint16_t port);

    credentials::sign_in_service& service() { return *service_; }
    sign_in_step& step() { return *step_; }

private:
    sign_in_setup() = default;
    std::optional<std::string> base_url() const;

    mutable std::mutex mutex_;
    std::string base_; ///< guarded by mutex_ (HTTP)
    std::unique_ptr<credentials::sign_in_loopback> loopback_; ///< stdio
    std::unique_ptr<credentials::sign_in_service> service_;
    std::unique_ptr<sign_in_step> step_;
};

} // namespace toolgate::mcp
