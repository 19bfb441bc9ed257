// The catalogue's and the upstream's flags (see catalogue_options.hpp).
#include "app/catalogue_options.hpp"

#include "common/cli_options.hpp"

namespace toolgate::app {

void add_catalogue_options(CLI::App& app, catalogue_options& o)
{
    app.add_option("--toolkits", o.toolkits, "toolkits to serve, comma separated (default: all)")
        ->delimiter(',')
        ->envname("TOOLGATE_TOOLKITS");
    app.add_option(
           "--tools", o.tools, "tool name globs to serve, e.g. 'StoreApi.Get*' (repeatable)")
        ->delimiter(',')
        ->envname("TOOLGATE_TOOLS");
}

void add_upstream_options(CLI::App& app, upstream_options& o)
{
    app.add_option("--base-url", o.base_urls,
        "replace a toolkit's platform URL: Toolkit=https://host[:port][/prefix] "
        "(repeatable; env TOOLGATE_BASE_URL_<TOOLKIT>)");
    app.add_option("--ca-file", o.ca_file, "extra CA certificates (PEM) to trust upstream")
        ->envname("TOOLGATE_CA_FILE");
    common::add_seconds(app, "--connect-timeout", o.connect_timeout, "seconds to connect upstream");
    common::add_seconds(app, "--call-timeout", o.call_timeout, "seconds an upstream call may take");
    app.add_option("--max-response-bytes", o.max_response_bytes, "largest upstream answer");
    app.add_flag("--allow-insecure-upstream", o.allow_insecure,
        "allow plain http:// platform URLs (--base-url, VECTORDB_SERVER_URL) to hosts "
        "other than loopback; credentials then travel unencrypted");
    app.add_option("--client-host-allow", o.client_host_allow,
           "a host (glob, e.g. '*.freshservice.com' or 'vectordb.example.com') that a "
           "client's own secret may name (VECTORDB_SERVER_URL, DESK_SUBDOMAIN); repeatable; "
           "none: clients name no host")
        ->delimiter(',')
        ->envname("TOOLGATE_CLIENT_HOST_ALLOW");
    app.add_flag("--client-host-allow-private", o.client_host_allow_private,
        "hosts allowed by --client-host-allow may be, or resolve to, loopback, private or "
        "link-local addresses (an internal network's)");
}

transport::https_options https_options_of(upstream_options const& o)
{
    transport::https_options options;
    options.connect_timeout = o.connect_timeout;
    options.deadline = o.call_timeout;
    options.max_response_bytes = o.max_response_bytes;
    options.ca_file = o.ca_file;
    return options;
}

} // namespace toolgate::app
