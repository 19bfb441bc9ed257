// Requests to a 2025 client and their answers (mcp/client_requests.hpp): routed back by id to
// the waiting call, an error answer passed on, a timeout and a closed conversation reported,
// and a cancelled call withdrawing its request.
#include "mcp/client_requests.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <catch2/catch.hpp>

#include <vector>

using namespace toolgate;
namespace asio = boost::asio;
namespace json = boost::json;
using result_type = protocol::rpc_result<json::value>;

namespace {

class recording_sink final : public transport::message_sink {
public:
    void send(std::string message) override { sent.push_back(json::parse(message).as_object()); }
    std::vector<json::object> sent;
};

protocol::message response(std::string const& text)
{
    return protocol::classify(json::parse(text)).value();
}

struct asking {
    asio::io_context ioc;
    mcp::client_requests requests;
    std::shared_ptr<recording_sink> sink = std::make_shared<recording_sink>();
    std::optional<result_type> result;
    std::exception_ptr failure;

    void start(std::chrono::milliseconds timeout = std::chrono::seconds(5))
    {
        asio::co_spawn(ioc,
            requests.ask(sink, "elicitation/create", json::object { { "mode", "form" } }, timeout),
            [this](std::exception_ptr e, result_type r) {
                failure = e;
                if (!e) {
                    result = std::move(r);
                }
            });
        ioc.run_for(std::chrono::milliseconds(20));
        REQUIRE(sink->sent.size() == 1);
    }
    json::value sent_id() const { return sink->sent.at(0).at("id"); }
};

} // namespace

TEST_CASE("client requests: the answer with our id reaches the waiting call", "[mcp][elicitation]")
{
    asking a;
    a.start();
    CHECK(a.sink->sent[0].at("method") == "elicitation/create");
    CHECK(a.sink->sent[0].at("jsonrpc") == "2.0");
    CHECK(a.requests.waiting() == 1);
    // Another id is no answer to it.
    CHECK_FALSE(a.requests.deliver(response(R"({"jsonrpc":"2.0","id":"other","result":{}})")));
    auto const id = json::serialize(a.sent_id());
    SECTION("a result")
    {
        CHECK(a.requests.deliver(
            response(R"({"jsonrpc":"2.0","id":)" + id + R"(,"result":{"action":"accept"}})")));
        a.ioc.run_for(std::chrono::milliseconds(50));
        REQUIRE(a.result);
        REQUIRE(a.result->has_value());
        CHECK(a.result->value().at("action") == "accept");
    }
    SECTION("an error")
    {
        CHECK(a.requests.deliver(response(R"({"jsonrpc":"2.0","id":)" + id
            + R"(,"error":{"code":-32602,"message":"mode not supported"}})")));
        a.ioc.run_for(std::chrono::milliseconds(50));
        REQUIRE(a.result);
        REQUIRE_FALSE(a.result->has_value());
        CHECK(a.result->error().code == -32602);
        CHECK(a.result->error().message == "mode not supported");
    }
    CHECK(a.requests.waiting() == 0);
    // Answered once: a second answer finds no one.
    CHECK_FALSE(
        a.requests.deliver(response(R"({"jsonrpc":"2.0","id":)" + id + R"(,"result":{}})")));
}

TEST_CASE(
    "client requests: no answer in time is an error and the client is told", "[mcp][elicitation]")
{
    asking a;
    a.start(std::chrono::milliseconds(30));
    a.ioc.run_for(std::chrono::milliseconds(200));
    REQUIRE(a.result);
    REQUIRE_FALSE(a.result->has_value());
    CHECK_THAT(a.result->error().message, Catch::Contains("did not answer"));
    REQUIRE(a.sink->sent.size() == 2);
    CHECK(a.sink->sent[1].at("method") == "notifications/cancelled");
    CHECK(a.sink->sent[1].at("params").at("requestId") == a.sent_id());
}

TEST_CASE("client requests: a conversation that ends ends the waits", "[mcp][elicitation]")
{
    asking a;
    a.start();
    a.requests.close();
    a.ioc.run_for(std::chrono::milliseconds(50));
    REQUIRE(a.result);
    REQUIRE_FALSE(a.result->has_value());
    CHECK_THAT(a.result->error().message, Catch::Contains("session ended"));
    // Nothing can be asked afterwards.
    std::optional<result_type> later;
    asio::co_spawn(a.ioc, a.requests.ask(a.sink, "elicitation/create", {}, std::chrono::seconds(1)),
        [&](std::exception_ptr, result_type r) { later = std::move(r); });
    a.ioc.restart();
    a.ioc.run_for(std::chrono::milliseconds(50));
    REQUIRE(later);
    CHECK_FALSE(later->has_value());
}
