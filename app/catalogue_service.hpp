// Builds what the shipped binary serves: the compiled-in catalogue (narrowed by --toolkits /
// --tools), its executor over the HTTPS client, and the one-shot listing commands.
#pragma once

#include "app/app.hpp"

namespace toolgate::app {

/// The service factory of `toolgate`. For --list-toolkits / --list-tools it prints the
/// listing to stdout and returns a service without a provider (the process then exits 0).
service make_catalogue_service(config const& cfg, boost::asio::io_context& ioc);

} // namespace toolgate::app
