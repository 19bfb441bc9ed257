// In-process regression tests for security review findings in the server's bookkeeping:
// ended session ids are forgotten after their maximum age (8), the age applies on the issuing
// replica (12), a batch's answer is bounded and shares its listing pages (2), and suggestions
// for over-long names cost nothing (3).
#include "mcp/router.hpp"
#include "mcp/session_registry.hpp"
#include "protocol/dispatcher.hpp"
#include "protocol/suggest.hpp"
#include "protocol/tool_index.hpp"
#include "protocol/tool_pages.hpp"
#include "test_tools.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json/parse.hpp>
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <fstream>
#include <string>
#include <thread>

using namespace toolgate;
using namespace std::chrono_literals;
namespace json = boost::json;

namespace {

/// A router over the test tools, as serve_http builds one.
struct router_fixture {
    explicit router_fixture(mcp::router_limits limits = {})
        : tools(testing::make_test_tools())
        , pages(tools->tools(), protocol::tool_naming::wire, 0, {})
        , index(tools->tools())
        , dispatcher({}, pages, index)
        , r(*tools, dispatcher, limits)
    {
    }
    std::unique_ptr<toolkits::tool_provider> tools;
    protocol::tool_pages pages;
    protocol::tool_index index;
    protocol::dispatcher dispatcher;
    mcp::router r;
    boost::asio::io_context ioc;
};

class null_sink final : public transport::message_sink {
public:
    void send(std::string) override { }
};

std::shared_ptr<mcp::conversation> initialized(
    boost::asio::io_context& ioc, std::string const& version)
{
    auto conv = std::make_shared<mcp::conversation>(ioc.get_executor());
    conv->adopt(version);
    return conv;
}

mcp::router::batch_outcome run_batch(
    router_fixture& f, std::shared_ptr<mcp::conversation> conv, std::string const& text)
{
    std::optional<mcp::router::batch_outcome> out;
    boost::asio::co_spawn(f.ioc,
        f.r.run_batch(std::move(conv), json::parse(text).as_array(), std::make_shared<null_sink>()),
        [&](std::exception_ptr e, mcp::router::batch_outcome o) {
            REQUIRE_FALSE(e);
            out = std::move(o);
        });
    f.ioc.run();
    f.ioc.restart();
    REQUIRE(out);
    return std::move(*out);
}

} // namespace

TEST_CASE("review 8: ended session ids are forgotten once their maximum age has passed",
    "[hardening][review]")
{
    router_fixture f;
    mcp::session_registry sessions(f.ioc.get_executor(), transport::session_signer("k"), 3600s, 1s);
    auto const id = sessions.open(sessions.make_conversation(), "2025-11-25");
    REQUIRE(sessions.end(id, f.r));
    CHECK(sessions.ended_count() == 1);
    CHECK_FALSE(sessions.find(id)); // ended is final
    sessions.expire_idle(f.r);
    CHECK(sessions.ended_count() == 1); // still within its age
    std::this_thread::sleep_for(2100ms); // expiries are kept to the second, rounded up
    sessions.expire_idle(f.r);
    CHECK(sessions.ended_count() == 0);
    CHECK_FALSE(sessions.find(id)); // and too old to be adopted again anyway
}

#if defined(__SANITIZE_ADDRESS__)
/// Under AddressSanitizer, freed blocks sit in its quarantine (up to 256 MiB) and every block
/// carries red zones, so resident memory says nothing about the program: the allocator's own
/// count of the bytes the program holds measures the same growth. libasan exports the count;
/// g++ ships no header that declares it.
extern "C" std::size_t __sanitizer_get_current_allocated_bytes();
std::size_t held_bytes()
{
    return __sanitizer_get_current_allocated_bytes();
}
#else
/// This process's resident memory in bytes (Linux), from /proc/self/status.
std::size_t held_bytes()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmRSS:", 0) == 0) {
            return std::stoull(line.substr(6)) * 1024;
        }
    }
    FAIL("no VmRSS in /proc/self/status");
    return 0;
}
#endif

TEST_CASE("review 8: 20,000 sessions opened and deleted grow memory by at most 1.5 MiB",
    "[hardening][review]")
{
    router_fixture f;
    mcp::session_registry sessions(
        f.ioc.get_executor(), transport::session_signer("k"), 3600s, 3600s);
    auto const open_and_delete = [&](int n) {
        for (int i = 0; i < n; ++i) {
            auto const id = sessions.open(sessions.make_conversation(), "2025-11-25");
            REQUIRE(sessions.end(id, f.r));
        }
    };
    open_and_delete(200); // the allocator's first pages and the table's first slots
    auto const before = held_bytes();
    open_and_delete(20'000);
    auto const grown = static_cast<long>(held_bytes()) - static_cast<long>(before);
    INFO("memory held grew by " << grown << " bytes");
    CHECK(sessions.ended_count() == 20'200);
    CHECK(sessions.ended_bytes() <= 1024 * 1024);
    CHECK(grown <= 1536 * 1024);
}

TEST_CASE("review 12: a session past its maximum age is gone on the issuing replica too",
    "[hardening][review]")
{
    router_fixture f;
    mcp::session_registry sessions(f.ioc.get_executor(), transport::session_signer("k"), 3600s, 1s);
    auto const id = sessions.open(sessions.make_conversation(), "2025-11-25");
    CHECK(sessions.find(id));
    std::this_thread::sleep_for(1100ms);
    CHECK_FALSE(sessions.find(id)); // used a moment ago, but older than --session-max-age
    sessions.expire_idle(f.r);
    CHECK(sessions.size() == 0);
}

TEST_CASE("review 2: a batch's answer shares its listing pages and stays under its bound",
    "[hardening][review]")
{
    mcp::router_limits limits;
    limits.max_batch_answer_bytes = 4096;
    router_fixture f(limits);
    auto conv = initialized(f.ioc, "2025-03-26");
    std::string batch = "[";
    for (int i = 1; i <= 40; ++i) {
        batch += fmt::format(
            R"({}{{"jsonrpc":"2.0","id":{},"method":"tools/list"}})", i == 1 ? "" : ",", i);
    }
    batch += "]";
    auto outcome = run_batch(f, conv, batch);
    REQUIRE_FALSE(outcome.refused);
    REQUIRE(outcome.answer);
    auto const& answer = *outcome.answer;
    REQUIRE(answer.replies.size() == 40);
    // Past the bound every further answer is a short error (64 elements at most).
    CHECK(answer.size() < limits.max_batch_answer_bytes + 40 * 256);
    // Listings keep a view of the one shared page instead of a copy each.
    auto const page = f.pages.page("", protocol::list_variant::legacy_no_title).value();
    std::size_t shared = 0;
    std::size_t too_large = 0;
    for (auto const& reply : answer.replies) {
        shared += reply.shared.data() == page.data();
        too_large += reply.text.find("send this request on its own") != std::string::npos;
    }
    CHECK(shared > 0);
    CHECK(too_large > 0);
    CHECK(shared + too_large == 40);
    auto const flat = json::parse(answer.flatten());
    REQUIRE(flat.is_array());
    CHECK(flat.as_array().size() == 40);

    auto const quiet = run_batch(f, conv,
        R"([{"jsonrpc":"2.0","method":"notifications/x"},{"jsonrpc":"2.0","method":"notifications/y"}])");
    CHECK_FALSE(quiet.refused); // notifications only: nothing to answer, and not refused
    CHECK_FALSE(quiet.answer);
}

TEST_CASE("review 3: no suggestions for names far longer than any tool", "[hardening][review]")
{
    std::vector<std::string_view> const names { "folder_id", "file_id", "limit" };
    CHECK(protocol::suggest_names(std::string(100000, 'x'), names).empty());
    CHECK(protocol::suggest_names(std::string(129, 'f'), names).empty());
    CHECK(protocol::suggest_names("foldr_id", names) == std::vector<std::string> { "folder_id" });
    router_fixture f;
    CHECK(f.index.suggest(std::string(100000, 'T')).empty());
    CHECK(f.index.suggest("Test_Ech") == std::vector<std::string> { "Test_Echo" });
}
