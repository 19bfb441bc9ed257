// `toolgate auth ...` as a process against the fake authorization server: the login flow
// driven the way a browser would (open the printed URL, follow its redirect to the loopback
// callback), status, tenants, logout and the client-credentials grant. Nothing printed may
// carry a token or the client secret.
#include "credentials/token_store.hpp"
#include "credentials_support.hpp"
#include "http_raw.hpp"
#include "process.hpp"
#include "support/fake_auth_server.hpp"
#include "transport/https_client.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>
#include <catch2/catch.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

using namespace toolgate::testing;
using toolgate::credentials::token_file;
using toolgate::test::fake_auth_options;
using toolgate::test::fake_auth_server;

namespace {

std::string const toolgate_bin = TOOLGATE_BIN;

/// The environment that points a toolkit's sign-in at the fake.
spawn_options fake_environment(
    fake_auth_server const& auth, std::string const& kit, fake_auth_options const& o)
{
    auto const upper = kit == "StoreApi" ? std::string("STOREAPI") : std::string("LEDGERAPI");
    auto const prefix = kit == "StoreApi" ? std::string("STORE") : std::string("LEDGER");
    spawn_options s;
    s.env = { "TOOLGATE_OAUTH_AUTHORIZE_URL_" + upper + "=" + auth.url("/authorize"),
        "TOOLGATE_OAUTH_TOKEN_URL_" + upper + "=" + auth.url("/token"),
        "TOOLGATE_OAUTH_TENANTS_URL_" + upper + "=" + auth.url("/connections"),
        prefix + "_CLIENT_ID=" + o.client_id, prefix + "_CLIENT_SECRET=" + o.client_secret,
        "BROWSER=", "DISPLAY=", "WAYLAND_DISPLAY=" };
    return s;
}

std::vector<std::string> common_args(temp_dir const& dir)
{
    return { "--token-store", dir.file("tokens.json"), "--ca-file",
        toolgate::test::fake_platform::ca_file() };
}

/// GET over HTTPS with the test CA, as the browser's first step; redirects come back as is.
toolgate::transport::outbound_result browse(std::string const& url)
{
    boost::asio::io_context io;
    toolgate::transport::https_options o;
    o.ca_file = toolgate::test::fake_platform::ca_file();
    o.proxy_from_environment = false;
    toolgate::transport::https_client client(io, o);
    toolgate::transport::outbound_request request;
    request.method = "GET";
    request.url = url;
    std::optional<toolgate::transport::outbound_result> result;
    boost::asio::co_spawn(io, client.send(request),
        [&](std::exception_ptr, toolgate::transport::outbound_result r) { result = std::move(r); });
    io.run_for(std::chrono::seconds(10));
    REQUIRE(result.has_value());
    return std::move(*result);
}

/// Reads the login's stdout until the URL to open; returns it.
std::string printed_url(child_process& login)
{
    for (int i = 0; i < 20; ++i) {
        auto line = login.read_line(std::chrono::seconds(10));
        INFO("stderr: " << login.stderr_text());
        REQUIRE(line.has_value());
        if (line->starts_with("  https://")) {
            return line->substr(2);
        }
    }
    FAIL("no URL printed");
    return {};
}

/// The browser's second step: follow the redirect to the loopback callback.
http_response follow(std::string const& location)
{
    auto parsed = boost::urls::parse_absolute_uri(location);
    REQUIRE(parsed);
    CHECK(parsed->scheme() == "http");
    CHECK(parsed->host() == "127.0.0.1");
    auto const port = static_cast<std::uint16_t>(std::stoi(std::string(parsed->port())));
    std::string target(parsed->encoded_path());
    target += "?" + std::string(parsed->encoded_query());
    return http_request(port, "GET", target);
}

std::string everything_printed(child_process& p)
{
    std::string out;
    while (auto line = p.read_line(std::chrono::milliseconds(100))) {
        out += *line + "\n";
    }
    return out + p.stdout_partial() + p.stderr_text();
}

void check_no_secret(
    std::string const& text, fake_auth_server const& auth, fake_auth_options const& o)
{
    INFO(text);
    CHECK(text.find(o.client_secret) == std::string::npos);
    for (auto const& t : auth.access_tokens()) {
        CHECK(text.find(t) == std::string::npos);
    }
    for (auto const& t : auth.refresh_tokens()) {
        CHECK(text.find(t) == std::string::npos);
    }
    CHECK(text.find("S3CR3T") == std::string::npos);
}

} // namespace

TEST_CASE("auth login: the browser's redirect reaches the loopback callback and tokens are "
          "stored privately",
    "[auth][oauth-cli]")
{
    fake_auth_options o;
    fake_auth_server auth(o);
    temp_dir dir;
    auto args = common_args(dir);
    args.insert(args.begin(), { "auth", "login", "StoreApi", "--no-browser" });
    child_process login(toolgate_bin, args, fake_environment(auth, "StoreApi", o));

    auto const url = printed_url(login);
    auto parsed = boost::urls::parse_absolute_uri(url);
    REQUIRE(parsed);
    auto const params = parsed->params();
    CHECK((*params.find("response_type")).value == "code");
    CHECK((*params.find("code_challenge_method")).value == "S256");
    CHECK((*params.find("client_id")).value == o.client_id);
    CHECK(std::string((*params.find("redirect_uri")).value).starts_with("http://127.0.0.1:"));
    CHECK(url.find("client_secret") == std::string::npos);

    SECTION("a callback with another state is turned away and the login keeps waiting")
    {
        auto redirect = browse(url);
        REQUIRE(redirect.response.status == 302);
        auto location = redirect.response.header("Location");
        auto const state_at = location.find("state=");
        REQUIRE(state_at != std::string::npos);
        auto forged = location.substr(0, state_at) + "state=forged";
        CHECK(follow(forged).status == 400);
        CHECK(follow(location).status == 200);
    }
    SECTION("the callback completes the sign-in")
    {
        auto redirect = browse(url);
        REQUIRE(redirect.response.status == 302);
        auto const page = follow(redirect.response.header("Location"));
        CHECK(page.status == 200);
        CHECK(page.body.find("signed in") != std::string::npos);
    }
    auto const status = login.wait_exit(std::chrono::seconds(10));
    auto const printed = everything_printed(login);
    INFO(printed);
    REQUIRE(status == 0);
    CHECK(printed.find("Signed in to StoreApi") != std::string::npos);
    check_no_secret(printed, auth, o);

    CHECK(file_mode(dir.file("tokens.json")) == 0600);
    auto const stored = token_file(dir.file("tokens.json")).load();
    REQUIRE(stored.contains("StoreApi"));
    CHECK(stored.at("StoreApi").grant == "authorization_code");
    CHECK(stored.at("StoreApi").access_token == auth.access_tokens().back());
    CHECK(stored.at("StoreApi").refresh_token == auth.refresh_tokens().back());
    CHECK(auth.token_requests("authorization_code") == 1);
    // The code was exchanged with the PKCE verifier and the client secret in the form.
    auto const requests = auth.platform().requests();
    auto const& exchange = requests.back();
    CHECK(exchange.body.find("code_verifier=") != std::string::npos);
    CHECK(exchange.body.find("client_secret=") != std::string::npos);
}

TEST_CASE("auth login for the accounting platform lists the organisations it reaches",
    "[auth][oauth-cli]")
{
    fake_auth_options o;
    o.basic_auth = true;
    fake_auth_server auth(o);
    auth.set_tenants({ { "zq-tenant-a", "Alpha Books" }, { "zq-tenant-b", "Beta Books" } });
    temp_dir dir;
    auto args = common_args(dir);
    args.insert(args.begin(), { "auth", "login", "LedgerApi", "--no-browser" });
    child_process login(toolgate_bin, args, fake_environment(auth, "LedgerApi", o));
    auto const url = printed_url(login);
    // The catalogue's scopes and offline_access (for a refresh token) are asked for.
    auto parsed = boost::urls::parse_absolute_uri(url);
    std::string const scope((*parsed->params().find("scope")).value);
    CHECK(scope.find("offline_access") != std::string::npos);
    CHECK(scope.find("accounting.transactions") != std::string::npos);
    auto redirect = browse(url);
    REQUIRE(redirect.response.status == 302);
    CHECK(follow(redirect.response.header("Location")).status == 200);
    REQUIRE(login.wait_exit(std::chrono::seconds(10)) == 0);
    auto const printed = everything_printed(login);
    INFO(printed);
    CHECK(printed.find("zq-tenant-a  Alpha Books") != std::string::npos);
    CHECK(printed.find("zq-tenant-b  Beta Books") != std::string::npos);
    CHECK(printed.find("tenant_identifier") != std::string::npos);
    check_no_secret(printed, auth, o);
    // Basic client authentication at the token endpoint.
    auto const requests = auth.platform().requests();
    bool basic = false;
    for (auto const& r : requests) {
        basic = basic || (r.path() == "/token" && r.header("Authorization").starts_with("Basic "));
    }
    CHECK(basic);

    // tenants, status and logout on the stored sign-in.
    auto tenant_args = common_args(dir);
    tenant_args.insert(tenant_args.begin(), { "auth", "tenants", "LedgerApi" });
    child_process tenants(toolgate_bin, tenant_args, fake_environment(auth, "LedgerApi", o));
    REQUIRE(tenants.wait_exit(std::chrono::seconds(10)) == 0);
    auto const listed = everything_printed(tenants);
    CHECK(listed.find("zq-tenant-b  Beta Books") != std::string::npos);

    auto status_args = common_args(dir);
    status_args.insert(status_args.begin(), { "auth", "status" });
    child_process status(toolgate_bin, status_args, fake_environment(auth, "LedgerApi", o));
    REQUIRE(status.wait_exit(std::chrono::seconds(10)) == 0);
    auto const shown = everything_printed(status);
    INFO(shown);
    CHECK(shown.find("LedgerApi: LEDGER_ACCESS_TOKEN not set; signed in (authorization_code): "
                     "access token expires in ")
        != std::string::npos);
    CHECK(shown.find(" min, refresh token kept; LEDGER_CLIENT_ID from the environment")
        != std::string::npos);
    CHECK(shown.find("StoreApi: STORE_ACCESS_TOKEN not set; not signed in") != std::string::npos);
    check_no_secret(shown, auth, o);

    auto logout_args = common_args(dir);
    logout_args.insert(logout_args.begin(), { "auth", "logout", "LedgerApi" });
    child_process logout(toolgate_bin, logout_args, fake_environment(auth, "LedgerApi", o));
    REQUIRE(logout.wait_exit(std::chrono::seconds(10)) == 0);
    CHECK(token_file(dir.file("tokens.json")).load().empty());
}

TEST_CASE("auth login: a refused authorization saves nothing", "[auth][oauth-cli]")
{
    fake_auth_options o;
    fake_auth_server auth(o);
    temp_dir dir;
    auto env = fake_environment(auth, "StoreApi", o);
    for (auto& entry : env.env) {
        if (entry.starts_with("STORE_CLIENT_ID=")) {
            entry = "STORE_CLIENT_ID=zq-some-other-client"; // the fake refuses it
        }
    }
    auto args = common_args(dir);
    args.insert(args.begin(), { "auth", "login", "StoreApi", "--no-browser" });
    child_process login(toolgate_bin, args, env);
    auto redirect = browse(printed_url(login));
    REQUIRE(redirect.response.status == 302);
    CHECK(redirect.response.header("Location").find("error=unauthorized_client")
        != std::string::npos);
    CHECK(follow(redirect.response.header("Location")).status == 200);
    CHECK(login.wait_exit(std::chrono::seconds(10)) == 1);
    CHECK(everything_printed(login).find("refused: unauthorized_client") != std::string::npos);
    CHECK(token_file(dir.file("tokens.json")).load().empty());
}

TEST_CASE("auth client-credentials stores a token for the subject it acts for", "[auth][oauth-cli]")
{
    fake_auth_options o;
    o.subject_required = true;
    fake_auth_server auth(o);
    temp_dir dir;
    auto args = common_args(dir);
    args.insert(args.begin(), { "auth", "client-credentials", "StoreApi" });
    {
        child_process missing(toolgate_bin, args, fake_environment(auth, "StoreApi", o));
        CHECK(missing.wait_exit(std::chrono::seconds(10)) == 2); // needs --subject-id
        CHECK(missing.stderr_text().find("--subject-id") != std::string::npos);
    }
    args.insert(args.end(), { "--subject-id", "4242" });
    child_process grant(toolgate_bin, args, fake_environment(auth, "StoreApi", o));
    REQUIRE(grant.wait_exit(std::chrono::seconds(10)) == 0);
    check_no_secret(everything_printed(grant), auth, o);
    auto const stored = token_file(dir.file("tokens.json")).load().at("StoreApi");
    CHECK(stored.grant == "client_credentials");
    CHECK(stored.subject_type == "enterprise");
    CHECK(stored.subject_id == "4242");
    CHECK(stored.access_token == auth.access_tokens().back());
    auto const body = auth.platform().requests().back().body;
    CHECK(body.find("box_subject_type=enterprise") != std::string::npos);
    CHECK(body.find("box_subject_id=4242") != std::string::npos);
}

TEST_CASE(
    "auth commands refuse a token store open to others and unknown toolkits", "[auth][oauth-cli]")
{
    temp_dir dir;
    write_file(dir.file("tokens.json"), R"({"format":"toolgate-tokens/1","toolkits":{}})", 0644);
    child_process status(
        toolgate_bin, { "auth", "status", "--token-store", dir.file("tokens.json") });
    CHECK(status.wait_exit(std::chrono::seconds(10)) == 2);
    CHECK(status.stderr_text().find("chmod 600") != std::string::npos);

    child_process unknown(
        toolgate_bin, { "auth", "login", "KanbanApi", "--token-store", dir.file("other.json") });
    CHECK(unknown.wait_exit(std::chrono::seconds(10)) == 2);
    CHECK(unknown.stderr_text().find("StoreApi or LedgerApi") != std::string::npos);
}

TEST_CASE(
    "auth login --scopes asks for the scopes given instead of the catalogue's", "[auth][oauth-cli]")
{
    fake_auth_options o;
    fake_auth_server auth(o);
    temp_dir dir;
    auto args = common_args(dir);
    args.insert(args.begin(),
        { "auth", "login", "LedgerApi", "--no-browser", "--scopes",
            "offline_access accounting.transactions", "--timeout", "1" });
    child_process login(toolgate_bin, args, fake_environment(auth, "LedgerApi", o));
    auto parsed = boost::urls::parse_absolute_uri(printed_url(login));
    REQUIRE(parsed);
    CHECK((*parsed->params().find("scope")).value == "offline_access accounting.transactions");
    // Nobody opens it: the login gives up after --timeout and saves nothing.
    CHECK(login.wait_exit(std::chrono::seconds(10)) == 1);
    CHECK(everything_printed(login).find("No sign-in arrived within 1 s") != std::string::npos);
    CHECK(token_file(dir.file("tokens.json")).load().empty());
}

TEST_CASE("auth status and logout --principal show and forget one client's sign-in only",
    "[auth][oauth-cli][sign-in]")
{
    temp_dir dir;
    toolgate::credentials::token_entry e;
    e.grant = "authorization_code";
    e.access_token = "zqAliceAccess-S3CR3T";
    e.refresh_token = "zqAliceRefresh-S3CR3T";
    e.obtained_at = 1;
    e.expires_at = 4'000'000'000;
    token_file file(dir.file("tokens.json"));
    file.save("static:alice", "StoreApi", e);
    e.access_token = "zqServerAccess-S3CR3T";
    file.save("", "StoreApi", e);
    auto const run = [&](std::vector<std::string> args) {
        args.insert(args.end(), { "--token-store", dir.file("tokens.json") });
        child_process p(toolgate_bin, args);
        auto const status = p.wait_exit(std::chrono::seconds(10));
        auto printed = everything_printed(p);
        INFO(printed);
        CHECK(status == 0);
        CHECK(printed.find("S3CR3T") == std::string::npos);
        return printed;
    };
    auto const alice = run({ "auth", "status", "--principal", "static:alice" });
    CHECK(alice.find("Sign-ins of static:alice") != std::string::npos);
    CHECK(alice.find("StoreApi: signed in (authorization_code)") != std::string::npos);
    CHECK(alice.find("LedgerApi: not signed in") != std::string::npos);
    CHECK(run({ "auth", "status", "--principal", "static:bob" }).find("StoreApi: not signed in")
        != std::string::npos);

    auto const out = run({ "auth", "logout", "StoreApi", "--principal", "static:alice" });
    CHECK(out.find("Signed out of StoreApi for static:alice") != std::string::npos);
    CHECK_FALSE(file.load("static:alice", "StoreApi"));
    CHECK(file.load("", "StoreApi")->access_token == "zqServerAccess-S3CR3T"); // untouched
    CHECK(run({ "auth", "logout", "StoreApi", "--principal", "static:alice" })
              .find("was not signed in for static:alice")
        != std::string::npos);
}

namespace {

/// A TCP connection to `address` (IPv4 or IPv6 literal) and `port`; -1 when refused.
int connect_to(std::string const& address, std::uint16_t port)
{
    bool const v6 = address.find(':') != std::string::npos;
    int const fd = ::socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    REQUIRE(fd >= 0);
    sockaddr_storage storage {};
    socklen_t length = 0;
    if (v6) {
        auto* a = reinterpret_cast<sockaddr_in6*>(&storage);
        a->sin6_family = AF_INET6;
        a->sin6_port = htons(port);
        ::inet_pton(AF_INET6, address.c_str(), &a->sin6_addr);
        length = sizeof(sockaddr_in6);
    } else {
        auto* a = reinterpret_cast<sockaddr_in*>(&storage);
        a->sin_family = AF_INET;
        a->sin_port = htons(port);
        ::inet_pton(AF_INET, address.c_str(), &a->sin_addr);
        length = sizeof(sockaddr_in);
    }
    if (::connect(fd, reinterpret_cast<sockaddr*>(&storage), length) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

/// The status of `GET target` sent to [::1]:port (0 when nothing came back).
int status_over_ipv6(std::uint16_t port, std::string const& target)
{
    int const fd = connect_to("::1", port);
    REQUIRE(fd >= 0);
    auto const request
        = "GET " + target + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
    REQUIRE(::send(fd, request.data(), request.size(), MSG_NOSIGNAL)
        == static_cast<ssize_t>(request.size()));
    timeval timeout { 10, 0 };
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    char head[64] = {};
    auto const n = ::recv(fd, head, sizeof head - 1, 0);
    ::close(fd);
    return n > 12 ? std::atoi(head + 9) : 0;
}

/// A free TCP port on both loopback addresses, found by binding port 0.
std::uint16_t free_port()
{
    for (int i = 0; i < 20; ++i) {
        int const fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in a {};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t length = sizeof a;
        ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &length);
        ::close(fd);
        auto const port = ntohs(a.sin_port);
        int const probe = connect_to("::1", port);
        if (probe < 0) {
            return port;
        }
        ::close(probe);
    }
    FAIL("no free port");
    return 0;
}

/// The path and query of the platform's redirect (what the browser asks the callback for).
std::string callback_target(std::string const& location)
{
    auto parsed = boost::urls::parse_absolute_uri(location);
    REQUIRE(parsed);
    return std::string(parsed->encoded_path()) + "?" + std::string(parsed->encoded_query());
}

} // namespace

TEST_CASE("third review 14: idle local connections do not lock the browser out of the login "
          "callback",
    "[auth][oauth-cli][review3]")
{
    fake_auth_options o;
    fake_auth_server auth(o);
    temp_dir dir;
    auto args = common_args(dir);
    args.insert(args.begin(), { "auth", "login", "StoreApi", "--no-browser" });
    child_process login(toolgate_bin, args, fake_environment(auth, "StoreApi", o));
    auto const url = printed_url(login);
    auto redirect = browse(url);
    REQUIRE(redirect.response.status == 302);
    auto const location = redirect.response.header("Location");
    auto const port = static_cast<std::uint16_t>(
        std::stoi(std::string(boost::urls::parse_absolute_uri(location)->port())));
    // Another local program parks connections that never send a request (16 filled every
    // place the callback had; each new one got 503).
    std::vector<int> parked;
    for (int i = 0; i < 24; ++i) {
        int const fd = connect_to("127.0.0.1", port);
        REQUIRE(fd >= 0);
        parked.push_back(fd);
    }
    auto const page = follow(location);
    CHECK(page.status == 200);
    CHECK(page.body.find("signed in") != std::string::npos);
    for (int fd : parked) {
        ::close(fd);
    }
    CHECK(login.wait_exit(std::chrono::seconds(10)) == 0);
    CHECK(token_file(dir.file("tokens.json")).load().contains("StoreApi"));
}

TEST_CASE("third review 15: a login redirected to localhost holds [::1] too, or refuses to start",
    "[auth][oauth-cli][review3]")
{
    fake_auth_options o;
    fake_auth_server auth(o);
    temp_dir dir;
    auto const port = free_port();
    auto args = common_args(dir);
    args.insert(args.begin(),
        { "auth", "login", "StoreApi", "--no-browser", "--redirect-host", "localhost", "--port",
            std::to_string(port) });
    SECTION("[::1] is ours: the browser's redirect may arrive on either address")
    {
        child_process login(toolgate_bin, args, fake_environment(auth, "StoreApi", o));
        auto const url = printed_url(login);
        auto redirect = browse(url);
        REQUIRE(redirect.response.status == 302);
        auto const target = callback_target(redirect.response.header("Location"));
        // Nobody else can take [::1] at that port now.
        int const other = ::socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in6 a {};
        a.sin6_family = AF_INET6;
        a.sin6_addr = in6addr_loopback;
        a.sin6_port = htons(port);
        CHECK(::bind(other, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0);
        ::close(other);
        CHECK(status_over_ipv6(port, target) == 200);
        CHECK(login.wait_exit(std::chrono::seconds(10)) == 0);
    }
    SECTION("another program holds [::1] at the port: the login does not start")
    {
        int const squatter = ::socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in6 a {};
        a.sin6_family = AF_INET6;
        a.sin6_addr = in6addr_loopback;
        a.sin6_port = htons(port);
        REQUIRE(::bind(squatter, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
        REQUIRE(::listen(squatter, 4) == 0);
        child_process login(toolgate_bin, args, fake_environment(auth, "StoreApi", o));
        auto const status = login.wait_exit(std::chrono::seconds(10));
        ::close(squatter);
        REQUIRE(status.has_value());
        CHECK(*status != 0);
        CHECK_THAT(everything_printed(login), Catch::Contains("[::1]:" + std::to_string(port)));
        CHECK(auth.token_requests() == 0);
    }
}
