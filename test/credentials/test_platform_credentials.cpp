// Issue 14, the server's side of platform credentials: secrets files, the token store, the
// per-request layering, and token renewal against a fake authorization server of our own
// (HTTPS on 127.0.0.1) with an injected clock.
#include "credentials/credential_hub.hpp"
#include "credentials/oauth_client.hpp"
#include "credentials/secrets_file.hpp"
#include "credentials/token_refresher.hpp"
#include "credentials/token_store.hpp"
#include "credentials_support.hpp"
#include "support/fake_auth_server.hpp"
#include "transport/https_client.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <atomic>
#include <cstdlib>

using namespace toolgate::credentials;
using namespace toolgate::testing;
using toolgate::test::fake_auth_options;
using toolgate::test::fake_auth_server;
using toolgate::toolkits::token_answer;

namespace {

std::string message_of(std::function<void()> const& f)
{
    try {
        f();
    } catch (std::exception const& e) {
        return e.what();
    }
    return "(no error)";
}

} // namespace

TEST_CASE("a secrets file holds KEY=VALUE lines", "[auth][credentials]")
{
    auto const values = parse_secrets("# platform secrets\n"
                                      "KANBAN_API_KEY=abc=def\n"
                                      "  export KANBAN_TOKEN = \"quoted value\"  \r\n"
                                      "\n"
                                      "DESK_SUBDOMAIN='acme'\n"
                                      "EMPTY=\n",
        "--secrets-file f");
    CHECK(values
        == secret_map { { "KANBAN_API_KEY", "abc=def" }, { "KANBAN_TOKEN", "quoted value" },
            { "DESK_SUBDOMAIN", "acme" }, { "EMPTY", "" } });
}

TEST_CASE("a malformed secrets file is refused, naming the line and never the value",
    "[auth][credentials]")
{
    auto const no_name = message_of([] { parse_secrets("A=1\nzqSecretPasted-S3CR3T\n", "F"); });
    CHECK(no_name.find("F line 2") != std::string::npos);
    CHECK(no_name.find("S3CR3T") == std::string::npos);
    auto const lower = message_of([] { parse_secrets("kanban_key=zq-S3CR3T\n", "F"); });
    CHECK(lower.find("line 1") != std::string::npos);
    CHECK(lower.find("S3CR3T") == std::string::npos);
    auto const twice = message_of([] { parse_secrets("A=zq-S3CR3T\n# x\nA=2\n", "F"); });
    CHECK(twice.find("line 3: A is already set on line 1") != std::string::npos);
    CHECK(twice.find("S3CR3T") == std::string::npos);
    CHECK_THROWS_AS(parse_secrets("[static:alice]\nA=1\n", "F"), std::invalid_argument);
}

TEST_CASE("a credentials file gives each principal its own secrets", "[auth][credentials]")
{
    auto const p
        = parse_principal_secrets("# clients\n[static:alice]\nDEPLOY_ACCESS_TOKEN=a1\n"
                                  "\n[jwt:user|42]\nDEPLOY_ACCESS_TOKEN=b1\nKANBAN_TOKEN=b2\n",
            "C");
    REQUIRE(p.size() == 2);
    CHECK(p.at("static:alice") == secret_map { { "DEPLOY_ACCESS_TOKEN", "a1" } });
    CHECK(p.at("jwt:user|42").size() == 2);
    CHECK(message_of([] { parse_principal_secrets("A=1\n", "C"); }).find("[principal]")
        != std::string::npos);
    CHECK(message_of([] {
        parse_principal_secrets("[a]\nA=1\n[a]\n", "C");
    }).find("[a] already starts on line 1")
        != std::string::npos);
}

TEST_CASE("secrets files must be private to their owner", "[auth][credentials]")
{
    temp_dir dir;
    auto const path = dir.file("secrets.env");
    write_file(path, "A=1\n", 0644);
    auto const why = message_of([&] { read_private_file(path, "--secrets-file"); });
    CHECK(why.find("mode 0644") != std::string::npos);
    CHECK(why.find("chmod 600") != std::string::npos);
    write_file(path, "A=1\n", 0640);
    CHECK_THROWS_AS(check_private_file(path, "--secrets-file"), std::invalid_argument);
    write_file(path, "A=1\n", 0600);
    CHECK(read_private_file(path, "--secrets-file") == "A=1\n");
    CHECK_THROWS_AS(
        check_private_file(dir.file("missing"), "--secrets-file"), std::invalid_argument);
}

TEST_CASE("changes are described by variable name only", "[auth][credentials]")
{
    secret_map const before { { "A", "zq-old-S3CR3T" }, { "B", "same" }, { "C", "gone" } };
    secret_map const after { { "A", "zq-new-S3CR3T" }, { "B", "same" }, { "D", "new" } };
    auto const text = describe_changes(before, after);
    CHECK(text == "changed A; added D; removed C");
    CHECK(describe_changes(before, before).empty());
}

TEST_CASE("the token store is private, replaced atomically and keeps other entries",
    "[auth][credentials]")
{
    temp_dir dir;
    auto const path = dir.file("state/toolgate/tokens.json");
    token_file file(path);
    CHECK(file.load().empty()); // no file yet: nobody signed in

    token_entry store { "authorization_code", "zqA-S3CR3T", "zqR-S3CR3T", 2000, 1000, "", "", "" };
    file.update("StoreApi", store);
    CHECK(file_mode(path) == 0600);
    CHECK(file_mode(dir.file("state/toolgate")) == 0700);
    token_entry ledger { "client_credentials", "zqL-S3CR3T", "", 3000, 1200, "s", "", "" };
    file.update("LedgerApi", ledger);
    auto loaded = file.load();
    REQUIRE(loaded.size() == 2);
    CHECK(loaded.at("StoreApi") == store);
    CHECK(loaded.at("LedgerApi") == ledger);
    file.update("StoreApi", std::nullopt);
    CHECK(file.load().size() == 1);
    // Nothing is left beside it but the lock file.
    std::size_t others = 0;
    for (auto const& entry : std::filesystem::directory_iterator(dir.file("state/toolgate"))) {
        auto const name = entry.path().filename().string();
        others += name != "tokens.json" && name != "tokens.json.lock";
    }
    CHECK(others == 0);

    ::chmod(path.c_str(), 0644);
    auto const why = message_of([&] { file.load(); });
    CHECK(why.find("chmod 600") != std::string::npos);
    CHECK_THROWS(file.update("StoreApi", store)); // never rewritten while open to others
    write_file(path, "{\"zq\":\"S3CR3T\"}", 0600);
    auto const garbage = message_of([&] { file.load(); });
    CHECK(garbage.find("not a toolgate token store") != std::string::npos);
    CHECK(garbage.find("S3CR3T") == std::string::npos);
}

TEST_CASE("the token store's default place follows XDG_STATE_HOME", "[auth][credentials]")
{
    auto const* old = std::getenv("XDG_STATE_HOME");
    std::string const saved = old ? old : "";
    ::setenv("XDG_STATE_HOME", "/tmp/zq-state", 1);
    CHECK(token_file::default_path() == "/tmp/zq-state/toolgate/tokens.json");
    ::unsetenv("XDG_STATE_HOME");
    CHECK(token_file::default_path().ends_with("/.local/state/toolgate/tokens.json"));
    if (old) {
        ::setenv("XDG_STATE_HOME", saved.c_str(), 1);
    }
}

TEST_CASE("a PKCE pair follows RFC 7636 S256", "[auth][credentials]")
{
    auto const p = make_pkce();
    CHECK(p.verifier.size() == 43);
    CHECK(p.verifier.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                       "0123456789-._~")
        == std::string::npos);
    CHECK(p.challenge == toolgate::test::s256(p.verifier));
    CHECK(make_pkce().verifier != p.verifier);
}

namespace {

/// A refresher wired to a fake authorization server, with a clock the test moves.
struct refresher_rig {
    explicit refresher_rig(fake_auth_options options = {}, std::string toolkit = "StoreApi")
        : auth(options)
        , kit(std::move(toolkit))
        , client(io, https())
    {
        auto const upper = kit == "StoreApi" ? "STOREAPI" : "LEDGERAPI";
        ::setenv(fmt::format("TOOLGATE_OAUTH_TOKEN_URL_{}", upper).c_str(),
            auth.url("/token").c_str(), 1);
        ::setenv(fmt::format("TOOLGATE_OAUTH_AUTHORIZE_URL_{}", upper).c_str(),
            auth.url("/authorize").c_str(), 1);
        ::setenv(fmt::format("TOOLGATE_OAUTH_TENANTS_URL_{}", upper).c_str(),
            auth.url("/connections").c_str(), 1);
        auto const prefix = kit == "StoreApi" ? "STORE" : "LEDGER";
        secrets = std::make_shared<toolgate::toolkits::fixed_credentials const>(
            toolgate::toolkits::fixed_credentials::map {
                { std::string(prefix) + "_CLIENT_ID", options.client_id },
                { std::string(prefix) + "_CLIENT_SECRET", options.client_secret } });
    }

    static toolgate::transport::https_options https()
    {
        toolgate::transport::https_options o;
        o.ca_file = toolgate::test::fake_platform::ca_file();
        o.system_trust = false;
        o.deadline = std::chrono::milliseconds(1500);
        o.proxy_from_environment = false;
        return o;
    }

    /// Signs in as `toolgate auth login` would have (or, for a `principal`, a sign-in from
    /// the conversation): live tokens, `lifetime` seconds.
    void sign_in(std::int64_t lifetime, std::string grant = "authorization_code",
        std::string const& principal = {})
    {
        auto [access, refresh] = auth.seed_tokens();
        token_entry e;
        e.grant = std::move(grant);
        e.access_token = access;
        e.refresh_token = e.grant == "client_credentials" ? "" : refresh;
        e.obtained_at = now;
        e.expires_at = now + lifetime;
        token_file(dir.file("tokens.json")).save(principal, kit, e);
    }

    void start(std::chrono::milliseconds lock_wait = std::chrono::seconds(10))
    {
        auto s = secrets;
        refresher = std::make_shared<token_refresher>(
            client, token_file(dir.file("tokens.json")), [s] { return s; },
            [this] { return now.load(); }, false, lock_wait);
    }

    std::vector<token_answer> ask(std::size_t count, std::string refused = {})
    {
        std::vector<std::optional<token_answer>> answers(count);
        for (std::size_t i = 0; i < count; ++i) {
            boost::asio::co_spawn(io, refresher->access_token_for(who, kit, refused),
                [&answers, i](std::exception_ptr e, token_answer a) {
                    REQUIRE_FALSE(e);
                    answers[i] = std::move(a);
                });
        }
        io.restart();
        auto const deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (std::chrono::steady_clock::now() < deadline) {
            io.run_for(std::chrono::milliseconds(50));
            if (std::all_of(
                    answers.begin(), answers.end(), [](auto& a) { return a.has_value(); })) {
                break;
            }
        }
        std::vector<token_answer> out;
        for (auto& a : answers) {
            REQUIRE(a.has_value());
            out.push_back(std::move(*a));
        }
        return out;
    }
    token_answer ask_one(std::string refused = {}) { return ask(1, std::move(refused)).front(); }

    token_entry stored() const
    {
        auto entry = token_file(dir.file("tokens.json")).load(who, kit);
        REQUIRE(entry);
        return *entry;
    }

    fake_auth_server auth;
    std::string kit;
    temp_dir dir;
    boost::asio::io_context io;
    toolgate::transport::https_client client;
    std::atomic<std::int64_t> now { 1'700'000'000 };
    std::shared_ptr<toolgate::toolkits::fixed_credentials const> secrets;
    std::shared_ptr<token_refresher> refresher;
    std::string who; ///< whose tokens ask() and stored() use ("" the server's own)
};

} // namespace

TEST_CASE("renewal starts a quarter of a lifetime before expiry, at most two minutes",
    "[auth][credentials]")
{
    CHECK(token_refresher::renew_margin({ "", "", "", 1800, 0, "", "", "" }) == 120);
    CHECK(token_refresher::renew_margin({ "", "", "", 400, 0, "", "", "" }) == 100);
    CHECK(token_refresher::renew_margin({ "", "", "", 2, 0, "", "", "" }) == 1);
}

TEST_CASE("a fresh stored token is used as is, and one due for renewal is renewed and saved",
    "[auth][credentials]")
{
    refresher_rig rig;
    rig.sign_in(3600);
    auto const first = rig.stored();
    rig.start();
    auto a = rig.ask_one();
    CHECK(a.state == token_answer::kind::token);
    CHECK(a.text == first.access_token);
    CHECK(rig.auth.token_requests() == 0);

    rig.now += 3600 - 100; // inside the two-minute margin
    auto b = rig.ask_one();
    REQUIRE(b.state == token_answer::kind::token);
    CHECK(b.text != first.access_token);
    CHECK(b.text == rig.auth.access_tokens().back());
    CHECK(rig.auth.token_requests("refresh_token") == 1);
    // The rotated refresh token reached the file before the new access token was handed out.
    auto const saved = rig.stored();
    CHECK(saved.access_token == b.text);
    CHECK(saved.refresh_token == rig.auth.refresh_tokens().back());
    CHECK(saved.refresh_token != first.refresh_token);
    CHECK(saved.expires_at == rig.now + 3600);
    CHECK(file_mode(rig.dir.file("tokens.json")) == 0600);
    // And the next call uses it without asking again.
    CHECK(rig.ask_one().text == b.text);
    CHECK(rig.auth.token_requests() == 1);
}

TEST_CASE("concurrent calls share one renewal", "[auth][credentials]")
{
    refresher_rig rig;
    rig.sign_in(10);
    rig.auth.set_token_delay(std::chrono::milliseconds(200));
    rig.start();
    rig.now += 20; // expired
    auto answers = rig.ask(20);
    CHECK(rig.auth.token_requests("refresh_token") == 1);
    for (auto const& a : answers) {
        CHECK(a.state == token_answer::kind::token);
        CHECK(a.text == rig.auth.access_tokens().back());
    }
}

TEST_CASE("two processes sharing a store spend a refresh token once", "[auth][credentials]")
{
    // Two refreshers over one file stand for two toolgate processes (two desktop clients):
    // their renewal locks are separate open files, which exclude each other as processes do.
    refresher_rig rig;
    rig.sign_in(10);
    rig.auth.set_token_delay(std::chrono::milliseconds(300));
    rig.start();
    auto first = rig.refresher;
    rig.start();
    auto second = rig.refresher;
    rig.now += 20;
    std::optional<token_answer> a;
    std::optional<token_answer> b;
    boost::asio::co_spawn(rig.io, first->access_token("StoreApi", {}),
        [&](std::exception_ptr, token_answer t) { a = std::move(t); });
    boost::asio::co_spawn(rig.io, second->access_token("StoreApi", {}),
        [&](std::exception_ptr, token_answer t) { b = std::move(t); });
    rig.io.restart();
    for (int i = 0; i < 200 && !(a && b); ++i) {
        rig.io.run_for(std::chrono::milliseconds(50));
    }
    REQUIRE(a.has_value());
    REQUIRE(b.has_value());
    CHECK(a->state == token_answer::kind::token);
    CHECK(b->state == token_answer::kind::token);
    CHECK(a->text == b->text);
    CHECK(rig.auth.token_requests("refresh_token") == 1);
    CHECK(rig.stored().access_token == a->text);
}

TEST_CASE("a 401 to a fresh token renews it, and a token already renewed is handed out",
    "[auth][credentials]")
{
    refresher_rig rig;
    rig.sign_in(3600);
    rig.start();
    auto const refused = rig.stored().access_token;
    auto a = rig.ask_one(refused);
    REQUIRE(a.state == token_answer::kind::token);
    CHECK(a.text != refused);
    CHECK(rig.auth.token_requests("refresh_token") == 1);
    // A second caller holding the same refused token gets the new one without a renewal.
    auto b = rig.ask_one(refused);
    CHECK(b.text == a.text);
    CHECK(rig.auth.token_requests("refresh_token") == 1);
}

TEST_CASE("third review 11: a renewal forced by a 401 that did not help waits before the next",
    "[auth][credentials][review3]")
{
    refresher_rig rig;
    rig.sign_in(3600);
    rig.start();
    auto const first = rig.stored().access_token;
    auto renewed = rig.ask_one(first); // the platform refused a fresh token: renewed at once
    REQUIRE(renewed.state == token_answer::kind::token);
    CHECK(renewed.text != first);
    CHECK(rig.auth.token_requests("refresh_token") == 1);
    // The platform refuses the new token too (it answers 401 to everything): the calls in
    // the pause get its 401, not a renewal each.
    for (int call = 0; call < 5; ++call) {
        auto same = rig.ask_one(renewed.text);
        REQUIRE(same.state == token_answer::kind::token);
        CHECK(same.text == renewed.text);
    }
    CHECK(rig.auth.token_requests("refresh_token") == 1);
    // After the pause, one more renewal; when that does not help either, the pause doubles.
    rig.now += token_refresher::first_pause;
    auto again = rig.ask_one(renewed.text);
    CHECK(again.text != renewed.text);
    CHECK(rig.auth.token_requests("refresh_token") == 2);
    rig.now += token_refresher::first_pause;
    CHECK(rig.ask_one(again.text).text == again.text);
    CHECK(rig.auth.token_requests("refresh_token") == 2);
    rig.now += token_refresher::first_pause;
    CHECK(rig.ask_one(again.text).text != again.text);
    CHECK(rig.auth.token_requests("refresh_token") == 3);
}

TEST_CASE("third review 13: another process's renewal lock keeps a call waiting briefly only",
    "[auth][credentials][review3]")
{
    refresher_rig rig;
    rig.sign_in(100);
    rig.start(std::chrono::milliseconds(300));
    // Another process (here another open file on the same lock) is renewing.
    auto held = token_file(rig.dir.file("tokens.json")).try_renewal_lock("", "StoreApi");
    REQUIRE(held);
    SECTION("a token still valid is used meanwhile")
    {
        rig.now += 90; // due for renewal (margin 25 s), not expired
        auto a = rig.ask_one();
        REQUIRE(a.state == token_answer::kind::token);
        CHECK(a.text == rig.stored().access_token);
    }
    SECTION("an expired one: call again shortly")
    {
        rig.now += 200;
        auto a = rig.ask_one();
        REQUIRE(a.state == token_answer::kind::failed);
        CHECK_THAT(
            a.text, Catch::Contains("another toolgate process") && Catch::Contains("call again"));
        // A lock held longer than a renewal can take (the token file's patience, 70 s)
        // belongs to a stuck process: go ahead.
        rig.now += 70;
        CHECK(rig.ask_one().state == token_answer::kind::token);
        CHECK(rig.auth.token_requests("refresh_token") == 1);
    }
    CHECK(rig.auth.token_requests("refresh_token") <= 1);
}

TEST_CASE("third review 11 and 13 per principal: one client's forced-renewal pause and held "
          "renewal lock are its own",
    "[auth][credentials][review3][sign-in]")
{
    refresher_rig rig;
    rig.sign_in(3600);
    rig.sign_in(3600, "authorization_code", "static:alice");
    rig.start(std::chrono::milliseconds(300));
    SECTION("the pause after a forced renewal that did not help")
    {
        rig.who = "static:alice";
        auto const alice_first = rig.stored().access_token;
        auto const alice = rig.ask_one(alice_first);
        CHECK(alice.text != alice_first);
        CHECK(rig.auth.token_requests("refresh_token") == 1);
        // The server's own first 401 renews at once: alice's pause is not the server's.
        rig.who = "";
        auto const own_first = rig.stored().access_token;
        auto const own = rig.ask_one(own_first);
        CHECK(own.text != own_first);
        CHECK(rig.auth.token_requests("refresh_token") == 2);
        // And the server's renewal did not lift alice's pause: her token is kept.
        rig.who = "static:alice";
        CHECK(rig.ask_one(alice.text).text == alice.text);
        rig.who = "";
        CHECK(rig.ask_one(own.text).text == own.text);
        CHECK(rig.auth.token_requests("refresh_token") == 2);
    }
    SECTION("the wait for another process's renewal lock")
    {
        // Another process is renewing alice's tokens only.
        auto held
            = token_file(rig.dir.file("tokens.json")).try_renewal_lock("static:alice", "StoreApi");
        REQUIRE(held);
        rig.now += 3700; // both expired
        rig.who = "static:alice";
        auto const waiting = rig.ask_one();
        REQUIRE(waiting.state == token_answer::kind::failed);
        CHECK_THAT(waiting.text, Catch::Contains("another toolgate process"));
        rig.who = "";
        CHECK(rig.ask_one().state == token_answer::kind::token); // the server's lock is free
        CHECK(rig.auth.token_requests("refresh_token") == 1);
        // Alice's lock has been held since her first call, whatever the server's did: after
        // the token file's patience (70 s) it is taken to be stuck.
        rig.now += 70;
        rig.who = "static:alice";
        CHECK(rig.ask_one().state == token_answer::kind::token);
        CHECK(rig.auth.token_requests("refresh_token") == 2);
    }
}

TEST_CASE("invalid_grant tells to sign in again and is not retried", "[auth][credentials]")
{
    refresher_rig rig;
    rig.sign_in(10);
    rig.start();
    rig.auth.revoke_refresh_tokens();
    rig.now += 20;
    auto a = rig.ask_one();
    REQUIRE(a.state == token_answer::kind::failed);
    CHECK(a.text.find("invalid_grant") != std::string::npos);
    CHECK(a.text.find("toolgate auth login StoreApi") != std::string::npos);
    CHECK(a.text.find("S3CR3T") == std::string::npos);
    rig.now += 5;
    auto b = rig.ask_one();
    CHECK(b.state == token_answer::kind::failed);
    CHECK(rig.auth.token_requests("refresh_token") == 1);
}

TEST_CASE("a failing or slow token endpoint: a still valid token is kept, an expired one fails",
    "[auth][credentials]")
{
    refresher_rig rig;
    rig.sign_in(400); // margin 100 s
    auto const first = rig.stored();
    rig.start();
    SECTION("failing")
    {
        rig.auth.fail_token_requests(500);
        rig.now += 350; // due for renewal, not expired
        auto a = rig.ask_one();
        REQUIRE(a.state == token_answer::kind::token);
        CHECK(a.text == first.access_token);
        rig.now += 100; // expired now
        auto b = rig.ask_one();
        REQUIRE(b.state == token_answer::kind::failed);
        CHECK(b.text.find("HTTP 500") != std::string::npos);
        CHECK(b.text.find("call again") != std::string::npos);
        CHECK(rig.stored() == first); // the refresh token is kept for a later attempt
        rig.auth.fail_token_requests(0);
        CHECK(rig.ask_one().state == token_answer::kind::token);
    }
    SECTION("slower than the deadline")
    {
        rig.auth.set_token_delay(std::chrono::milliseconds(3000));
        rig.now += 500;
        auto const started = std::chrono::steady_clock::now();
        auto a = rig.ask_one();
        CHECK(std::chrono::steady_clock::now() - started < std::chrono::milliseconds(2900));
        REQUIRE(a.state == token_answer::kind::failed);
        CHECK(a.text.find("could not be reached") != std::string::npos);
    }
    SECTION("slow but in time")
    {
        rig.auth.set_token_delay(std::chrono::milliseconds(300));
        rig.now += 500;
        CHECK(rig.ask_one().state == token_answer::kind::token);
    }
}

TEST_CASE("client-credentials tokens are renewed with the same grant", "[auth][credentials]")
{
    fake_auth_options options;
    options.subject_required = true;
    refresher_rig rig(options);
    rig.sign_in(60, "client_credentials");
    {
        auto e = rig.stored();
        e.subject_type = "enterprise";
        e.subject_id = "12345";
        token_file(rig.dir.file("tokens.json")).update("StoreApi", e);
    }
    rig.start();
    rig.now += 60;
    auto a = rig.ask_one();
    REQUIRE(a.state == token_answer::kind::token);
    CHECK(rig.auth.token_requests("client_credentials") == 1);
    auto const saved = rig.stored();
    CHECK(saved.grant == "client_credentials");
    CHECK(saved.subject_id == "12345");
    CHECK(saved.refresh_token.empty());
}

TEST_CASE("the accounting platform's client authenticates with HTTP Basic", "[auth][credentials]")
{
    fake_auth_options options;
    options.basic_auth = true;
    refresher_rig rig(options, "LedgerApi");
    rig.sign_in(1800);
    rig.start();
    rig.now += 1800;
    auto a = rig.ask_one();
    REQUIRE(a.state == token_answer::kind::token);
    auto const requests = rig.auth.platform().requests();
    REQUIRE(!requests.empty());
    CHECK(requests.back().header("Authorization").starts_with("Basic "));
    CHECK(requests.back().body.find("client_secret") == std::string::npos);
}

TEST_CASE("a sign-in written while the server runs is picked up", "[auth][credentials]")
{
    refresher_rig rig;
    rig.start();
    CHECK(rig.ask_one().state == token_answer::kind::none);
    rig.sign_in(3600);
    rig.now += 2; // the file is looked at again at most once a second
    auto a = rig.ask_one();
    REQUIRE(a.state == token_answer::kind::token);
    CHECK(a.text == rig.stored().access_token);
}

TEST_CASE("each request's credentials: headers, then the principal's, then the server's if shared",
    "[auth][credentials]")
{
    temp_dir dir;
    write_file(dir.file("secrets.env"), "DEPLOY_ACCESS_TOKEN=zq-server-S3CR3T\nKANBAN_TOKEN=srv\n");
    write_file(dir.file("clients.ini"),
        "[static:alice]\nDEPLOY_ACCESS_TOKEN=zq-alice-S3CR3T\n[jwt:bob]\nKANBAN_TOKEN=b\n");
    boost::asio::io_context io;
    toolgate::transport::https_client client(io, {});
    credential_settings s;
    s.secrets_file = dir.file("secrets.env");
    s.credentials_file = dir.file("clients.ini");
    s.token_store = dir.file("tokens.json");
    s.per_request = true;
    // The server's own sign-in, which only --shared-credentials lends to clients.
    token_entry own;
    own.grant = "authorization_code";
    own.access_token = "zq-own-S3CR3T";
    token_file(s.token_store).update("StoreApi", own);

    auto const headers = [](std::string value) {
        return toolgate::transport::header_list { { "toolgate-secret-deploy_access_token",
            value } };
    };
    SECTION("not shared")
    {
        credential_hub hub(s, client);
        CHECK(hub.multi_user());
        auto alice = hub.for_request("static:alice", {});
        REQUIRE(alice.has_value());
        REQUIRE(*alice);
        CHECK(alice.value()->secrets->find("DEPLOY_ACCESS_TOKEN") == "zq-alice-S3CR3T");
        CHECK_FALSE(alice.value()->secrets->find("KANBAN_TOKEN").has_value());
        // Her own sign-ins only (she has none): never the server's.
        REQUIRE(alice.value()->tokens);
        CHECK_FALSE(alice.value()->tokens->has_token("StoreApi"));
        auto with_header = hub.for_request("static:alice", headers("zq-header-S3CR3T"));
        CHECK(with_header.value()->secrets->find("DEPLOY_ACCESS_TOKEN") == "zq-header-S3CR3T");
        // Hyphens stand for underscores (proxies drop header names with underscores).
        auto hyphens = hub.for_request(
            "jwt:carol", { { "toolgate-secret-deploy-access-token", "zq-carol-S3CR3T" } });
        CHECK(hyphens.value()->secrets->find("DEPLOY_ACCESS_TOKEN") == "zq-carol-S3CR3T");
        auto stranger = hub.for_request("jwt:mallory", {});
        CHECK_FALSE(stranger.value()->secrets->find("DEPLOY_ACCESS_TOKEN").has_value());
        CHECK(stranger.value()->secrets->missing_hint(false).find("Toolgate-Secret")
            != std::string::npos);
        // The server's own (single-user) source still has the file's value.
        CHECK(hub.server_secrets()->find("DEPLOY_ACCESS_TOKEN") == "zq-server-S3CR3T");
    }
    SECTION("shared")
    {
        s.shared = true;
        credential_hub hub(s, client);
        auto bob = hub.for_request("jwt:bob", {});
        CHECK(bob.value()->secrets->find("KANBAN_TOKEN") == "b");
        CHECK(bob.value()->secrets->find("DEPLOY_ACCESS_TOKEN") == "zq-server-S3CR3T");
        // His own sign-ins first, then the server's.
        REQUIRE(bob.value()->tokens);
        CHECK(bob.value()->tokens->has_token("StoreApi"));
    }
    SECTION("refusals never echo a value")
    {
        credential_hub hub(s, client);
        auto unknown = hub.for_request("jwt:bob", { { "toolgate-secret-zq_S3CR3T", "v" } });
        CHECK(unknown.error().message.find("names no variable") != std::string::npos);
        CHECK(unknown.error().message.find("S3CR3T") == std::string::npos);
        CHECK(hub.for_request("jwt:bob", headers("")).error().message.find("empty")
            != std::string::npos);
        toolgate::transport::header_list twice { { "toolgate-secret-kanban_token", "zq-1-S3CR3T" },
            { "toolgate-secret-kanban_token", "zq-2-S3CR3T" } };
        auto dup = hub.for_request("jwt:bob", twice);
        CHECK(dup.error().message.find("twice") != std::string::npos);
        CHECK(dup.error().message.find("S3CR3T") == std::string::npos);
        s.per_request = false;
        credential_hub no_headers(s, client);
        auto off = no_headers.for_request("jwt:bob", headers("zq-x-S3CR3T"));
        CHECK(off.error().message.find("--per-request-credentials") != std::string::npos);
        CHECK(off.error().message.find("S3CR3T") == std::string::npos);
    }
    SECTION("single user: the server's, and no per-call object")
    {
        s.per_request = false;
        s.credentials_file.clear();
        credential_hub hub(s, client);
        CHECK_FALSE(hub.multi_user());
        auto r = hub.for_request("", {});
        REQUIRE(r.has_value());
        CHECK(*r == nullptr);
    }
    SECTION("reload names what changed, never values")
    {
        credential_hub hub(s, client);
        write_file(dir.file("secrets.env"), "DEPLOY_ACCESS_TOKEN=zq-rotated-S3CR3T\n");
        write_file(dir.file("clients.ini"),
            "[static:alice]\nDEPLOY_ACCESS_TOKEN=zq-alice2-S3CR3T\n[jwt:bob]\nKANBAN_TOKEN=b\n");
        auto const summary = hub.reload();
        CHECK(summary.find("secrets file: changed DEPLOY_ACCESS_TOKEN; removed KANBAN_TOKEN")
            != std::string::npos);
        CHECK(summary.find("credentials file: 2 client(s), changed for static:alice")
            != std::string::npos);
        CHECK(summary.find("S3CR3T") == std::string::npos);
        CHECK(hub.server_secrets()->find("DEPLOY_ACCESS_TOKEN") == "zq-rotated-S3CR3T");
        CHECK(hub.for_request("static:alice", {}).value()->secrets->find("DEPLOY_ACCESS_TOKEN")
            == "zq-alice2-S3CR3T");
        // A file broken meanwhile keeps the previous contents.
        write_file(dir.file("secrets.env"), "DEPLOY_ACCESS_TOKEN=x\n", 0644);
        auto const kept = hub.reload();
        CHECK(kept.find("secrets file NOT reloaded") != std::string::npos);
        CHECK(hub.server_secrets()->find("DEPLOY_ACCESS_TOKEN") == "zq-rotated-S3CR3T");
    }
}
