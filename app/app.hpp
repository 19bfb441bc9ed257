// Process wiring: builds the protocol objects over a tool provider and runs the chosen
// transport until EOF or a signal.
#pragma once

#include "app/config.hpp"
#include "discovery/search_index.hpp"
#include "toolkits/tool_provider.hpp"

#include <boost/asio/io_context.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace toolgate::transport {
class https_client;
}
namespace toolgate::credentials {
class credential_hub;
}
namespace toolgate::toolkits {
class upstream_pacer;
}
namespace toolgate::state {
class redis_client;
}

namespace toolgate::app {

/// What the process serves; built after the configuration is known.
struct service {
    /// What the provider relies on (clients, credentials, executors); declared first so it
    /// is destroyed after the provider.
    std::vector<std::shared_ptr<void>> owned;
    std::unique_ptr<toolkits::tool_provider> provider;
    std::string summary; ///< one line for the start-up banner (toolkits, tools, secrets)
    /// The provider's tools as the search meta-tool reads them (catalogue texts), gathered on
    /// the index's thread; empty: their descriptors' names and descriptions.
    discovery::search_texts search_texts;
    /// For the instructions: which secrets the served toolkits need (names only).
    std::string credentials_note;
    /// The outbound client (owned through `owned`), for its metrics; null when there is none.
    transport::https_client* upstream = nullptr;
    /// Pacing toward the platforms (owned through `owned`), for its metrics; null: none.
    toolkits::upstream_pacer* pacer = nullptr;
    /// Where calls' platform credentials come from (per request over HTTP; reloaded on
    /// SIGHUP); null for services without platform credentials (the test twin).
    std::shared_ptr<credentials::credential_hub> credentials;
    /// The state shared by replicas (--state-store); null: this machine only.
    std::shared_ptr<state::redis_client> store;
};

using service_factory = std::function<service(config const&, boost::asio::io_context&)>;

/// main() for toolgate and its test twin: parses flags, sets up logging, builds the service
/// and serves it. Returns the process exit status.
int run_main(int argc, char** argv, service_factory const& make_service);

/// Serves MCP over stdin/stdout until stdin closes or a signal arrives.
int serve_stdio(config const& cfg, boost::asio::io_context& ioc, service& svc);
/// Serves Streamable HTTP until a signal arrives.
int serve_http(config const& cfg, boost::asio::io_context& ioc, service& svc);

std::string const& toolgate_version();

} // namespace toolgate::app
