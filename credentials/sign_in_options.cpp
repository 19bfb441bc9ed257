// The sign-in options (see sign_in_options.hpp).
#include "credentials/sign_in_options.hpp"

#include <CLI/App.hpp>
#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>

namespace toolgate::credentials {

void add_options(CLI::App& app, sign_in_options& options)
{
    app.add_option("--public-url", options.public_url,
           "the URL browsers reach this toolgate at, e.g. https://mcp.example.com: sign-in "
           "links from the conversation and the OAuth callback (<url>/oauth/callback) are made "
           "from it (default: the bound loopback address; stdio: a loopback port)")
        ->envname("TOOLGATE_PUBLIC_URL")
        ->check([](std::string const& url) {
            auto parsed = boost::urls::parse_absolute_uri(url);
            bool const web = parsed && (parsed->scheme() == "https" || parsed->scheme() == "http");
            return web && parsed->has_authority() && !parsed->has_query()
                ? std::string()
                : std::string("expected an absolute http(s) URL without a query");
        });
}

} // namespace toolgate::credentials
