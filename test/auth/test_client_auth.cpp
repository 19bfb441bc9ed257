// Static tokens, the per-request decision, challenges and metadata, and the session binding
// to the authenticated principal.
#include "auth/client_auth.hpp"
#include "mcp/session_registry.hpp"
#include "token_forge.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/json/parse.hpp>
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <cstdlib>

using namespace toolgate::mcp;
using namespace toolgate::auth;
using namespace toolgate::testing;
using verdict = auth_decision::verdict;

namespace {

toolgate::transport::http_request with_auth(std::string value, std::string target = "/mcp")
{
    toolgate::transport::http_request r;
    r.method = "POST";
    r.target = std::move(target);
    r.path = "/mcp";
    if (!value.empty()) {
        r.headers.emplace_back("authorization", std::move(value));
    }
    return r;
}

std::string header_of(client_auth::answer const& a, std::string_view name)
{
    for (auto const& [n, v] : a.headers) {
        if (n == name) {
            return v;
        }
    }
    return {};
}

} // namespace

TEST_CASE("static tokens: several at once, file with comments, comma list", "[auth]")
{
    temp_file file(
        "# rotation: old and new\n  old-token-aaaaaaaaaaaa  \n\nnew-token-bbbbbbbbbbbb\r\n#x\n");
    auto const tokens = read_token_file(file.path());
    REQUIRE(
        tokens == std::vector<std::string> { "old-token-aaaaaaaaaaaa", "new-token-bbbbbbbbbbbb" });
    CHECK_THROWS_AS(read_token_file("/nonexistent/toolgate-tokens"), std::invalid_argument);

    static_tokens set;
    for (auto const& t : tokens) {
        set.add(t);
    }
    auto const a = set.match("old-token-aaaaaaaaaaaa");
    auto const b = set.match("new-token-bbbbbbbbbbbb");
    REQUIRE(a);
    REQUIRE(b);
    CHECK(a->starts_with("static:"));
    CHECK(*a != *b);
    CHECK(a->find("aaaa") == std::string::npos);
    CHECK_FALSE(set.match("old-token-aaaaaaaaaaa"));
    CHECK_FALSE(set.match("old-token-aaaaaaaaaaaaa"));
    CHECK_FALSE(set.match(""));
}

TEST_CASE("the request decision: header only, Bearer only, one header", "[auth]")
{
    auth_settings settings;
    settings.tokens.add("good-token-cccccccccccc");
    client_auth auth(std::move(settings));
    CHECK(auth.check(with_auth("Bearer good-token-cccccccccccc")).result == verdict::allowed);
    CHECK(auth.check(with_auth("bearer   good-token-cccccccccccc ")).result == verdict::allowed);
    CHECK(auth.check(with_auth("")).result == verdict::missing);
    CHECK(auth.check(with_auth("Basic Z29vZDp0b2tlbg==")).result == verdict::missing);
    CHECK(auth.check(with_auth("Bearer ")).result == verdict::missing);
    CHECK(auth.check(with_auth("Bearer  x")).result == verdict::invalid);
    CHECK(auth.check(with_auth("Bearer wrong")).result == verdict::invalid);
    CHECK(auth.check(with_auth("", "/mcp?access_token=good-token-cccccccccccc")).result
        == verdict::bad_request);
    auto twice = with_auth("Bearer good-token-cccccccccccc");
    twice.headers.emplace_back("authorization", "Bearer good-token-cccccccccccc");
    CHECK(auth.check(twice).result == verdict::bad_request);

    auto const refused = auth.refuse(auth.check(with_auth("Bearer wrong")));
    CHECK(refused.status == 401);
    CHECK(header_of(refused, "WWW-Authenticate").starts_with("Bearer realm=\"toolgate\""));
    CHECK(header_of(refused, "WWW-Authenticate").find("error=\"invalid_token\"")
        != std::string::npos);
    CHECK(refused.body.find("wrong") == std::string::npos);
    CHECK_FALSE(auth.metadata("/.well-known/oauth-protected-resource", "/mcp"));
}

TEST_CASE("OAuth mode: challenges name the metadata, scopes give 403, metadata is served", "[auth]")
{
    auto const key = test_key::ec("k1");
    auth_settings settings;
    settings.jwt.emplace(jwks::from_json(make_jwks({ &key })),
        jwt_policy { "https://as.example.test", "", std::chrono::seconds(5) });
    settings.required_scopes = { "mcp:call", "offline_access" };
    settings.authorization_servers = { "https://as.example.test" };
    client_auth auth(std::move(settings));
    auth.set_resource("https://mcp.example.test/mcp");
    CHECK(
        auth.metadata_url() == "https://mcp.example.test/.well-known/oauth-protected-resource/mcp");

    auto const missing = auth.refuse(auth.check(with_auth("")));
    CHECK(missing.status == 401);
    CHECK(header_of(missing, "WWW-Authenticate")
        == "Bearer scope=\"mcp:call offline_access\", resource_metadata=\"https://mcp.example.test/"
           ".well-known/oauth-protected-resource/mcp\"");

    auto const token = [&](std::string aud, std::string scope) {
        return "Bearer "
            + key.token(fmt::format(
                R"({{"iss":"https://as.example.test","aud":"{}","sub":"u1","exp":{},"scope":"{}"}})",
                aud, epoch_seconds(std::chrono::seconds(60)), scope));
    };
    auto ok
        = auth.check(with_auth(token("https://mcp.example.test/mcp", "mcp:call offline_access x")));
    CHECK(ok.result == verdict::allowed);
    CHECK(ok.principal == "jwt:u1");

    auto wrong_aud = auth.check(with_auth(token("https://other.example.test/mcp", "mcp:call")));
    CHECK(wrong_aud.result == verdict::invalid);
    auto const r401 = auth.refuse(wrong_aud);
    CHECK(r401.status == 401);
    CHECK(header_of(r401, "WWW-Authenticate").find("error=\"invalid_token\"") != std::string::npos);
    CHECK(header_of(r401, "WWW-Authenticate").find("resource_metadata=") != std::string::npos);

    auto scope = auth.check(with_auth(token("https://mcp.example.test/mcp", "mcp:read")));
    CHECK(scope.result == verdict::insufficient_scope);
    auto const r403 = auth.refuse(scope);
    CHECK(r403.status == 403);
    CHECK(header_of(r403, "WWW-Authenticate")
        == "Bearer error=\"insufficient_scope\", scope=\"mcp:call offline_access\", "
           "resource_metadata=\"https://mcp.example.test/.well-known/oauth-protected-resource/"
           "mcp\"");

    for (auto path :
        { "/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp" }) {
        auto doc = auth.metadata(path, "/mcp");
        REQUIRE(doc);
        auto const v = boost::json::parse(doc->body).as_object();
        CHECK(v.at("resource") == "https://mcp.example.test/mcp");
        CHECK(v.at("authorization_servers").as_array().at(0) == "https://as.example.test");
        CHECK(v.at("bearer_methods_supported").as_array().at(0) == "header");
        CHECK(v.at("scopes_supported").as_array().size() == 1); // offline_access left out
    }
    CHECK_FALSE(auth.metadata("/.well-known/oauth-protected-resource/other", "/mcp"));
}

TEST_CASE("configuration: flags and TOOLGATE_AUTH_TOKENS, OAuth flags need a JWKS", "[auth]")
{
    client_auth_options cfg;
    ::unsetenv("TOOLGATE_AUTH_TOKENS");
    CHECK(client_auth::from_options(cfg) == nullptr);
    // A comma list (common::split_list): blanks around items and empty items do not count.
    ::setenv("TOOLGATE_AUTH_TOKENS", " env-token-dddddddddddd, ,env-token-eeeeeeeeeeee ", 1);
    auto from_env = client_auth::from_options(cfg);
    ::unsetenv("TOOLGATE_AUTH_TOKENS");
    REQUIRE(from_env);
    CHECK(from_env->static_token_count() == 2);
    CHECK(from_env->check(with_auth("Bearer env-token-eeeeeeeeeeee")).result == verdict::allowed);

    temp_file empty("# nothing\n");
    cfg.token_file = empty.path();
    CHECK_THROWS_AS(client_auth::from_options(cfg), std::invalid_argument);
    cfg.token_file.clear();
    cfg.issuer = "https://as.example.test";
    CHECK_THROWS_WITH(client_auth::from_options(cfg), Catch::Contains("--oauth-jwks-file"));
    auto const key = test_key::rsa("r");
    temp_file jwks_file(make_jwks({ &key }));
    cfg.jwks_file = jwks_file.path();
    cfg.host = "0.0.0.0";
    CHECK_THROWS_WITH(client_auth::from_options(cfg), Catch::Contains("--oauth-audience"));
    cfg.host = "127.0.0.1";
    auto oauth = client_auth::from_options(cfg);
    REQUIRE(oauth);
    CHECK(oauth->oauth());
    CHECK(oauth->resource().empty()); // set by serve_http once the port is known
    temp_file bad_jwks(R"({"keys":[{"kty":"RSA","n":"AQAB","e":"AQAB"}]})");
    cfg.jwks_file = bad_jwks.path();
    CHECK_THROWS_AS(client_auth::from_options(cfg), std::invalid_argument);
}

TEST_CASE("a session belongs to the principal that opened it", "[auth]")
{
    boost::asio::io_context ioc;
    session_registry sessions(ioc.get_executor(), toolgate::transport::session_signer("k"),
        std::chrono::seconds(60), std::chrono::seconds(3600));
    auto id = sessions.open(sessions.make_conversation(), "2025-06-18", "static:alice");
    CHECK(sessions.find(id, "static:alice"));
    CHECK_FALSE(sessions.find(id, "static:bob"));
    CHECK_FALSE(sessions.find(id));

    // Another replica (same key) adopts the id only for the same principal.
    session_registry replica(ioc.get_executor(), toolgate::transport::session_signer("k"),
        std::chrono::seconds(60), std::chrono::seconds(3600));
    CHECK_FALSE(replica.find(id, "static:bob"));
    CHECK(replica.find(id, "static:alice"));
}
