// Issue 26 through the shipped server as a process, against the fake authorization server
// (which is also the storage platform's API): a call that needs a sign-in its caller lacks
// becomes a URL elicitation in each client's terms (2025-11-25 -32042 with the completion
// notification, 2026-07-28 input_required with a requestState, a tool error holding the link
// for other clients), the link's page, form and callback as a browser drives them, tokens kept
// per principal (in the token file, or in Redis with --state-store), the link's state spent
// once, and no token or code in any answer or log.
#include "credentials/shared_token_store.hpp"
#include "credentials/token_store.hpp"
#include "credentials_support.hpp"
#include "integration/integration_support.hpp"
#include "redis_server.hpp"
#include "support/fake_auth_server.hpp"
#include "transport/https_client.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>
#include <catch2/catch.hpp>

#include <filesystem>
#include <future>
#include <thread>

using namespace toolgate::testing;
using toolgate::credentials::token_file;
using toolgate::test::fake_auth_options;
using toolgate::test::fake_auth_server;
using toolgate::test::fake_platform;
using namespace std::chrono_literals;

namespace {

std::string const alice_token = "zqClientAlice-0123456789abcdef";
std::string const bob_token = "zqClientBob-0123456789abcdef";
std::string const tool = "StoreApi_CheckUserInviteStatus";
std::string const tool_args = R"({"invite_id":"i1"})";
constexpr char const* store_key
    = "5f1d3c0a9b8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a392817061234";

toolgate::state::store_keys store_keys()
{
    toolgate::state::store_keys k;
    k.current = *toolgate::state::parse_store_key(store_key);
    return k;
}

/// A StoreApi app the server holds the client id and secret of, and nobody signed in.
struct sign_in_setup {
    fake_auth_server auth;
    temp_dir dir;

    sign_in_setup()
    {
        write_file(dir.file("secrets.env"),
            "STORE_CLIENT_ID=" + fake_auth_options().client_id
                + "\nSTORE_CLIENT_SECRET=" + fake_auth_options().client_secret + "\n");
        write_file(
            dir.file("clients.tokens"), "alice " + alice_token + "\nbob " + bob_token + "\n");
    }

    std::vector<std::string> args(bool clients) const
    {
        std::vector<std::string> out
            = { "--toolkits", "StoreApi", "--token-store", dir.file("tokens.json"),
                  "--secrets-file", dir.file("secrets.env"), "--ca-file", fake_platform::ca_file(),
                  "--base-url", "StoreApi=" + auth.url(""), "--log-level", "debug" };
        if (clients) {
            out.insert(out.end(), { "--auth-token-file", dir.file("clients.tokens") });
        }
        return out;
    }
    spawn_options env() const
    {
        spawn_options s;
        s.env = { "TOOLGATE_OAUTH_AUTHORIZE_URL_STOREAPI=" + auth.url("/authorize"),
            "TOOLGATE_OAUTH_TOKEN_URL_STOREAPI=" + auth.url("/token"),
            "STORE_ACCESS_TOKEN=", "STORE_CLIENT_ID=", "STORE_CLIENT_SECRET=" };
        return s;
    }
    toolgate::credentials::token_book stored() const
    {
        return token_file(dir.file("tokens.json")).load_all();
    }
};

/// An absolute http(s) URL as port and target.
std::pair<std::uint16_t, std::string> split_url(std::string const& url)
{
    auto parsed = boost::urls::parse_absolute_uri(url);
    REQUIRE(parsed);
    std::string target(parsed->encoded_path());
    if (parsed->has_query()) {
        target += "?" + std::string(parsed->encoded_query());
    }
    return { static_cast<std::uint16_t>(parsed->port_number()), target };
}

/// GET over HTTPS with the test CA, redirects returned as they are (the platform's page).
toolgate::transport::outbound_result browse(std::string const& url)
{
    boost::asio::io_context io;
    toolgate::transport::https_options o;
    o.ca_file = fake_platform::ca_file();
    o.proxy_from_environment = false;
    toolgate::transport::https_client client(io, o);
    toolgate::transport::outbound_request request;
    request.method = "GET";
    request.url = url;
    std::optional<toolgate::transport::outbound_result> result;
    boost::asio::co_spawn(io, client.send(request),
        [&](std::exception_ptr, toolgate::transport::outbound_result r) { result = std::move(r); });
    io.run_for(10s);
    REQUIRE(result.has_value());
    return std::move(*result);
}

/// What a browser went through, following a sign-in link to its end.
struct browsed {
    http_response page; ///< GET on the link
    http_response form; ///< the button's POST
    std::string authorize; ///< where the POST redirected
    std::string callback; ///< where the platform sent the browser back
    http_response done; ///< the callback's page
};

browsed sign_in_through(std::string const& link)
{
    browsed b;
    auto [port, target] = split_url(link);
    b.page = http_request(port, "GET", target);
    REQUIRE(b.page.status == 200);
    b.form = http_request(port, "POST", target,
        { { "Origin", "http://127.0.0.1:" + std::to_string(port) },
            { "Content-Type", "application/x-www-form-urlencoded" } });
    REQUIRE(b.form.status == 302);
    b.authorize = *b.form.header("location");
    auto redirect = browse(b.authorize);
    REQUIRE(redirect.response.status == 302);
    b.callback = redirect.response.header("Location");
    auto [cb_port, cb_target] = split_url(b.callback);
    CHECK(cb_port == port);
    b.done = http_request(cb_port, "GET", cb_target);
    return b;
}

header_pairs bearer(std::string const& token, std::string const& session = {})
{
    header_pairs h;
    if (!token.empty()) {
        h.emplace_back("Authorization", "Bearer " + token);
    }
    if (!session.empty()) {
        h.emplace_back("MCP-Protocol-Version", "2025-11-25");
    }
    return h;
}

std::string init_with(std::string const& capabilities)
{
    return R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":)"
           R"("2025-11-25","capabilities":)"
        + capabilities + R"(,"clientInfo":{"name":"Signin Test Client","version":"1"}}})";
}

/// A 2025-11-25 session of `token`'s client that declared `capabilities`.
std::string open_session(std::uint16_t port, std::string const& token,
    std::string const& capabilities = R"({"elicitation":{"url":{}}})")
{
    auto opened = mcp_post(port, init_with(capabilities), {}, bearer(token));
    REQUIRE(opened.status == 200);
    auto const session = *opened.header("mcp-session-id");
    REQUIRE(
        mcp_post(port, initialized_notification, session, bearer(token, session)).status == 202);
    return session;
}

json::object call_in(std::uint16_t port, std::string const& token, std::string const& session,
    int id, std::vector<std::string>* seen = nullptr)
{
    auto answer = mcp_post(
        port, call_request(std::to_string(id), tool, tool_args), session, bearer(token, session));
    if (seen) {
        seen->push_back(answer.body);
    }
    return rpc_body(answer).as_object();
}

void check_nothing_secret(
    std::string const& text, fake_auth_server const& auth, std::string const& code)
{
    for (auto const& t : auth.access_tokens()) {
        CHECK(text.find(t) == std::string::npos);
    }
    for (auto const& t : auth.refresh_tokens()) {
        CHECK(text.find(t) == std::string::npos);
    }
    CHECK(text.find(fake_auth_options().client_secret) == std::string::npos);
    if (!code.empty()) {
        CHECK(text.find(code) == std::string::npos);
    }
    CHECK(text.find("zqCode-") == std::string::npos);
}

std::string code_of(std::string const& callback)
{
    auto parsed = boost::urls::parse_absolute_uri(callback);
    REQUIRE(parsed);
    auto it = parsed->params().find("code");
    REQUIRE(it != parsed->params().end());
    return std::string((*it).value);
}

} // namespace

TEST_CASE("sign-in, 2025-11-25: alice connects through the link, bob still gets the "
          "elicitation",
    "[sign-in][http]")
{
    sign_in_setup setup;
    http_server_process server(toolgate_bin, setup.args(true), setup.env());
    auto const port = server.port();
    std::vector<std::string> answers;
    auto const alice = open_session(port, alice_token);

    // The standalone stream that will carry the completion notification.
    http_connection stream(port);
    REQUIRE(stream.send(make_request(port, "GET", "/mcp",
        { { "Accept", "text/event-stream" }, { "Mcp-Session-Id", alice },
            { "Authorization", "Bearer " + alice_token } },
        {})));
    REQUIRE(stream.read_until("\r\n\r\n", 5s).starts_with("HTTP/1.1 200"));

    auto needed = call_in(port, alice_token, alice, 2, &answers);
    INFO(json::serialize(needed));
    REQUIRE(error_code_of(json::value(needed)) == -32042);
    auto const& elicitations = needed.at("error").at("data").at("elicitations").as_array();
    REQUIRE(elicitations.size() == 1);
    auto const& e = elicitations[0].as_object();
    CHECK(e.at("mode") == "url");
    std::string const id(e.at("elicitationId").as_string());
    std::string const link(e.at("url").as_string());
    CHECK(link.starts_with("http://127.0.0.1:" + std::to_string(port) + "/signin?state="));
    // The link names no one in clear and carries no credential.
    CHECK(link.find("alice") == std::string::npos);
    CHECK(link.find(fake_auth_options().client_id) == std::string::npos);
    CHECK(setup.auth.api_tokens().empty()); // nothing reached the platform

    auto const b = sign_in_through(link);
    // The page names the platform and the client, has one POST form, and no outside resource.
    CHECK(b.page.body.find("StoreApi") != std::string::npos);
    CHECK(b.page.body.find("static:alice") != std::string::npos);
    CHECK(b.page.body.find("Signin Test Client") != std::string::npos);
    CHECK(b.page.body.find("method=\"post\"") != std::string::npos);
    CHECK(b.page.body.find("<script") == std::string::npos);
    CHECK(b.page.body.find("http") == std::string::npos); // no external resource, no link
    CHECK_THAT(*b.page.header("content-security-policy"), Catch::Contains("default-src 'none'"));
    CHECK_THAT(
        *b.page.header("content-security-policy"), Catch::Contains("frame-ancestors 'none'"));
    CHECK(*b.page.header("cache-control") == "no-store");
    CHECK(*b.page.header("referrer-policy") == "no-referrer");
    // The POST sends the browser to the platform: code, PKCE S256, our state and callback.
    auto authorize = boost::urls::parse_absolute_uri(b.authorize);
    REQUIRE(authorize);
    auto const q = authorize->params();
    CHECK((*q.find("response_type")).value == "code");
    CHECK((*q.find("code_challenge_method")).value == "S256");
    CHECK((*q.find("redirect_uri")).value
        == "http://127.0.0.1:" + std::to_string(port) + "/oauth/callback");
    CHECK(link.ends_with((*q.find("state")).value));
    REQUIRE(b.done.status == 200);
    CHECK(b.done.body.find("return to") != std::string::npos);

    // The tokens are alice's, and only hers.
    auto const book = setup.stored();
    REQUIRE(book.contains("static:alice"));
    CHECK(book.at("static:alice").at("StoreApi").access_token == setup.auth.access_tokens().back());
    CHECK(!book.contains("static:bob"));
    CHECK((!book.contains("") || book.at("").empty()));

    // Her session hears that the elicitation is complete, on its standalone stream.
    auto const& streamed = stream.read_until(id, 5s);
    CHECK(streamed.find("notifications/elicitation/complete") != std::string::npos);
    CHECK(streamed.find("\"elicitationId\":\"" + id + "\"") != std::string::npos);

    // Her retry reaches the platform with her token.
    auto done = call_in(port, alice_token, alice, 3, &answers);
    INFO(json::serialize(done));
    REQUIRE(done.contains("result"));
    CHECK_FALSE(done.at("result").as_object().contains("isError"));
    CHECK(setup.auth.api_tokens().back() == setup.auth.access_tokens().back());

    // Bob has not signed in: he is asked, and nothing is sent with alice's token.
    auto const bob = open_session(port, bob_token);
    auto const api_before = setup.auth.api_tokens().size();
    auto bobs = call_in(port, bob_token, bob, 4, &answers);
    CHECK(error_code_of(json::value(bobs)) == -32042);
    CHECK(setup.auth.api_tokens().size() == api_before);

    // A second callback with the same state, the spent link: 400, nothing more stored.
    auto [cb_port, cb_target] = split_url(b.callback);
    auto const before = read_file(setup.dir.file("tokens.json"));
    CHECK(http_request(cb_port, "GET", cb_target).status == 400);
    auto [link_port, link_target] = split_url(link);
    CHECK(http_request(link_port, "GET", link_target).status == 400);
    CHECK(http_request(link_port, "POST", link_target).status == 400);
    CHECK(read_file(setup.dir.file("tokens.json")) == before);
    CHECK(setup.auth.token_requests("authorization_code") == 1);

    std::string everything = server.process().stderr_text();
    for (auto const& a : answers) {
        everything += a;
    }
    everything += b.page.body + b.done.body + streamed;
    check_nothing_secret(everything, setup.auth, code_of(b.callback));
}

TEST_CASE("sign-in, 2026-07-28: input_required, then the retry waits for the sign-in and "
          "completes",
    "[sign-in][http][mrtr]")
{
    sign_in_setup setup;
    http_server_process server(toolgate_bin, setup.args(true), setup.env());
    auto const port = server.port();
    auto const meta = R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",)"
                      R"("io.modelcontextprotocol/clientCapabilities":{"elicitation":{"url":{}}}})";
    header_pairs headers = modern_headers("tools/call", tool);
    headers.emplace_back("Authorization", "Bearer " + alice_token);
    auto first = rpc_body(mcp_post(port, call_request("1", tool, tool_args, meta), {}, headers));
    INFO(json::serialize(first));
    auto const& needed = first.at("result").as_object();
    REQUIRE(needed.at("resultType") == "input_required");
    auto const& request = needed.at("inputRequests").at("sign_in").as_object();
    CHECK(request.at("method") == "elicitation/create");
    CHECK(request.at("params").at("mode") == "url");
    CHECK_FALSE(request.at("params").as_object().contains("elicitationId"));
    std::string const link(request.at("params").at("url").as_string());
    std::string const state(needed.at("requestState").as_string());

    // The client retries at once with the person's accept; the server waits for the sign-in.
    auto const retry = call_request("2", tool, tool_args,
        std::string(meta) + R"(,"inputResponses":{"sign_in":{"action":"accept"}},"requestState":)"
            + json::serialize(json::value(state)));
    auto answered = std::async(std::launch::async,
        [&] { return mcp_post(port, retry, {}, headers, "application/json, text/event-stream"); });
    CHECK(answered.wait_for(500ms) == std::future_status::timeout); // waiting
    auto const b = sign_in_through(link);
    REQUIRE(b.done.status == 200);
    auto const done = rpc_body(answered.get());
    INFO(json::serialize(done));
    REQUIRE(done.at("result").at("resultType") == "complete");
    CHECK_FALSE(done.at("result").as_object().contains("isError"));
    CHECK(setup.auth.api_tokens().back() == setup.auth.access_tokens().back());
    CHECK(setup.stored().at("static:alice").contains("StoreApi"));

    // Declining is an answer too: nothing is sent, the call says so.
    header_pairs bob_headers = modern_headers("tools/call", tool);
    bob_headers.emplace_back("Authorization", "Bearer " + bob_token);
    auto bob_first
        = rpc_body(mcp_post(port, call_request("3", tool, tool_args, meta), {}, bob_headers));
    std::string const bob_state(bob_first.at("result").at("requestState").as_string());
    auto declined = rpc_body(mcp_post(port,
        call_request("4", tool, tool_args,
            std::string(meta) + R"(,"inputResponses":{"sign_in":{"action":"decline"}},)"
                + R"("requestState":)" + json::serialize(json::value(bob_state))),
        {}, bob_headers));
    CHECK(declined.at("result").at("isError") == true);
    CHECK_THAT(std::string(declined.at("result").at("content").at(0).at("text").as_string()),
        Catch::Contains("declined"));
    // Alice's state is not bob's.
    auto foreign = rpc_body(mcp_post(port,
        call_request("5", tool, tool_args,
            std::string(meta) + R"(,"requestState":)" + json::serialize(json::value(state))),
        {}, bob_headers));
    CHECK(error_code_of(foreign) == -32602);
    check_nothing_secret(server.process().stderr_text(), setup.auth, code_of(b.callback));
}

TEST_CASE(
    "sign-in: a client without URL elicitation gets the link in a tool error", "[sign-in][http]")
{
    sign_in_setup setup;
    http_server_process server(toolgate_bin, setup.args(false), setup.env()); // no client auth
    auto const port = server.port();
    auto opened = mcp_post(port, init_with(R"({"elicitation":{"form":{}}})"));
    auto const session = *opened.header("mcp-session-id");
    auto needed = rpc_body(
        mcp_post(port, call_request("2", tool, tool_args), session, bearer("", session)));
    auto const& result = needed.at("result").as_object();
    REQUIRE(result.at("isError") == true);
    std::string const text(result.at("content").at(0).at("text").as_string());
    auto const at = text.find("http://127.0.0.1:");
    REQUIRE(at != std::string::npos);
    auto const link = text.substr(at, text.find(' ', at) - at);
    CHECK_THAT(text, Catch::Contains("call this tool again"));
    auto const b = sign_in_through(link);
    REQUIRE(b.done.status == 200);
    // Without client authentication the sign-in is the server's own, as `auth login`'s.
    CHECK(setup.stored().at("").contains("StoreApi"));
    auto again = rpc_body(
        mcp_post(port, call_request("3", tool, tool_args), session, bearer("", session)));
    CHECK_FALSE(again.at("result").as_object().contains("isError"));
}

TEST_CASE("sign-in: an altered state is refused at the link and at the callback", "[sign-in][http]")
{
    sign_in_setup setup;
    http_server_process server(toolgate_bin, setup.args(true), setup.env());
    auto const port = server.port();
    auto const alice = open_session(port, alice_token);
    auto needed = call_in(port, alice_token, alice, 2);
    std::string link(needed.at("error").at("data").at("elicitations").at(0).at("url").as_string());
    auto altered = link;
    auto& c = altered[altered.size() - 10];
    c = c == 'A' ? 'B' : 'A';
    auto [lp, lt] = split_url(altered);
    auto page = http_request(lp, "GET", lt);
    CHECK(page.status == 400);
    CHECK(page.body.find("not valid") != std::string::npos);
    CHECK(http_request(lp, "POST", lt).status == 400);
    // A forged callback (a state of our own making, a code the platform never issued).
    auto const state = altered.substr(altered.find("state=") + 6);
    CHECK(http_request(port, "GET", "/oauth/callback?code=zqCode-forged&state=" + state).status
        == 400);
    CHECK(http_request(port, "GET", "/oauth/callback?code=zqCode-forged").status == 400);
    // Another site's page cannot post the form.
    auto [p2, t2] = split_url(link);
    CHECK(http_request(p2, "POST", t2, { { "Origin", "https://evil.example" } }).status == 403);
    CHECK(setup.auth.token_requests("authorization_code") == 0);
    CHECK(setup.stored().empty());
    // The genuine link still works afterwards.
    CHECK(sign_in_through(link).done.status == 200);
}

TEST_CASE("sign-in over stdio: the link opens a loopback listener and the session hears "
          "when it is done",
    "[sign-in][stdio]")
{
    sign_in_setup setup;
    stdio_server server(setup.args(false), toolgate_bin, setup.env());
    server.send(init_with(R"({"elicitation":{"url":{}}})"));
    REQUIRE(server.response(1).contains("result"));
    server.send(initialized_notification);
    auto needed = server.request(call_request("2", tool, tool_args), 2);
    REQUIRE(error_code_of(json::value(needed)) == -32042);
    auto const& e = needed.at("error").at("data").at("elicitations").at(0).as_object();
    std::string const link(e.at("url").as_string());
    std::string const id(e.at("elicitationId").as_string());
    CHECK(link.starts_with("http://127.0.0.1:"));
    auto const b = sign_in_through(link);
    REQUIRE(b.done.status == 200);
    // The platform was sent back to the loopback /callback, as `toolgate auth login` is.
    CHECK(split_url(b.callback).second.starts_with("/callback?"));
    auto note = server.next(10s);
    REQUIRE(note);
    CHECK(note->at("method") == "notifications/elicitation/complete");
    CHECK(note->at("params").at("elicitationId") == json::value(id));
    auto done = server.request(call_request("3", tool, tool_args), 3);
    CHECK_FALSE(done.at("result").as_object().contains("isError"));
    CHECK(setup.stored().at("").contains("StoreApi"));
    server.process().close_stdin();
    CHECK(server.process().wait_exit() == 0);
    check_nothing_secret(server.process().stderr_text(), setup.auth, code_of(b.callback));
}

TEST_CASE("sign-in: the discovery tools say which tools need a sign-in the caller lacks",
    "[sign-in][discovery]")
{
    sign_in_setup setup;
    auto args = setup.args(false);
    args.insert(args.end(), { "--tool-mode", "discovery" });
    stdio_server server(args, toolgate_bin, setup.env());
    server.initialize();
    auto found = server.request(call_request("2", "toolgate_search_tools",
                                    R"({"query":"check the status of a user invite"})"),
        2);
    auto const text = std::string(found.at("result").at("content").at(0).at("text").as_string());
    auto const hits = json::parse(text).at("tools").as_array();
    REQUIRE_FALSE(hits.empty());
    CHECK_THAT(std::string(hits[0].at("sign_in_needed").as_string()), Catch::Contains("StoreApi"));
    auto described = server.request(
        call_request("3", "toolgate_describe_tools", R"({"names":[")" + tool + R"("]})"), 3);
    auto const d = json::parse(
        std::string(described.at("result").at("content").at(0).at("text").as_string()));
    CHECK(d.at("sign_in_needed").as_object().contains("StoreApi"));
}

TEST_CASE("sign-in with --state-store: each person's tokens land in Redis under a key of their "
          "own, sealed, and serve that person only",
    "[sign-in][http][redis]")
{
    redis_server redis;
    sign_in_setup setup;
    auto args = setup.args(true);
    args.insert(args.end(), { "--state-store", redis.url() });
    auto env = setup.env();
    env.env.push_back("TOOLGATE_STORE_KEY=" + std::string(store_key));
    http_server_process server(toolgate_bin, args, env);
    auto const port = server.port();
    auto const meta = R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",)"
                      R"("io.modelcontextprotocol/clientCapabilities":{"elicitation":{"url":{}}}})";
    auto const call_as = [&](std::string const& token, std::string const& id) {
        header_pairs headers = modern_headers("tools/call", tool);
        headers.emplace_back("Authorization", "Bearer " + token);
        return rpc_body(mcp_post(port, call_request(id, tool, tool_args, meta), {}, headers));
    };
    auto const sign_in_as = [&](std::string const& token, std::string const& id) {
        auto needed = call_as(token, id);
        INFO(json::serialize(needed));
        REQUIRE(needed.at("result").at("resultType") == "input_required");
        std::string const link(needed.at("result")
                                   .at("inputRequests")
                                   .at("sign_in")
                                   .at("params")
                                   .at("url")
                                   .as_string());
        auto const b = sign_in_through(link);
        REQUIRE(b.done.status == 200);
        return setup.auth.access_tokens().back();
    };
    auto const alice_access = sign_in_as(alice_token, "1");
    auto const bob_access = sign_in_as(bob_token, "2");
    REQUIRE(alice_access != bob_access);

    // One hash per principal, named by a digest of it; nothing for the server, nothing on disk.
    auto const key_of = [](std::string principal) {
        return toolgate::credentials::shared_token_store(
            nullptr, store_keys(), std::move(principal))
            .tokens_key();
    };
    auto const alice_key = key_of("static:alice");
    auto const bob_key = key_of("static:bob");
    CHECK(alice_key != bob_key);
    CHECK(alice_key.find("alice") == std::string::npos);
    CHECK(redis.cli({ "HKEYS", alice_key }) == "StoreApi\n");
    CHECK(redis.cli({ "HKEYS", bob_key }) == "StoreApi\n");
    CHECK(redis.cli({ "EXISTS", key_of("") }) == "0\n");
    CHECK_FALSE(std::filesystem::exists(setup.dir.file("tokens.json")));
    // Sealed (bound to its principal: see the end).
    auto alice_sealed = redis.cli({ "HGET", alice_key, "StoreApi" });
    CHECK(alice_sealed.find(alice_access) == std::string::npos);
    CHECK(redis.cli({ "HGET", bob_key, "StoreApi" }).find(bob_access) == std::string::npos);

    // Each person's call carries their own token, read back from Redis.
    auto const alice_call = call_as(alice_token, "3");
    INFO(json::serialize(alice_call));
    REQUIRE(alice_call.at("result").at("resultType") == "complete");
    CHECK(setup.auth.api_tokens().back() == alice_access);
    auto const bob_call = call_as(bob_token, "4");
    REQUIRE(bob_call.at("result").at("resultType") == "complete");
    CHECK(setup.auth.api_tokens().back() == bob_access);

    // A second replica on the same Redis serves alice from her hash, and bob is not served
    // alice's token once his entry is gone.
    http_server_process replica(toolgate_bin, args, env);
    redis.cli({ "DEL", bob_key });
    header_pairs headers = modern_headers("tools/call", tool);
    headers.emplace_back("Authorization", "Bearer " + alice_token);
    auto const on_replica
        = rpc_body(mcp_post(replica.port(), call_request("5", tool, tool_args, meta), {}, headers));
    REQUIRE(on_replica.at("result").at("resultType") == "complete");
    CHECK(setup.auth.api_tokens().back() == alice_access);
    headers = modern_headers("tools/call", tool);
    headers.emplace_back("Authorization", "Bearer " + bob_token);
    auto const bob_on_replica
        = rpc_body(mcp_post(replica.port(), call_request("6", tool, tool_args, meta), {}, headers));
    CHECK(bob_on_replica.at("result").at("resultType") == "input_required");

    // Alice's sealed entry copied into bob's hash does not open as his.
    alice_sealed.pop_back(); // redis-cli's newline
    redis.cli({ "HSET", bob_key, "StoreApi", alice_sealed });
    std::this_thread::sleep_for(1100ms); // the store is reread at most once a second
    auto const sent = setup.auth.api_tokens().size();
    auto const copied
        = rpc_body(mcp_post(replica.port(), call_request("7", tool, tool_args, meta), {}, headers));
    INFO(json::serialize(copied));
    CHECK(copied.at("result").as_object().contains("isError"));
    CHECK(setup.auth.api_tokens().size() == sent);
    check_nothing_secret(
        server.process().stderr_text() + replica.process().stderr_text(), setup.auth, "");
}
