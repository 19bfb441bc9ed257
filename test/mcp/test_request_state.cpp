// Signed requestStates (mcp/request_state.hpp): MRTR's server requirements — integrity, the
// principal, a short expiry and the originating call — each checked, with a clear refusal.
#include "mcp/request_state.hpp"
#include "transport/keyed_seal.hpp"

#include <boost/json/parse.hpp>
#include <catch2/catch.hpp>

using namespace toolgate;
using mcp::request_state_signer;
namespace json = boost::json;

namespace {

std::string const key(32, 'k');

std::string refusal(protocol::rpc_result<json::object> const& r)
{
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().code == protocol::error_code::invalid_params);
    return r.error().message;
}

} // namespace

TEST_CASE("request state: issued for a call, it verifies for that call only", "[mcp][mrtr]")
{
    std::int64_t now = 1000;
    request_state_signer signer(key, std::chrono::seconds(600), [&] { return now; });
    auto const args = json::parse(R"({"folder_id":"7","limit":3})").as_object();
    json::object payload;
    payload["sign_in"] = "StoreApi";
    auto state = signer.issue({ "StoreApi.GetFolder", args, "static:alice" }, payload);

    auto ok = signer.verify(state, { "StoreApi.GetFolder", args, "static:alice" });
    REQUIRE(ok.has_value());
    CHECK(ok->at("sign_in") == "StoreApi");
    // The arguments' member order does not matter.
    auto const reordered = json::parse(R"({"limit":3,"folder_id":"7"})").as_object();
    CHECK(signer.verify(state, { "StoreApi.GetFolder", reordered, "static:alice" }).has_value());

    SECTION("foreign: another principal, another tool, other arguments")
    {
        auto const other = json::parse(R"({"folder_id":"8","limit":3})").as_object();
        for (auto r : { signer.verify(state, { "StoreApi.GetFolder", args, "static:bob" }),
                 signer.verify(state, { "StoreApi.DeleteFolder", args, "static:alice" }),
                 signer.verify(state, { "StoreApi.GetFolder", other, "static:alice" }) }) {
            CHECK_THAT(refusal(r), Catch::Contains("belongs to another call"));
        }
    }
    SECTION("expired: valid up to its lifetime, refused from then on")
    {
        now += 599;
        CHECK(signer.verify(state, { "StoreApi.GetFolder", args, "static:alice" }).has_value());
        now += 1;
        CHECK_THAT(refusal(signer.verify(state, { "StoreApi.GetFolder", args, "static:alice" })),
            Catch::Contains("expired"));
    }
    SECTION("altered or forged: refused without saying more")
    {
        auto altered = state;
        altered[altered.find('.') - 3] ^= 1;
        auto forged = request_state_signer(std::string(32, 'x'), std::chrono::seconds(600), [&] {
            return now;
        }).issue({ "StoreApi.GetFolder", args, "static:alice" }, payload);
        for (auto const& s :
            { altered, forged, std::string("garbage"), state.substr(0, state.find('.')) }) {
            auto msg = refusal(signer.verify(s, { "StoreApi.GetFolder", args, "static:alice" }));
            CHECK_THAT(msg, Catch::Contains("not issued by this server"));
            CHECK(msg.find(s) == std::string::npos);
        }
    }
}

TEST_CASE("request state: replicas sharing the secret accept each other's states", "[mcp][mrtr]")
{
    auto a = mcp::make_request_states("shared secret of the replicas");
    auto b = mcp::make_request_states("shared secret of the replicas");
    auto lone = mcp::make_request_states({});
    json::object const args;
    auto state = a->issue({ "T.X", args, "" }, json::object { { "k", 1 } });
    CHECK(b->verify(state, { "T.X", args, "" }).has_value());
    CHECK_FALSE(lone->verify(state, { "T.X", args, "" }).has_value());
}

TEST_CASE("key_for: a shared secret derives the same key everywhere, none gives a random one",
    "[mcp][mrtr]")
{
    auto const shared = transport::key_for("shared secret", "purpose");
    CHECK(shared == transport::derive_key("shared secret", "purpose"));
    CHECK(shared == transport::key_for("shared secret", "purpose"));
    CHECK(shared != transport::key_for("shared secret", "another purpose"));
    auto const lone = transport::key_for({}, "purpose");
    CHECK(lone.size() == 32);
    CHECK(lone != transport::key_for({}, "purpose"));
    CHECK(lone != transport::derive_key({}, "purpose"));
}

TEST_CASE("sealed tokens open only under their key and context, unaltered", "[mcp][mrtr]")
{
    auto const k1 = transport::derive_key("secret", "purpose one");
    auto const k2 = transport::derive_key("secret", "purpose two");
    CHECK(k1.size() == 32);
    CHECK(k1 != k2);
    auto token = transport::seal(k1, "static:alice|StoreApi", "ctx");
    CHECK(token.find("alice") == std::string::npos); // secret, not only signed
    CHECK(
        transport::unseal(k1, token, "ctx") == std::optional<std::string>("static:alice|StoreApi"));
    CHECK_FALSE(transport::unseal(k2, token, "ctx"));
    CHECK_FALSE(transport::unseal(k1, token, "other"));
    auto altered = token;
    altered[5] = altered[5] == 'A' ? 'B' : 'A';
    CHECK_FALSE(transport::unseal(k1, altered, "ctx"));
    CHECK(transport::seal(k1, "same", "ctx") != transport::seal(k1, "same", "ctx")); // fresh nonce
}
