// Client authentication end to end: the test server (and toolgate itself) as processes, with a
// token file or a JWKS file, driven over raw loopback HTTP.
#include "http_raw.hpp"
#include "process.hpp"
#include "support/fake_platform.hpp"
#include "token_forge.hpp"

#include <boost/json/parse.hpp>
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <csignal>
#include <fstream>

using namespace toolgate::testing;
namespace json = boost::json;

namespace {

std::string const test_bin = TOOLGATE_TEST_BIN;
std::string const toolgate_bin = TOOLGATE_BIN;
std::string const alice = "alice-token-0123456789abcdef";
std::string const bob = "bob-token-fedcba9876543210";

std::string const initialize
    = R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"auth","version":"1"}}})";
std::string const list = R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})";
std::string const modern_echo
    = R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"Test_Echo","arguments":{"x":1},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"auth","version":"1"}}}})";

header_pairs mcp_headers(std::string const& token, std::string const& session = {})
{
    header_pairs h { { "Content-Type", "application/json" },
        { "Accept", "application/json, text/event-stream" } };
    if (!token.empty()) {
        h.emplace_back("Authorization", "Bearer " + token);
    }
    if (!session.empty()) {
        h.emplace_back("Mcp-Session-Id", session);
        h.emplace_back("MCP-Protocol-Version", "2025-06-18");
    }
    return h;
}

http_response post(std::uint16_t port, std::string const& token, std::string const& body,
    std::string const& session = {})
{
    return http_request(port, "POST", "/mcp", mcp_headers(token, session), body);
}

/// POST a 2026-07-28 call (headers as that revision requires).
http_response post_modern(std::uint16_t port, header_pairs extra)
{
    header_pairs h { { "Content-Type", "application/json" },
        { "Accept", "application/json, text/event-stream" },
        { "MCP-Protocol-Version", "2026-07-28" }, { "Mcp-Method", "tools/call" },
        { "Mcp-Name", "Test_Echo" } };
    h.insert(h.end(), extra.begin(), extra.end());
    return http_request(port, "POST", "/mcp", h, modern_echo);
}

std::string challenge(http_response const& r)
{
    auto const* h = r.header("www-authenticate");
    return h ? *h : std::string();
}

} // namespace

TEST_CASE("static tokens: 401 without or with a wrong token, 200 with a good one", "[auth][http]")
{
    temp_file tokens("# two tokens, for rotation\n" + alice + "\n" + bob + "\n");
    http_server_process server(test_bin, { "--auth-token-file", tokens.path() });
    auto const port = server.port();

    auto const missing = post(port, "", initialize);
    CHECK(missing.status == 401);
    CHECK(challenge(missing) == R"(Bearer realm="toolgate")");

    auto const wrong = post(port, "not-a-token", initialize);
    CHECK(wrong.status == 401);
    CHECK_THAT(challenge(wrong), Catch::Contains(R"(error="invalid_token")"));

    auto const good = post(port, alice, initialize);
    CHECK(good.status == 200);
    CHECK(good.header("mcp-session-id"));
    CHECK(post(port, bob, R"({"jsonrpc":"2.0","id":1,"method":"ping"})").status == 200);

    // Every request, modern ones included; never from the query string (A4).
    CHECK(post_modern(port, {}).status == 401);
    CHECK(post_modern(port, { { "Authorization", "Bearer " + bob } }).status == 200);
    auto const query
        = http_request(port, "POST", "/mcp?access_token=" + alice, mcp_headers(""), initialize);
    CHECK(query.status == 400);
    CHECK_THAT(challenge(query), Catch::Contains("invalid_request"));
    // GET and DELETE are checked too; health stays open for probes.
    CHECK(http_request(port, "DELETE", "/mcp", { { "Mcp-Session-Id", "x" } }).status == 401);
    CHECK(http_request(port, "GET", "/healthz").status == 200);
    // No OAuth: no metadata.
    CHECK(http_request(port, "GET", "/.well-known/oauth-protected-resource").status == 404);
    CHECK(server.process().stderr_text().find(alice) == std::string::npos);
}

TEST_CASE("static tokens: the OAuth discovery and registration paths a client probes after a "
          "401 say to send a bearer token (issue 17 item 1)",
    "[auth][http]")
{
    temp_file tokens(alice + "\n");
    http_server_process server(test_bin, { "--auth-token-file", tokens.path() });
    auto const port = server.port();
    // The banner shows the header to send.
    CHECK(server.process().wait_stderr(R"(--header "Authorization: Bearer <token>")", 2s));
    using probe = std::pair<std::string, std::string>;
    auto [method, path] = GENERATE(probe { "GET", "/.well-known/oauth-protected-resource" },
        probe { "GET", "/.well-known/oauth-protected-resource/mcp" },
        probe { "GET", "/.well-known/oauth-authorization-server" },
        probe { "GET", "/.well-known/openid-configuration" }, probe { "POST", "/register" });
    CAPTURE(method, path);
    auto const answer = http_request(port, method, path, { { "Content-Type", "application/json" } },
        method == "POST" ? "{}" : "");
    CHECK(answer.status == 404);
    auto const body = json::parse(answer.body);
    CHECK(body.at("error") == "not_found");
    auto const text = std::string(body.at("error_description").as_string());
    CHECK_THAT(text, Catch::Contains("Authorization: Bearer <token>"));
    CHECK_THAT(text, Catch::Contains("no OAuth authorization server"));
    // Without authentication configured those paths are plain unknown paths.
    http_server_process open(test_bin);
    auto const plain = http_request(open.port(), method, path,
        { { "Content-Type", "application/json" } }, method == "POST" ? "{}" : "");
    CHECK(plain.status == 404);
    CHECK_THAT(plain.body, !Catch::Contains("Bearer"));
}

TEST_CASE("a session opened with one token is not found with another (H16)", "[auth][http]")
{
    temp_file tokens(alice + "\n" + bob + "\n");
    http_server_process server(test_bin, { "--auth-token-file", tokens.path() });
    auto const port = server.port();

    auto const opened = post(port, alice, initialize);
    REQUIRE(opened.status == 200);
    REQUIRE(opened.header("mcp-session-id"));
    auto const session = *opened.header("mcp-session-id");

    CHECK(post(port, bob, list, session).status == 404);
    CHECK(post(port, "", list, session).status == 401);
    CHECK(post(port, alice, list, session).status == 200);
    CHECK(http_request(port, "DELETE", "/mcp",
              { { "Authorization", "Bearer " + bob }, { "Mcp-Session-Id", session } })
              .status
        == 404);
    CHECK(post(port, alice, list, session).status == 200);
    CHECK(http_request(port, "DELETE", "/mcp",
              { { "Authorization", "Bearer " + alice }, { "Mcp-Session-Id", session } })
              .status
        == 200);
}

TEST_CASE("OAuth resource server: metadata, 401 challenges, audience and scope", "[auth][http]")
{
    auto const key = test_key::rsa("rsa-1");
    auto const ec = test_key::ec("ec-1");
    temp_file jwks(make_jwks({ &key, &ec }));
    std::string const issuer = "https://as.example.test";
    http_server_process server(test_bin,
        { "--oauth-jwks-file", jwks.path(), "--oauth-issuer", issuer, "--oauth-scopes",
            "mcp:tools" });
    auto const port = server.port();
    auto const resource = fmt::format("http://127.0.0.1:{}/mcp", port); // the default audience
    auto const metadata_url
        = fmt::format("http://127.0.0.1:{}/.well-known/oauth-protected-resource/mcp", port);

    for (auto path :
        { "/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp" }) {
        auto const r = http_request(port, "GET", path);
        INFO(path);
        REQUIRE(r.status == 200);
        REQUIRE(r.header("content-type"));
        CHECK(*r.header("content-type") == "application/json");
        auto const doc = json::parse(r.body).as_object();
        CHECK(doc.at("resource") == resource.c_str());
        CHECK(doc.at("authorization_servers").as_array().at(0) == issuer.c_str());
        CHECK(doc.at("scopes_supported").as_array().at(0) == "mcp:tools");
        CHECK(doc.at("bearer_methods_supported").as_array().at(0) == "header");
    }

    auto const missing = post(port, "", initialize);
    CHECK(missing.status == 401);
    CHECK(challenge(missing)
        == fmt::format(R"(Bearer scope="mcp:tools", resource_metadata="{}")", metadata_url));

    auto token = [&](test_key const& k, std::string const& aud, std::string const& scope,
                     std::string const& sub = "u1") {
        return k.token(fmt::format(R"({{"iss":"{}","aud":"{}","sub":"{}","exp":{},"scope":"{}"}})",
            issuer, aud, sub, epoch_seconds(std::chrono::seconds(300)), scope));
    };
    CHECK(post(port, token(key, resource, "mcp:tools"), initialize).status == 200);
    CHECK(post(port, token(ec, resource, "mcp:tools other"), initialize).status == 200);

    auto const other_audience
        = post(port, token(key, "https://other.example/mcp", "mcp:tools"), initialize);
    CHECK(other_audience.status == 401);
    CHECK_THAT(challenge(other_audience), Catch::Contains(R"(error="invalid_token")"));
    CHECK_THAT(challenge(other_audience), Catch::Contains("resource_metadata=\"" + metadata_url));

    auto const stranger = test_key::rsa("rsa-1");
    CHECK(post(port, token(stranger, resource, "mcp:tools"), initialize).status == 401);

    auto const scope = post(port, token(key, resource, "mcp:read"), initialize);
    CHECK(scope.status == 403);
    CHECK(challenge(scope)
        == fmt::format(
            R"(Bearer error="insufficient_scope", scope="mcp:tools", resource_metadata="{}")",
            metadata_url));

    // Sessions bind to the token's subject.
    auto const opened = post(port, token(key, resource, "mcp:tools", "u1"), initialize);
    REQUIRE(opened.header("mcp-session-id"));
    auto const session = *opened.header("mcp-session-id");
    CHECK(post(port, token(ec, resource, "mcp:tools", "u2"), list, session).status == 404);
    CHECK(post(port, token(ec, resource, "mcp:tools", "u1"), list, session).status == 200);
}

TEST_CASE(
    "a non-loopback bind needs client authentication or --allow-unauthenticated", "[auth][http]")
{
    {
        child_process refused(
            test_bin, { "--transport", "http", "--host", "0.0.0.0", "--port", "0" });
        CHECK(refused.wait_exit(10s) == 2);
        CHECK_THAT(
            refused.stderr_text(), Catch::Contains("client authentication is not configured"));
    }
    {
        // A name that merely starts with "127." is a name, not a loopback address: it may
        // resolve anywhere (common::is_loopback_host).
        child_process named(
            test_bin, { "--transport", "http", "--host", "127.evil.example", "--port", "0" });
        CHECK(named.wait_exit(10s) == 2);
        CHECK_THAT(named.stderr_text(),
            Catch::Contains("--host 127.evil.example is not a loopback address")
                && Catch::Contains("client authentication is not configured"));
    }
    {
        child_process open(test_bin,
            { "--transport", "http", "--host", "0.0.0.0", "--port", "0",
                "--allow-unauthenticated" });
        CHECK(open.wait_stderr("without client authentication", 10s));
        CHECK(open.running()); // the destructor kills it
    }
    {
        temp_file tokens(alice + "\n");
        child_process authed(test_bin,
            { "--transport", "http", "--host", "0.0.0.0", "--port", "0", "--auth-token-file",
                tokens.path() });
        CHECK(authed.wait_stderr("serving MCP", 10s));
        CHECK(authed.stderr_text().find("without client authentication") == std::string::npos);
        CHECK(authed.running());
    }
    {
        child_process bad(
            test_bin, { "--transport", "http", "--auth-token-file", "/nonexistent/tokens" });
        CHECK(bad.wait_exit(10s) == 2);
        CHECK_THAT(bad.stderr_text(), Catch::Contains("--auth-token-file"));
    }
}

TEST_CASE("the client's token never reaches the platform (A7)", "[auth][http][upstream]")
{
    toolgate::test::fake_platform platform;
    temp_file tokens(alice + "\n");
    spawn_options env;
    env.env = { "STORE_ACCESS_TOKEN=store-token-for-platform-only" };
    http_server_process server(toolgate_bin,
        { "--auth-token-file", tokens.path(), "--toolkits", "StoreApi", "--base-url",
            fmt::format("StoreApi=https://127.0.0.1:{}", platform.port()), "--ca-file",
            toolgate::test::fake_platform::ca_file() },
        env);
    auto const port = server.port();
    auto const opened = post(port, alice, initialize);
    REQUIRE(opened.header("mcp-session-id"));
    auto const session = *opened.header("mcp-session-id");
    auto const call = post(port, alice,
        R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"StoreApi_GetFolderDetails","arguments":{"folder_unique_identifier":"f1"}}})",
        session);
    REQUIRE(call.status == 200);
    CHECK_THAT(call.body, !Catch::Contains("\"isError\":true"));
    auto const seen = platform.requests();
    REQUIRE(seen.size() == 1);
    CHECK(seen[0].header("authorization") == "Bearer store-token-for-platform-only");
    for (auto const& [name, value] : seen[0].headers) {
        INFO(name << ": " << value);
        CHECK(value.find(alice) == std::string::npos);
    }
    CHECK(seen[0].target.find(alice) == std::string::npos);
    CHECK(seen[0].body.find(alice) == std::string::npos);
}

namespace {

/// Replaces a file's contents (the temp_file keeps its path).
void rewrite(std::string const& path, std::string const& text)
{
    std::ofstream(path, std::ios::trunc) << text;
}

std::string const ping = R"({"jsonrpc":"2.0","id":1,"method":"ping"})";

} // namespace

TEST_CASE("SIGHUP reloads the token file: rotated-out tokens are refused, bad files ignored",
    "[auth][http]")
{
    temp_file tokens(alice + "\n");
    http_server_process server(test_bin, { "--auth-token-file", tokens.path() });
    auto const port = server.port();
    auto& process = server.process();
    CHECK(post(port, alice, ping).status == 200);
    CHECK(post(port, bob, ping).status == 401);

    rewrite(tokens.path(), "# rotated\n" + bob + "\n");
    process.signal(SIGHUP);
    REQUIRE(process.wait_stderr("authentication reloaded: 1 static token(s)"));
    CHECK(post(port, alice, ping).status == 401);
    CHECK(post(port, bob, ping).status == 200);

    // A file emptied by mistake (or mid-write) must not lock everyone out, nor let everyone in.
    rewrite(tokens.path(), "# nothing yet\n");
    process.signal(SIGHUP);
    REQUIRE(process.wait_stderr("client authentication not reloaded"));
    CHECK(post(port, bob, ping).status == 200);
    CHECK(post(port, "", ping).status == 401);

    // Overlap for a rotation: both at once.
    rewrite(tokens.path(), alice + "\n" + bob + "\n");
    process.signal(SIGHUP);
    REQUIRE(process.wait_stderr("authentication reloaded: 2 static token(s)"));
    CHECK(post(port, alice, ping).status == 200);
    CHECK(post(port, bob, ping).status == 200);
    CHECK(process.running());
    CHECK(process.stderr_text().find(alice) == std::string::npos);
    CHECK(process.stderr_text().find(bob) == std::string::npos);
}

TEST_CASE(
    "SIGHUP reloads the JWKS: a new signing key is accepted, a removed one refused", "[auth][http]")
{
    auto const old_key = test_key::ec("ec-old");
    auto const new_key = test_key::ec("ec-new");
    temp_file jwks(make_jwks({ &old_key }));
    std::string const issuer = "https://as.example.test";
    http_server_process server(
        test_bin, { "--oauth-jwks-file", jwks.path(), "--oauth-issuer", issuer });
    auto const port = server.port();
    auto const resource = fmt::format("http://127.0.0.1:{}/mcp", port);
    auto token = [&](test_key const& k) {
        return k.token(fmt::format(R"({{"iss":"{}","aud":"{}","sub":"u","exp":{}}})", issuer,
            resource, epoch_seconds(std::chrono::seconds(300))));
    };
    CHECK(post(port, token(old_key), ping).status == 200);
    CHECK(post(port, token(new_key), ping).status == 401);

    rewrite(jwks.path(), make_jwks({ &new_key }));
    server.process().signal(SIGHUP);
    REQUIRE(server.process().wait_stderr("authentication reloaded: 0 static token(s), OAuth on"));
    CHECK(post(port, token(new_key), ping).status == 200);
    CHECK(post(port, token(old_key), ping).status == 401);
    // The audience is still this server's URL after the reload.
    auto const elsewhere
        = new_key.token(fmt::format(R"({{"iss":"{}","aud":"{}","sub":"u","exp":{}}})", issuer,
            "https://other.example/mcp", epoch_seconds(std::chrono::seconds(300))));
    CHECK(post(port, elsewhere, ping).status == 401);
}

TEST_CASE("SIGHUP without client authentication changes nothing and stops nothing", "[auth][http]")
{
    http_server_process server(test_bin);
    server.process().signal(SIGHUP); // the default action would end the process
    REQUIRE(server.process().wait_stderr("nothing to reload"));
    CHECK(http_request(server.port(), "GET", "/healthz").status == 200);
    CHECK(post(server.port(), "", ping).status == 200);
}
