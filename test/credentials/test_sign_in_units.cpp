// Issue 26 in process: the token store keyed by principal (older files still load), each
// principal's tokens served and renewed for that principal only, the sealed sign-in link state
// (expiry, alteration, single use), the pages' escaping and headers, and the link page of an
// expired or forged state.
#include "credentials/sign_in_link.hpp"
#include "credentials/sign_in_pages.hpp"
#include "credentials/sign_in_service.hpp"
#include "credentials/token_refresher.hpp"
#include "credentials/token_store.hpp"
#include "credentials_support.hpp"
#include "support/fake_auth_server.hpp"
#include "transport/https_client.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json/parse.hpp>
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>

using namespace toolgate::credentials;
using namespace toolgate::testing;
using toolgate::test::fake_auth_options;
using toolgate::test::fake_auth_server;
using toolgate::toolkits::token_answer;

namespace {

token_entry entry_of(std::string access, std::string refresh, std::int64_t now, long lifetime)
{
    token_entry e;
    e.grant = "authorization_code";
    e.access_token = std::move(access);
    e.refresh_token = std::move(refresh);
    e.obtained_at = now;
    e.expires_at = now + lifetime;
    return e;
}

/// A refresher over a token file, its renewals going to a fake authorization server.
struct rig {
    rig()
        : client(io, https())
    {
        ::setenv("TOOLGATE_OAUTH_TOKEN_URL_STOREAPI", auth.url("/token").c_str(), 1);
        ::setenv("TOOLGATE_OAUTH_AUTHORIZE_URL_STOREAPI", auth.url("/authorize").c_str(), 1);
        secrets = std::make_shared<toolgate::toolkits::fixed_credentials const>(
            toolgate::toolkits::fixed_credentials::map {
                { "STORE_CLIENT_ID", fake_auth_options().client_id },
                { "STORE_CLIENT_SECRET", fake_auth_options().client_secret } });
    }
    static toolgate::transport::https_options https()
    {
        toolgate::transport::https_options o;
        o.ca_file = toolgate::test::fake_platform::ca_file();
        o.system_trust = false;
        o.proxy_from_environment = false;
        return o;
    }
    void start()
    {
        auto s = secrets;
        refresher = std::make_shared<token_refresher>(
            client, file(), [s] { return s; }, [this] { return now.load(); });
    }
    token_file file() const { return token_file(dir.file("tokens.json")); }
    token_answer ask(toolgate::toolkits::token_source& source, std::string refused = {})
    {
        std::optional<token_answer> answer;
        boost::asio::co_spawn(io, source.access_token("StoreApi", std::move(refused)),
            [&](std::exception_ptr e, token_answer a) {
                REQUIRE_FALSE(e);
                answer = std::move(a);
            });
        io.restart();
        for (int i = 0; i < 200 && !answer; ++i) {
            io.run_for(std::chrono::milliseconds(50));
        }
        REQUIRE(answer);
        return *answer;
    }

    fake_auth_server auth;
    temp_dir dir;
    boost::asio::io_context io;
    toolgate::transport::https_client client;
    std::atomic<std::int64_t> now { 1'700'000'000 };
    std::shared_ptr<toolgate::toolkits::fixed_credentials const> secrets;
    std::shared_ptr<token_refresher> refresher;
};

} // namespace

TEST_CASE("token store: a file from before principals still loads, as the server's own",
    "[sign-in][credentials]")
{
    temp_dir dir;
    write_file(dir.file("tokens.json"),
        R"({"format":"toolgate-tokens/1","toolkits":{"StoreApi":{"grant":"authorization_code",)"
        R"("access_token":"old-access","refresh_token":"old-refresh","expires_at":5,)"
        R"("obtained_at":1}}})"
        "\n");
    token_file file(dir.file("tokens.json"));
    auto own = file.load();
    REQUIRE(own.contains("StoreApi"));
    CHECK(own.at("StoreApi").refresh_token == "old-refresh");
    CHECK(file.load("", "StoreApi")->access_token == "old-access");
    CHECK_FALSE(file.load("static:alice", "StoreApi"));

    // A client's entry goes beside it; the server's own stays where an older reader finds it.
    file.save("static:alice", "StoreApi", entry_of("alice-access", "alice-refresh", 1, 60));
    auto const text = read_file(dir.file("tokens.json"));
    auto const doc = boost::json::parse(text).as_object();
    CHECK(doc.at("toolkits").at("StoreApi").at("access_token") == "old-access");
    CHECK(doc.at("principals").at("static:alice").at("StoreApi").at("access_token")
        == "alice-access");
    CHECK(file_mode(dir.file("tokens.json")) == 0600);
    CHECK(file.load("static:alice", "StoreApi")->refresh_token == "alice-refresh");
    file.save("jwt:auth0|42", "LedgerApi", entry_of("j-access", "", 1, 60));
    file.remove("static:alice", "StoreApi");
    auto const book = file.load_all();
    CHECK_FALSE(file.load("static:alice", "StoreApi"));
    CHECK(book.at("jwt:auth0|42").at("LedgerApi").access_token == "j-access");
    CHECK(book.at("").at("StoreApi").access_token == "old-access");
    // Without client entries the file is written exactly as before principals existed.
    file.remove("jwt:auth0|42", "LedgerApi");
    CHECK(read_file(dir.file("tokens.json")).find("principals") == std::string::npos);

    write_file(dir.file("bad.json"),
        R"({"format":"toolgate-tokens/1","toolkits":{},"principals":{"static:x":7}})");
    CHECK_THROWS_AS(token_file(dir.file("bad.json")).load_all(), std::invalid_argument);
}

TEST_CASE("token store: renewal locks are per principal and toolkit, the server's keeps its name",
    "[sign-in][credentials]")
{
    temp_dir dir;
    token_file file(dir.file("tokens.json"));
    auto own = file.try_renewal_lock("", "StoreApi");
    REQUIRE(own);
    CHECK(std::filesystem::exists(dir.file("tokens.json.StoreApi.lock")));
    auto alice = file.try_renewal_lock("static:alice", "StoreApi");
    REQUIRE(alice); // another principal's renewal does not wait for the server's
    CHECK_FALSE(file.try_renewal_lock("static:alice", "StoreApi")); // nor twice for one
    auto bob = file.try_renewal_lock("static:bob", "StoreApi");
    CHECK(bob);
}

TEST_CASE("each principal's token serves that principal only, renewed with its own refresh "
          "token",
    "[sign-in][credentials]")
{
    rig r;
    auto [alice_access, alice_refresh] = r.auth.seed_tokens();
    r.file().save("static:alice", "StoreApi", entry_of(alice_access, alice_refresh, r.now, 600));
    r.start();
    principal_tokens alice(r.refresher, "static:alice", false);
    principal_tokens bob(r.refresher, "static:bob", false);
    principal_tokens bob_shared(r.refresher, "static:bob", true);

    CHECK(r.ask(alice).text == alice_access);
    CHECK(alice.has_token("StoreApi"));
    CHECK(r.ask(bob).state == token_answer::kind::none); // never alice's
    CHECK_FALSE(bob.has_token("StoreApi"));
    CHECK(r.ask(bob_shared).state == token_answer::kind::none); // the server has none either
    CHECK(r.ask(*r.refresher).state == token_answer::kind::none);

    // The server's own sign-in is lent only where it is shared.
    auto [own_access, own_refresh] = r.auth.seed_tokens();
    r.file().save("", "StoreApi", entry_of(own_access, own_refresh, r.now, 600));
    r.now += 2; // the store is reread at most once a second
    CHECK(r.ask(bob_shared).text == own_access);
    CHECK(r.ask(bob).state == token_answer::kind::none);
    CHECK(r.ask(alice).text == alice_access); // her own first

    // Due for renewal: alice's entry is renewed with her refresh token, the server's untouched.
    r.now += 600;
    auto renewed = r.ask(alice);
    REQUIRE(renewed.state == token_answer::kind::token);
    CHECK(renewed.text == r.auth.access_tokens().back());
    CHECK(r.auth.token_requests("refresh_token") == 1);
    CHECK(r.file().load("static:alice", "StoreApi")->access_token == renewed.text);
    CHECK(r.file().load("", "StoreApi")->access_token == own_access);
    // A sign-in the authorization server refuses to renew asks for a new one.
    r.auth.revoke_refresh_tokens();
    r.now += 3600; // the renewed token's lifetime
    auto refused = r.ask(alice);
    CHECK(refused.state == token_answer::kind::failed);
    CHECK(refused.sign_in_again);
    CHECK_THAT(refused.text, Catch::Contains("call the tool again to be offered a new sign-in"));
    CHECK_FALSE(alice.has_token("StoreApi"));
}

TEST_CASE("a sign-in link's state: sealed, short-lived, spent once", "[sign-in][credentials]")
{
    std::int64_t now = 1'000;
    sign_in_links links(std::string(32, 'k'), std::chrono::minutes(10), [&] { return now; });
    sign_in_claim claim;
    claim.principal = "jwt:auth0|alice@example.com";
    claim.toolkit = "StoreApi";
    claim.client_name = "Claude Code";
    claim.elicitation_id = "e1";
    auto const state = links.issue(claim);
    CHECK(state.find("alice") == std::string::npos); // no name in clear
    CHECK(state.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                  "0123456789-_")
        == std::string::npos); // safe in a URL as it is
    auto opened = links.open(state);
    REQUIRE(opened.has_value());
    CHECK(opened->principal == claim.principal);
    CHECK(opened->toolkit == "StoreApi");
    CHECK(opened->elicitation_id == "e1");
    CHECK(opened->expires_at == 1'600);
    auto const verifier = links.code_verifier(*opened);
    CHECK(verifier.size() == 43);
    CHECK(verifier == links.code_verifier(*links.open(state))); // found again, no memory
    CHECK(links.open(links.issue(claim))->nonce != opened->nonce);

    SECTION("altered, or sealed under another key")
    {
        auto altered = state;
        altered[altered.size() / 2] = altered[altered.size() / 2] == 'A' ? 'B' : 'A';
        CHECK(links.open(altered).error() == link_fault::malformed);
        sign_in_links other(std::string(32, 'o'));
        CHECK(links.open(other.issue(claim)).error() == link_fault::malformed);
        CHECK(links.open("").error() == link_fault::malformed);
    }
    SECTION("expired")
    {
        now += 599;
        CHECK(links.open(state).has_value());
        now += 1;
        CHECK(links.open(state).error() == link_fault::expired);
    }
    SECTION("spent once")
    {
        CHECK(links.spend(*opened));
        CHECK_FALSE(links.spend(*opened));
        CHECK(links.open(state).error() == link_fault::used);
    }
}

TEST_CASE("sign-in pages escape what they show and forbid framing, caching and referrers",
    "[sign-in][credentials]")
{
    CHECK(html_escaped(R"(<a href="x">&'</a>)")
        == "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;");
    consent c { "StoreApi", "file and folder storage platform", "static:<b>eve</b>",
        "<script>alert(1)</script>", "/signin?state=a\"b", "https://auth.example", "10:00 UTC" };
    auto page = consent_page(c);
    CHECK(page.status == 200);
    CHECK(page.body.find("<script>") == std::string::npos);
    CHECK(page.body.find("&lt;script&gt;") != std::string::npos);
    CHECK(page.body.find("static:&lt;b&gt;eve&lt;/b&gt;") != std::string::npos);
    CHECK(page.body.find(R"(action="/signin?state=a&quot;b")") != std::string::npos);
    auto const header = [&](std::string_view name) {
        for (auto const& [n, v] : page.headers) {
            if (n == name) {
                return v;
            }
        }
        return std::string();
    };
    CHECK(header("Content-Security-Policy")
        == "default-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self' "
           "https://auth.example");
    CHECK(header("Cache-Control") == "no-store");
    CHECK(header("X-Frame-Options") == "DENY");
    CHECK(header("Referrer-Policy") == "no-referrer");
    CHECK(header("Content-Type") == "text/html; charset=utf-8");
}

TEST_CASE("the link page of an expired or forged state is 400 and starts nothing",
    "[sign-in][credentials]")
{
    rig r;
    r.start();
    std::int64_t now = 1'000;
    auto links = std::make_unique<sign_in_links>(
        std::string(32, 'k'), std::chrono::minutes(10), [&] { return now; });
    sign_in_service service(
        std::move(links), r.refresher, r.secrets,
        [] { return std::optional<std::string>("http://127.0.0.1:9"); }, "/oauth/callback");
    CHECK(service.offers("StoreApi"));
    CHECK_FALSE(service.offers("KanbanApi"));
    auto const link = service.start("static:alice", "StoreApi", "client");
    REQUIRE(link);
    auto const target = link->url.substr(std::string("http://127.0.0.1:9").size());
    auto serve = [&](std::string method, std::string path_and_query) {
        toolgate::transport::http_request request;
        request.method = std::move(method);
        request.target = path_and_query;
        request.path = path_and_query.substr(0, path_and_query.find('?'));
        std::optional<web_page> page;
        boost::asio::co_spawn(r.io, service.serve(request), [&](std::exception_ptr e, web_page p) {
            REQUIRE_FALSE(e);
            page = std::move(p);
        });
        r.io.restart();
        r.io.run_for(std::chrono::milliseconds(200));
        REQUIRE(page);
        return *page;
    };
    CHECK(service.is_own("/signin"));
    CHECK(service.is_own("/oauth/callback"));
    CHECK_FALSE(service.is_own("/mcp"));
    CHECK(serve("GET", target).status == 200);
    now += 600;
    auto expired = serve("GET", target);
    CHECK(expired.status == 400);
    CHECK(expired.body.find("expired") != std::string::npos);
    CHECK(serve("POST", target).status == 400);
    auto const state = target.substr(target.find("state=") + 6);
    CHECK(serve("GET", "/oauth/callback?code=c&state=" + state).status == 400);
    CHECK(r.auth.token_requests() == 0);
    CHECK(r.file().load_all().empty());
}
