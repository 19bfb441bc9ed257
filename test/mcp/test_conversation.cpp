// conversation: a 2025 conversation's state and its calls in flight, behind its own lock.
#include "mcp/conversation.hpp"
#include "protocol/jsonrpc.hpp"
#include "protocol/tool_descriptor.hpp"
#include "protocol/tool_index.hpp"
#include "protocol/tool_pages.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/json/parse.hpp>
#include <catch2/catch.hpp>

using namespace toolgate;
using mcp::conversation;
namespace asio = boost::asio;

namespace {

std::shared_ptr<mcp::inflight_call> registered(
    boost::system::result<std::shared_ptr<mcp::inflight_call>, conversation::refusal> r)
{
    REQUIRE(r.has_value());
    return *r;
}

} // namespace

TEST_CASE("conversation: a call id is registered once, up to the limit", "[conversation]")
{
    asio::io_context ioc;
    conversation conv(ioc.get_executor());
    CHECK_FALSE(conv.has_calls_in_flight());
    registered(conv.register_call("1", ioc.get_executor(), 2));
    CHECK(conv.has_calls_in_flight());
    auto again = conv.register_call("1", ioc.get_executor(), 2);
    REQUIRE(again.has_error());
    CHECK(again.error() == conversation::refusal::duplicate_id);
    registered(conv.register_call("\"1\"", ioc.get_executor(), 2)); // the string id "1" differs
    auto full = conv.register_call("3", ioc.get_executor(), 2);
    REQUIRE(full.has_error());
    CHECK(full.error() == conversation::refusal::full);
    conv.unregister_call("1");
    registered(conv.register_call("1", ioc.get_executor(), 2)); // the id is free again
}

TEST_CASE("conversation: cancelling reaches the named call on its executor", "[conversation]")
{
    asio::io_context ioc;
    conversation conv(ioc.get_executor());
    auto first = registered(conv.register_call("1", ioc.get_executor(), 8));
    auto second = registered(conv.register_call("2", ioc.get_executor(), 8));
    int emitted = 0;
    first->signal.slot().assign([&](asio::cancellation_type) { ++emitted; });
    conv.cancel_call("1");
    conv.cancel_call("99"); // unknown: ignored
    CHECK(first->cancelled);
    CHECK_FALSE(second->cancelled);
    CHECK(emitted == 0); // not here: on the call's executor
    ioc.run();
    CHECK(emitted == 1);
    conv.cancel_all_calls();
    CHECK(second->cancelled);
}

TEST_CASE("conversation: adopting a session sets its revision and batch rule", "[conversation]")
{
    asio::io_context ioc;
    conversation conv(ioc.get_executor());
    CHECK(conv.negotiated_version().empty());
    CHECK_FALSE(conv.takes_batches()); // not initialized
    conv.adopt("2025-06-18");
    CHECK(conv.negotiated_version() == "2025-06-18");
    CHECK_FALSE(conv.takes_batches());
    conversation old(ioc.get_executor());
    old.adopt("2025-03-26");
    CHECK(old.takes_batches());
}

TEST_CASE("conversation: initialize through dispatch changes its state", "[conversation]")
{
    asio::io_context ioc;
    conversation conv(ioc.get_executor());
    std::vector<protocol::tool_descriptor> const no_tools;
    protocol::server_identity identity;
    identity.version = "1.0.0";
    protocol::tool_index index(no_tools);
    protocol::tool_pages pages(no_tools, protocol::tool_naming::wire, 0, identity);
    protocol::dispatcher dispatcher(identity, pages, index);
    auto msg = protocol::classify(
        boost::json::parse(
            R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26",)"
            R"("capabilities":{},"clientInfo":{"name":"t","version":"1"}}})"))
                   .value();
    auto outcome = conv.dispatch(dispatcher, msg, dispatcher.default_view());
    CHECK(std::holds_alternative<protocol::reply>(outcome));
    CHECK(conv.negotiated_version() == "2025-03-26");
    CHECK(conv.takes_batches());
}
