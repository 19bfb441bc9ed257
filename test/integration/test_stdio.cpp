// The stdio transport on the built binary (toolgate_test_server), driven over pipes
// (docs/protocol-rules.md: S1–S8, L…, B…, LG…, PG…, CN…, §2).
#include "integration_support.hpp"

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>
#include <unistd.h>

using namespace toolgate::testing;
namespace json = boost::json;
using namespace std::chrono_literals;

namespace {

std::string slow_call(int id, int ms, int steps, std::string const& meta = "")
{
    return call_request(std::to_string(id), "Test_Slow",
        R"({"ms":)" + std::to_string(ms) + R"(,"steps":)" + std::to_string(steps) + "}", meta);
}

/// initialize, initialized and a full tools/list (about 1.5 MB with the real catalogue), then
/// EOF, all written before the server reads a byte, as `printf ... | toolgate` does.
void list_then_eof(stdio_server& server)
{
    server.send(initialize_request("2025-11-25", "0"));
    server.send(initialized_notification);
    server.send(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})");
    server.process().close_stdin();
}

std::string ping(int id)
{
    return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":"ping"})";
}

} // namespace

TEST_CASE("stdio: initialize, tools/list and tools/call make a round trip", "[stdio]")
{
    stdio_server server;
    auto init = server.initialize("2025-11-25");
    CHECK(init.at("protocolVersion") == "2025-11-25");
    CHECK(init.at("serverInfo").at("name") == "toolgate");

    auto listed = server.request(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})", 1);
    auto const& tools = listed.at("result").at("tools").as_array();
    std::vector<std::string> names;
    for (auto const& t : tools) {
        names.emplace_back(t.at("name").as_string());
    }
    CHECK(names
        == std::vector<std::string> { "Test_Echo", "Test_Slow", "Test_Fail", "Test_Log",
            "Test_Throw", "Test_Array", "Test_Ask" });

    auto called = server.request(call_request("2", "Test_Echo", R"({"x":[1,"two"]})"), 2);
    auto const& result = called.at("result").as_object();
    CHECK(result.at("structuredContent") == json::parse(R"({"x":[1,"two"]})"));
    CHECK(result.at("content").at(0).at("type") == "text");
    CHECK(json::parse(result.at("content").at(0).at("text").as_string())
        == json::parse(R"({"x":[1,"two"]})"));
    CHECK_FALSE(result.contains("isError"));
    CHECK(server.seen.empty()); // nothing unasked-for on stdout
}

TEST_CASE("stdio: ids come back with their type, string or integer (J2)", "[stdio]")
{
    stdio_server server;
    server.send(R"({"jsonrpc":"2.0","id":"1","method":"ping"})");
    auto answer = server.response(json::value("1"));
    CHECK(answer.at("id").is_string());
    server.send(ping(1));
    CHECK(server.response(1).at("id").is_int64());
}

TEST_CASE("stdio: stdout carries only JSON-RPC lines, logs go to stderr (S3, LG8)", "[stdio]")
{
    stdio_server server;
    server.initialize("2025-06-18");
    server.send(call_request("1", "Test_Fail"));
    server.send(call_request("2", "Test_Throw"));
    server.send(call_request("3", "Test_Log"));
    server.send("{oops");
    server.send(R"({"jsonrpc":"2.0","id":4,"method":"no/such"})");
    server.send(ping(5));
    server.response(5);
    server.process().close_stdin();
    REQUIRE(server.process().wait_exit(5s) == 0);
    // The rest of stdout after exit: every line must still be JSON-RPC.
    while (auto line = server.process().read_line(0ms)) {
        parse_rpc(*line);
    }
    CHECK(server.process().stdout_partial().empty()); // no unterminated output (S1)
    auto const& err = server.process().stderr_text();
    CHECK_THAT(err, Catch::Contains("on stdio")); // the start-up line went to stderr
    CHECK_THAT(err, Catch::Contains("Test_Throw")); // and so did the tool failure
}

TEST_CASE("stdio: a failing tool is isError, a throwing tool is -32603, and the session "
          "goes on (TC4)",
    "[stdio]")
{
    stdio_server server;
    server.initialize();
    auto failed = server.request(call_request("1", "Test_Fail"), 1);
    CHECK(failed.at("result").at("isError") == true);
    CHECK_THAT(std::string(failed.at("result").at("content").at(0).at("text").as_string()),
        Catch::Contains("always fails"));
    auto thrown = server.request(call_request("2", "Test_Throw"), 2);
    CHECK(error_code_of(thrown) == -32603);
    CHECK(server.request(ping(3), 3).at("result") == json::object());
}

TEST_CASE("stdio: blank lines are ignored without any answer", "[stdio]")
{
    stdio_server server;
    REQUIRE(server.process().write("\n\n   \n\t\n\r\n"));
    server.send(ping(1));
    auto first = server.next();
    REQUIRE(first.has_value());
    CHECK(first->at("id") == 1); // nothing was answered for the blank lines
    CHECK(first->at("result") == json::object());
}

TEST_CASE("stdio: a message split across several writes is read whole", "[stdio]")
{
    stdio_server server;
    std::string const text = ping(7);
    // Separate writes with pauses so the server sees separate reads (not an assertion).
    for (std::size_t i = 0; i < text.size(); i += 5) {
        REQUIRE(server.process().write(text.substr(i, 5)));
        if (i % 20 == 0) {
            std::this_thread::sleep_for(5ms);
        }
    }
    // No newline yet: the half-sent message must not be answered (or refused).
    CHECK_FALSE(server.next(150ms).has_value());
    REQUIRE(server.process().write("\n"));
    auto answer = server.response(7);
    CHECK(answer.at("result") == json::object());

    // Two messages in one write, CRLF line ends, are two answers.
    REQUIRE(server.process().write(ping(8) + "\r\n" + ping(9) + "\r\n"));
    server.response(8);
    server.response(9);
    CHECK(server.seen.empty());
}

TEST_CASE(
    "stdio: a line over --max-line-bytes gets -32700 and the session continues (S6)", "[stdio]")
{
    stdio_server server({ "--max-line-bytes", "1024" });
    server.initialize();
    std::string big(3000, 'a');
    // Valid JSON, only too long; sent in two writes to cross read boundaries too.
    std::string const text = call_request("1", "Test_Echo", R"({"pad":")" + big + R"("})");
    REQUIRE(server.process().write(text.substr(0, 1500)));
    std::this_thread::sleep_for(5ms);
    REQUIRE(server.process().write(text.substr(1500) + "\n"));
    auto error = server.next();
    REQUIRE(error.has_value());
    CHECK(error_code_of(*error) == -32700);
    CHECK(error->at("id").is_null());
    CHECK_THAT(std::string(error->at("error").at("message").as_string()), Catch::Contains("1024"));

    // Just under the limit is fine; the session carries on.
    std::string const fits
        = call_request("2", "Test_Echo", R"({"pad":")" + std::string(900, 'b') + R"("})");
    REQUIRE(fits.size() < 1024);
    auto echoed = server.request(fits, 2);
    CHECK(echoed.at("result").at("structuredContent").at("pad").as_string().size() == 900);
    CHECK(server.seen.empty());
}

TEST_CASE("stdio: invalid JSON gets -32700 with id null and the session continues (S6)", "[stdio]")
{
    stdio_server server;
    auto text = GENERATE(as<std::string> {}, "{", "not json at all", R"({"jsonrpc":"2.0",)",
        R"({"jsonrpc":"2.0","id":1,"method":"ping"}})");
    CAPTURE(text);
    server.send(text);
    auto error = server.next();
    REQUIRE(error.has_value());
    CHECK(error_code_of(*error) == -32700);
    CHECK(error->at("id").is_null());
    CHECK(server.request(ping(2), 2).at("result") == json::object());
}

TEST_CASE("stdio: a valid JSON value that is not JSON-RPC gets -32600", "[stdio]")
{
    stdio_server server;
    server.send(R"({"id":3,"method":"ping"})");
    auto error = server.next();
    REQUIRE(error.has_value());
    CHECK(error_code_of(*error) == -32600);
    CHECK(error->at("id") == 3);
    server.send(R"({"jsonrpc":"2.0","id":null,"method":"ping"})");
    error = server.next();
    REQUIRE(error.has_value());
    CHECK(error_code_of(*error) == -32600);
}

TEST_CASE("stdio: L1: tools/list before initialize is -32600, ping works (L9)", "[stdio]")
{
    stdio_server server;
    CHECK(error_code_of(server.request(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})", 1))
        == -32600);
    CHECK(server.request(ping(2), 2).at("result") == json::object());
}

TEST_CASE("stdio: EOF on stdin ends the process with status 0 promptly (L10, S5)", "[stdio]")
{
    stdio_server server;
    server.initialize();
    server.process().close_stdin();
    CHECK(server.process().wait_exit(3s) == 0);
}

TEST_CASE("stdio: EOF with a slow call in flight cancels it and exits 0 promptly "
          "(docs/decisions.md Shutdown)",
    "[stdio]")
{
    stdio_server server;
    server.initialize();
    server.send(slow_call(1, 60000, 600));
    server.send(ping(2)); // proves the call has been read and is running
    server.response(2);
    auto const started = std::chrono::steady_clock::now();
    server.process().close_stdin();
    REQUIRE(server.process().wait_exit(5s) == 0);
    CHECK(std::chrono::steady_clock::now() - started < 3s);
    while (auto line = server.process().read_line(0ms)) {
        auto msg = parse_rpc(*line);
        CHECK_FALSE(msg.as_object().contains("result")); // the cancelled call has no answer
    }
}

TEST_CASE(
    "stdio: a request read before EOF is answered whole (docs/decisions.md Shutdown)", "[stdio]")
{
    // A reply far larger than a pipe's buffer (the full listing of the real catalogue is about
    // 1.5 MB) to a request followed at once by EOF, everything written before the server reads
    // a byte, as `printf ... | toolgate` does: the server must not exit before the last byte
    // is written, or the client reads half a line.
    stdio_server server({ "--tool-mode", "full" }, toolgate_bin);
    list_then_eof(server);
    INFO("stderr: " << server.process().stderr_text());
    CHECK(server.response(0, 5s).contains("result"));
    CHECK(server.response(1, 5s).at("result").at("tools").as_array().size() > 1000);
    CHECK(server.process().wait_exit(3s) == 0);
}

TEST_CASE(
    "stdio: a client that closes stdin and stops reading does not keep the server alive", "[stdio]")
{
    // The 1.5 MB listing fills the pipe and nobody reads it: the server waits 2 s for the
    // reader, then stops anyway (exit 0), instead of hanging until it is killed.
    stdio_server server({ "--tool-mode", "full" }, toolgate_bin);
    list_then_eof(server);
    // Not reading: running() only asks waitpid (wait_exit would drain the pipe). Polled up to
    // 15 s rather than slept for, as start-up with the full catalogue, the listing and the
    // index thread's end take longer on a loaded machine.
    auto const deadline = std::chrono::steady_clock::now() + 15s;
    while (server.process().running() && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(50ms);
    }
    CHECK_FALSE(server.process().running());
    CHECK(server.process().wait_exit(1s) == 0);
    CHECK(server.process().stderr_text().find("stopping anyway") != std::string::npos);
}

TEST_CASE("stdio: SIGTERM lets a call in flight finish, then exits 0 (L10, docs/decisions.md "
          "Shutdown)",
    "[stdio]")
{
    stdio_server server;
    server.initialize();
    server.send(slow_call(1, 600, 3));
    server.send(ping(2));
    server.response(2);
    server.process().signal(SIGTERM);
    // The call finishes within the grace period and is answered before the exit.
    auto answer = server.response(1, 5s);
    CHECK(answer.at("result").at("content").at(0).at("text") == "slow done");
    CHECK(server.process().wait_exit(5s) == 0);
}

TEST_CASE("stdio: SIGTERM cancels a call that outlasts --shutdown-grace and exits 0", "[stdio]")
{
    stdio_server server({ "--shutdown-grace", "1" });
    server.initialize();
    server.send(slow_call(1, 60000, 600));
    server.send(ping(2));
    server.response(2);
    auto const started = std::chrono::steady_clock::now();
    server.process().signal(SIGTERM);
    REQUIRE(server.process().wait_exit(6s) == 0);
    CHECK(std::chrono::steady_clock::now() - started < 4s);
}

TEST_CASE("stdio: notifications/cancelled drops the answer of a slow call, later requests "
          "are still answered (CN1)",
    "[stdio]")
{
    stdio_server server;
    server.initialize();
    auto id = GENERATE(as<std::string> {}, "7", R"("seven")");
    CAPTURE(id);
    // Call 7 would finish after ~400 ms; call 9 after ~1200 ms. If the cancel were ignored,
    // 7's answer would arrive before 9's.
    server.send(call_request(
        id, "Test_Slow", R"({"ms":400,"steps":2})", R"("_meta":{"progressToken":"p7"})"));
    server.send(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":)" + id
        + R"(,"reason":"test"}})");
    server.send(slow_call(9, 1200, 2));
    server.send(ping(8));
    server.response(8);
    server.response(9, 10s);
    for (auto const& m : server.seen) {
        auto const& obj = m.as_object();
        CHECK_FALSE((obj.contains("id") && obj.at("id") == json::parse(id)));
    }
    // A cancel for an unknown or finished id is ignored (CN2): no answer, no error.
    server.send(
        R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":12345}})");
    server.send(ping(10));
    auto next = server.next();
    REQUIRE(next.has_value());
    CHECK(next->at("id") == 10);
}

TEST_CASE("stdio: a slow call does not hold up other requests", "[stdio]")
{
    stdio_server server;
    server.initialize();
    server.send(slow_call(1, 3000, 3));
    server.send(call_request("2", "Test_Echo", R"({"q":1})"));
    auto const echo = server.response(2, 2s); // long before the slow call could finish
    CHECK(echo.at("result").at("structuredContent").at("q") == 1);
    server.send(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}})");
}

TEST_CASE("stdio: progress notifications grow and precede the result only when a "
          "progressToken is given (PG1–PG3)",
    "[stdio]")
{
    stdio_server server;
    server.initialize();
    SECTION("with a token")
    {
        server.send(slow_call(1, 200, 4, R"("_meta":{"progressToken":"tok-1"})"));
        auto result = server.response(1);
        CHECK(result.at("result").at("content").at(0).at("text") == "slow done");
        auto progress = server.notifications("notifications/progress");
        REQUIRE(progress.size() == 4);
        double last = 0;
        for (auto const& p : progress) {
            auto const& params = p.at("params").as_object();
            CHECK(params.at("progressToken") == "tok-1");
            CHECK(params.at("progress").to_number<double>() > last);
            last = params.at("progress").to_number<double>();
            CHECK(params.at("total") == 4);
        }
    }
    SECTION("with an integer token, copied as an integer")
    {
        server.send(slow_call(1, 100, 2, R"("_meta":{"progressToken":99})"));
        server.response(1);
        auto progress = server.notifications("notifications/progress");
        REQUIRE(progress.size() == 2);
        CHECK(progress.front().at("params").at("progressToken").is_int64());
    }
    SECTION("without a token")
    {
        server.send(slow_call(1, 200, 4));
        server.response(1);
        CHECK(server.notifications("notifications/progress").empty());
    }
    // PG3: nothing for the call after its response.
    server.send(ping(2));
    auto next = server.next();
    REQUIRE(next.has_value());
    CHECK(next->at("id") == 2);
}

TEST_CASE("stdio: logging/setLevel filters notifications/message (LG1–LG4)", "[stdio]")
{
    stdio_server server;
    server.initialize();
    auto [level, expected] = GENERATE(table<std::string, std::size_t>({
        { "", 0 }, // LG3: before any setLevel we send none
        { "debug", 8 },
        { "warning", 5 },
        { "error", 4 },
        { "emergency", 1 },
    }));
    CAPTURE(level);
    if (!level.empty()) {
        auto set = server.request(
            R"({"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":")" + level
                + R"("}})",
            1);
        CHECK(set.at("result") == json::object());
    }
    server.send(call_request("2", "Test_Log"));
    server.response(2);
    auto messages = server.notifications("notifications/message");
    CHECK(messages.size() == expected);
    for (auto const& m : messages) {
        auto const& params = m.at("params").as_object();
        CHECK(params.contains("level"));
        CHECK(params.contains("data"));
    }
    if (expected > 0) {
        CHECK(messages.back().at("params").at("level") == "emergency");
        CHECK(messages.front().at("params").at("level") == json::value(level));
    }
}

TEST_CASE("stdio: an unknown log level is -32602 (LG2)", "[stdio]")
{
    stdio_server server;
    server.initialize();
    CHECK(
        error_code_of(server.request(
            R"({"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"loud"}})", 1))
        == -32602);
}

TEST_CASE("stdio: a batch in a 2025-03-26 session is answered with an array (B1)", "[stdio]")
{
    stdio_server server;
    server.initialize("2025-03-26");
    server.send(
        R"([{"jsonrpc":"2.0","id":1,"method":"ping"},)"
        R"({"jsonrpc":"2.0","method":"notifications/whatever"},)"
        R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"Test_Echo","arguments":{"a":1}}},)"
        R"({"jsonrpc":"2.0","id":3}])");
    auto answer = server.next();
    REQUIRE(answer.has_value());
    REQUIRE(answer->is_array());
    auto const& items = answer->as_array();
    REQUIRE(items.size() == 3); // one per request, the broken element gets its error
    CHECK(items[0].at("id") == 1);
    CHECK(items[1].at("id") == 2);
    // OS3: no structuredContent for 2025-03-26.
    CHECK_FALSE(items[1].at("result").as_object().contains("structuredContent"));
    CHECK(error_code_of(items[2]) == -32600);

    // Only notifications: no answer at all.
    server.send(
        R"([{"jsonrpc":"2.0","method":"notifications/a"},{"jsonrpc":"2.0","method":"notifications/b"}])");
    server.send(ping(4));
    auto next = server.next();
    REQUIRE(next.has_value());
    REQUIRE(next->is_object());
    CHECK(next->at("id") == 4);

    // B3: initialize inside a batch; and an empty batch.
    for (auto const& text :
        { std::string(R"([)") + initialize_request("2025-03-26", "5") + "]", std::string("[]") }) {
        server.send(text);
        auto refused = server.next();
        REQUIRE(refused.has_value());
        REQUIRE(refused->is_object());
        CHECK(error_code_of(*refused) == -32600);
    }
}

TEST_CASE("stdio: a batch in a 2025-11-25 session, or before initialize, is -32600 (B2)", "[stdio]")
{
    stdio_server server;
    auto version = GENERATE(as<std::string> {}, "", "2025-06-18", "2025-11-25");
    CAPTURE(version);
    if (!version.empty()) {
        server.initialize(version);
    }
    server.send(
        R"([{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}])");
    auto answer = server.next();
    REQUIRE(answer.has_value());
    REQUIRE(answer->is_object());
    CHECK(error_code_of(*answer) == -32600);
    CHECK(answer->at("id").is_null());
    CHECK(server.request(ping(3), 3).at("result") == json::object());
}

TEST_CASE("stdio: 2026-07-28 requests work without initialize (§2)", "[stdio]")
{
    stdio_server server;
    auto discover = server.request(
        R"({"jsonrpc":"2.0","id":1,"method":"server/discover","params":{)" + modern_meta() + "}}",
        1);
    auto const& d = discover.at("result").as_object();
    CHECK(d.at("supportedVersions").at(0) == "2026-07-28");
    CHECK(d.at("resultType") == "complete");

    auto listed = server.request(
        R"({"jsonrpc":"2.0","id":2,"method":"tools/list","params":{)" + modern_meta() + "}}", 2);
    CHECK(listed.at("result").at("ttlMs").is_number());
    CHECK(listed.at("result").at("cacheScope") == "public");

    // Any JSON value may be structuredContent in 2026-07-28.
    auto called = server.request(call_request("3", "Test_Array", "{}", modern_meta()), 3);
    auto const& result = called.at("result").as_object();
    CHECK(result.at("structuredContent") == json::parse("[1,2,3]"));
    CHECK(result.at("resultType") == "complete");
    CHECK(result.at("_meta").at("io.modelcontextprotocol/serverInfo").at("name") == "toolgate");

    // A legacy request on the same pipe is still refused before initialize (L1) ...
    CHECK(error_code_of(server.request(R"({"jsonrpc":"2.0","id":4,"method":"tools/list"})", 4))
        == -32600);
    // ... and a modern unknown version gets -32022.
    auto unsupported = server.request(R"({"jsonrpc":"2.0","id":5,"method":"tools/list","params":{)"
            + modern_meta("2099-01-01") + "}}",
        5);
    CHECK(error_code_of(unsupported) == -32022);
    CHECK(unsupported.at("error").at("data").at("requested") == "2099-01-01");
}

TEST_CASE("stdio: modern logs only for a request that asks for them (§8)", "[stdio]")
{
    stdio_server server;
    server.send(call_request("1", "Test_Log", "{}",
        modern_meta("2026-07-28", R"(,"io.modelcontextprotocol/logLevel":"critical")")));
    server.response(1);
    CHECK(server.notifications("notifications/message").size() == 3);
    server.seen.clear();
    server.send(call_request("2", "Test_Log", "{}", modern_meta()));
    server.response(2);
    CHECK(server.notifications("notifications/message").empty());
}

TEST_CASE("stdio: structuredContent follows the session's revision (docs/decisions.md)", "[stdio]")
{
    auto [version, echo_has, array_has] = GENERATE(table<std::string, bool, bool>({
        { "2025-03-26", false, false },
        { "2025-06-18", true, false },
        { "2025-11-25", true, false },
    }));
    CAPTURE(version);
    stdio_server server;
    server.initialize(version);
    auto echo = server.request(call_request("1", "Test_Echo", R"({"k":"v"})"), 1);
    CHECK(echo.at("result").as_object().contains("structuredContent") == echo_has);
    auto array = server.request(call_request("2", "Test_Array"), 2);
    CHECK(array.at("result").as_object().contains("structuredContent") == array_has);
    CHECK(array.at("result").at("content").at(0).at("text") == "[1,2,3]"); // text always there
}

TEST_CASE("stdio: many concurrent calls never interleave on a line (S8)", "[stdio]")
{
    stdio_server server;
    server.initialize();
    std::string const pad(20000, 'x');
    std::string batch_text;
    for (int i = 1; i <= 40; ++i) {
        batch_text += call_request(std::to_string(i), i % 2 ? "Test_Echo" : "Test_Log",
                          R"({"pad":")" + pad + R"("})")
            + "\n";
    }
    server.send(
        R"({"jsonrpc":"2.0","id":100,"method":"logging/setLevel","params":{"level":"debug"}})");
    server.response(100);
    REQUIRE(server.process().write(batch_text));
    for (int i = 1; i <= 40; ++i) {
        auto answer = server.response(i); // every line parsed as JSON-RPC on the way
        CHECK(answer.contains("result"));
    }
}

TEST_CASE("stdio: stdin may be a regular file (toolgate < calls.jsonl)", "[stdio]")
{
    auto const path = std::filesystem::temp_directory_path()
        / ("toolgate-stdin-" + std::to_string(::getpid()) + ".jsonl");
    {
        std::ofstream file(path);
        file << initialize_request("2025-11-25", "1") << "\n"
             << initialized_notification << "\n"
             << R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})"
             << "\n"
             << call_request("3", "Test_Echo", R"({"f":true})") << "\n";
    }
    spawn_options options;
    options.stdin_path = path.string();
    child_process process(test_bin, {}, options);
    auto const status = process.wait_exit(5s);
    std::filesystem::remove(path);
    REQUIRE(status == 0);
    std::vector<json::value> answers;
    while (auto line = process.read_line(0ms)) {
        answers.push_back(parse_rpc(*line));
    }
    // EOF may cancel the last call (docs/decisions.md: EOF cancels in-flight calls), so the echo
    // answer is optional; the first two are answered synchronously.
    REQUIRE(answers.size() >= 2);
    CHECK(answers[0].at("id") == 1);
    CHECK(answers[1].at("id") == 2);
    CHECK(answers[1].at("result").at("tools").as_array().size() == 7);
}

TEST_CASE("the shipped binary names the memory allocator it runs with (mimalloc unless a "
          "sanitizer build)",
    "[stdio]")
{
    child_process p(toolgate_bin, { "--transport", "stdio" });
    CHECK(p.wait_stderr(std::string("memory allocator: ") + TOOLGATE_BIN_ALLOCATOR, 10s));
}

TEST_CASE("mimalloc serves the shipped binary with 2 MiB pages unless the environment says "
          "otherwise",
    "[stdio]")
{
    if (std::string_view(TOOLGATE_BIN_ALLOCATOR) != "mimalloc") {
        // Sanitizer builds keep glibc's malloc, which the sanitizers replace: no options.
        child_process p(toolgate_bin, { "--transport", "stdio" });
        CHECK(p.wait_stderr("memory allocator: glibc malloc", 10s));
        CHECK(p.stderr_text().find("MiB pages") == std::string::npos);
        return;
    }
    // Huge pages cut start-up's page faults by four fifths (app/main.cpp); the user's own
    // MIMALLOC_LARGE_OS_PAGES wins over toolgate's choice.
    {
        child_process p(toolgate_bin, { "--transport", "stdio" });
        CHECK(p.wait_stderr("memory allocator: mimalloc 2.", 10s));
        CHECK(p.stderr_text().find("(2 MiB pages)") != std::string::npos);
    }
    {
        child_process p(
            toolgate_bin, { "--transport", "stdio" }, { .env = { "MIMALLOC_LARGE_OS_PAGES=0" } });
        CHECK(p.wait_stderr("memory allocator: mimalloc 2.", 10s));
        CHECK(p.stderr_text().find("(2 MiB pages)") == std::string::npos);
    }
}

TEST_CASE("stdio: --version and --help exit 0, a bad flag exits 2 with one line on stderr "
          "(issue 2 item 5)",
    "[stdio]")
{
    SECTION("--version")
    {
        child_process p(test_bin, { "--version" });
        REQUIRE(p.wait_exit(5s) == 0);
        auto line = p.read_line(0ms);
        REQUIRE(line.has_value());
        CHECK_THAT(*line, Catch::Matches(R"(\d+\.\d+\.\d+)"));
    }
    SECTION("--help")
    {
        child_process p(toolgate_bin, { "--help" });
        REQUIRE(p.wait_exit(5s) == 0);
        std::string all;
        while (auto line = p.read_line(0ms)) {
            all += *line + "\n";
        }
        CHECK_THAT(all, Catch::Contains("--transport"));
        CHECK_THAT(all, Catch::Contains("--port"));
    }
    SECTION("a bad flag")
    {
        auto args
            = GENERATE(as<std::vector<std::string>> {}, std::vector<std::string> { "--bogus" },
                std::vector<std::string> { "--transport", "carrier-pigeon" },
                std::vector<std::string> { "--max-line-bytes", "1" });
        child_process p(toolgate_bin, args);
        REQUIRE(p.wait_exit(5s) == 2);
        auto const& err = p.stderr_text();
        CHECK(std::count(err.begin(), err.end(), '\n') == 1);
        CHECK_THAT(err, Catch::StartsWith("toolgate:"));
        CHECK_FALSE(p.read_line(0ms).has_value()); // nothing on stdout
    }
    SECTION("a flag that would be ignored is refused, saying what was meant (issue 17 item 4)")
    {
        using case_t = std::pair<std::vector<std::string>, std::string>;
        auto [args, hint] = GENERATE(
            case_t { { "--toolkit", "KanbanApi" }, "did you mean --toolkits KanbanApi?" },
            case_t {
                { "--json" }, "--json only changes what --list-tools or --list-toolkits print" },
            case_t { { "--list-tools", "--list-toolkits" }, "give one of them" },
            case_t { { "--pin", "KanbanApi.Get*", "--tool-mode", "full" }, "--pin" });
        CAPTURE(args);
        child_process p(toolgate_bin, args);
        REQUIRE(p.wait_exit(5s) == 2);
        auto const& err = p.stderr_text();
        CHECK(std::count(err.begin(), err.end(), '\n') == 1);
        CHECK_THAT(err, Catch::StartsWith("toolgate:") && Catch::Contains(hint));
        CHECK_FALSE(p.read_line(0ms).has_value());
    }
    SECTION("a flag and its value given as one argument get a hint")
    {
        child_process p(toolgate_bin, { "--toolkits KanbanApi" });
        REQUIRE(p.wait_exit(5s) == 2);
        auto const& err = p.stderr_text();
        CHECK(std::count(err.begin(), err.end(), '\n') == 1);
        CHECK_THAT(err, Catch::Contains("`--toolkits KanbanApi` arrived as one argument"));
    }
    SECTION("--toolkit with --list-tools still narrows the listing")
    {
        child_process p(toolgate_bin, { "--list-tools", "--toolkit", "SearchApi" });
        REQUIRE(p.wait_exit(5s) == 0);
        std::vector<std::string> lines;
        while (auto line = p.read_line(0ms)) {
            lines.push_back(*line);
        }
        REQUIRE(lines.size() == 46); // the 45 SearchApi tools and a count
        for (std::size_t i = 0; i < 45; ++i) {
            CHECK_THAT(lines[i], Catch::StartsWith("SearchApi."));
        }
        CHECK_THAT(lines.back(), Catch::StartsWith("45 tools"));
    }
}

TEST_CASE("a --ca-file that cannot be loaded stops the start, naming the file (the TLS context "
          "is otherwise made at the first connection)",
    "[stdio]")
{
    auto const dir = std::filesystem::temp_directory_path()
        / ("toolgate-ca-" + std::to_string(::getpid()) + "-" + std::to_string(std::rand()));
    std::filesystem::create_directories(dir);
    auto const garbage = (dir / "garbage.pem").string();
    std::ofstream(garbage) << "not a certificate\n";
    auto const missing = (dir / "missing.pem").string();
    for (auto const& file : { missing, garbage }) {
        for (std::string transport : { "stdio", "http" }) {
            CAPTURE(file, transport);
            std::vector<std::string> args { "--transport", transport, "--ca-file", file };
            if (transport == "http") {
                args.insert(args.end(), { "--host", "127.0.0.1", "--port", "0" });
            }
            child_process p(toolgate_bin, args);
            REQUIRE(p.wait_exit(10s) == 2);
            CHECK_THAT(p.stderr_text(), Catch::Contains("cannot load CA file " + file));
            CHECK_FALSE(p.read_line(0ms).has_value()); // nothing on stdout
        }
    }
    std::filesystem::remove_all(dir);
}
