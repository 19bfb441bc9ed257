// Operations over real processes: /readyz and the drain on SIGTERM, /metrics (what it counts,
// who may read it, its own port), JSON logs with request ids and trace context, traceparent
// reaching the platform, and the config file as the binary reads and prints it.
#include "integration/integration_support.hpp"

#include <boost/json/parse.hpp>
#include <catch2/catch.hpp>

#include <csignal>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

namespace {

using namespace toolgate::testing;
using namespace std::chrono_literals;

std::string const fake_platform_bin = FAKE_PLATFORM_BIN;
std::string const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

/// The value of the sample `series` (name and labels exactly as rendered), or nullopt.
std::optional<double> sample(std::string const& text, std::string const& series)
{
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        if (line.size() > series.size() && line.starts_with(series) && line[series.size()] == ' ') {
            return std::stod(line.substr(series.size() + 1));
        }
    }
    return std::nullopt;
}

std::string metrics_of(std::uint16_t port, header_pairs headers = {})
{
    auto response = http_request(port, "GET", "/metrics", headers);
    INFO(response.body);
    REQUIRE(response.status == 200);
    REQUIRE(response.header("content-type") != nullptr);
    CHECK(*response.header("content-type") == "text/plain; version=0.0.4; charset=utf-8");
    return response.body;
}

/// Polls /metrics until `series` has `value` (calls finish asynchronously to the test).
void wait_for_sample(std::uint16_t port, std::string const& series, double value)
{
    auto const deadline = std::chrono::steady_clock::now() + 5s;
    std::string text;
    while (std::chrono::steady_clock::now() < deadline) {
        text = metrics_of(port);
        if (sample(text, series) == value) {
            return;
        }
        std::this_thread::sleep_for(50ms);
    }
    INFO(text);
    FAIL("no " << series << " " << value);
}

std::string modern_call(std::string const& id, std::string const& tool,
    std::string const& arguments = "{}", std::string const& meta_extra = "")
{
    return call_request(id, tool, arguments, modern_meta("2026-07-28", meta_extra));
}

/// A tools/call answer that is a result without isError set.
bool succeeded(http_response const& response)
{
    auto const answer = rpc_body(response);
    auto const* result = answer.as_object().if_contains("result");
    INFO(response.body);
    return result
        && !(result->as_object().contains("isError") && result->as_object().at("isError") == true);
}

http_response post_modern(
    std::uint16_t port, std::string const& tool, std::string const& body, header_pairs extra = {})
{
    auto headers = modern_headers("tools/call", tool);
    headers.insert(headers.end(), extra.begin(), extra.end());
    return mcp_post(port, body, {}, headers);
}

/// The fake platform as a process: `port=<n> ca=<path>` on its first stdout line.
struct fake_platform_process {
    explicit fake_platform_process(std::vector<std::string> args)
        : process(fake_platform_bin, std::move(args))
    {
        auto line = process.read_line(10s);
        REQUIRE(line);
        std::smatch m;
        static std::regex const re(R"(port=(\d+) ca=(\S+))");
        REQUIRE(std::regex_search(*line, m, re));
        port = static_cast<std::uint16_t>(std::stoi(m[1].str()));
        ca = m[2].str();
    }
    child_process process;
    std::uint16_t port = 0;
    std::string ca;
};

std::filesystem::path temp_path(std::string const& name)
{
    return std::filesystem::temp_directory_path()
        / ("toolgate-ops-" + std::to_string(::getpid()) + "-" + name);
}

} // namespace

TEST_CASE("/readyz turns 503 on SIGTERM while --drain-delay still serves, then the listener "
          "closes and the process exits 0",
    "[ops][http]")
{
    // 3 s: the checks during the delay have time to run on a loaded machine.
    http_server_process server(test_bin, { "--drain-delay", "3" });
    auto const port = server.port();
    auto ready = http_request(port, "GET", "/readyz");
    CHECK(ready.status == 200);
    CHECK(ready.body == R"({"status":"ready"})");
    CHECK(sample(metrics_of(port), "toolgate_ready") == 1);

    server.process().signal(SIGTERM);
    auto const signalled = std::chrono::steady_clock::now();
    REQUIRE(server.process().wait_stderr("draining", 5s));
    auto draining = http_request(port, "GET", "/readyz");
    CHECK(draining.status == 503);
    CHECK(http_request(port, "GET", "/healthz").status == 200); // liveness is unchanged
    CHECK(sample(metrics_of(port), "toolgate_ready") == 0);
    // New work is still served during the delay: a balancer has time to notice.
    auto call = post_modern(port, "Test_Echo", modern_call("1", "Test_Echo", R"({"x":1})"));
    CHECK(call.status == 200);
    CHECK(succeeded(call));

    auto const exit_status = server.process().wait_exit(10s);
    REQUIRE(exit_status);
    CHECK(*exit_status == 0);
    CHECK(std::chrono::steady_clock::now() - signalled >= 3s);
    CHECK_THROWS(http_request(port, "GET", "/readyz", {}, {}, 1s)); // connection refused
}

TEST_CASE("/metrics counts calls by outcome, sessions, listings and HTTP statuses",
    "[ops][http][metrics]")
{
    http_server_process server(test_bin);
    auto const port = server.port();
    for (auto const* id : { "1", "2" }) {
        REQUIRE(post_modern(port, "Test_Echo", modern_call(id, "Test_Echo")).status == 200);
    }
    REQUIRE(post_modern(port, "Test_Fail", modern_call("3", "Test_Fail")).status == 200);
    post_modern(port, "Test_Throw", modern_call("4", "Test_Throw"));
    {
        // A client that hangs up mid-call has cancelled it.
        http_connection c(port);
        auto headers = mcp_headers();
        auto const modern = modern_headers("tools/call", "Test_Slow");
        headers.insert(headers.end(), modern.begin(), modern.end());
        REQUIRE(c.send(make_request(
            port, "POST", "/mcp", headers, modern_call("5", "Test_Slow", R"({"ms":5000})"))));
        wait_for_sample(port, "toolgate_tool_calls_in_flight", 1); // running: closing cancels it
        c.close();
    }
    auto const session = http_initialize(port);
    auto list = mcp_post(port, R"({"jsonrpc":"2.0","id":9,"method":"tools/list"})", session,
        { { "MCP-Protocol-Version", "2025-11-25" } });
    REQUIRE(list.status == 200);
    REQUIRE(http_request(port, "DELETE", "/mcp", { { "Mcp-Session-Id", session } }).status == 200);
    REQUIRE(http_request(port, "GET", "/nowhere").status == 404);

    wait_for_sample(
        port, R"(toolgate_tool_calls_total{toolkit="Test",tool="Slow",outcome="cancelled"})", 1);
    // The outcome is counted just before the call gives its place back.
    wait_for_sample(port, "toolgate_tool_calls_in_flight", 0);
    auto const text = metrics_of(port);
    INFO(text);
    CHECK(
        sample(text, R"(toolgate_tool_calls_total{toolkit="Test",tool="Echo",outcome="ok"})") == 2);
    CHECK(sample(
              text, R"(toolgate_tool_calls_total{toolkit="Test",tool="Fail",outcome="tool_error"})")
        == 1);
    CHECK(sample(text,
              R"(toolgate_tool_calls_total{toolkit="Test",tool="Throw",outcome="protocol_error"})")
        == 1);
    CHECK(sample(text, R"(toolgate_tool_call_duration_seconds_count{toolkit="Test"})") == 5);
    CHECK(sample(text, R"(toolgate_tool_call_duration_seconds_bucket{toolkit="Test",le="+Inf"})")
        == 5);
    CHECK(sample(text, "toolgate_tool_calls_in_flight") == 0);
    CHECK(sample(text, R"(toolgate_sessions_opened_total{how="initialize"})") == 1);
    CHECK(sample(text, R"(toolgate_sessions_ended_total{reason="deleted"})") == 1);
    CHECK(sample(text, "toolgate_sessions") == 0);
    CHECK(sample(text, R"(toolgate_listings_total{encoding="identity"})") == 1);
    CHECK(sample(text, R"(toolgate_listing_bytes_total{encoding="identity"})")
        == double(list.body.size()));
    CHECK(sample(text, R"(toolgate_http_requests_total{code="404"})") == 1);
    CHECK(sample(text, R"(toolgate_http_requests_total{code="200"})") >= 7);
    CHECK(sample(text, "process_resident_memory_bytes") > 1e6);
    CHECK(sample(text, "process_open_fds") > 3);
    CHECK(sample(text, "process_start_time_seconds") > 1.6e9);
    CHECK(text.find("toolgate_build_info{version=") != std::string::npos);
}

TEST_CASE("/metrics needs client authentication unless --metrics-public", "[ops][http][metrics]")
{
    spawn_options env;
    env.env = { "TOOLGATE_AUTH_TOKENS=ops-test-token-1" };
    {
        http_server_process server(test_bin, {}, env);
        auto const refused = http_request(server.port(), "GET", "/metrics");
        CHECK(refused.status == 401);
        CHECK(refused.body.find("toolgate_") == std::string::npos);
        metrics_of(server.port(), { { "Authorization", "Bearer ops-test-token-1" } });
        CHECK(http_request(server.port(), "GET", "/readyz").status == 200); // probes: no token
    }
    {
        http_server_process server(test_bin, { "--metrics-public" }, env);
        auto const text = metrics_of(server.port());
        CHECK(text.find("toolgate_ready 1") != std::string::npos);
        CHECK(http_request(server.port(), "POST", "/mcp", mcp_headers(), "{}").status == 401);
    }
}

TEST_CASE("a --metrics-listen port serves /metrics and the probes on their own port only",
    "[ops][http][metrics]")
{
    http_server_process server(test_bin, { "--metrics-listen", "127.0.0.1:0" });
    std::smatch m;
    static std::regex const re(R"(metrics at http://127\.0\.0\.1:(\d+)/metrics)");
    auto const& err = server.process().stderr_text();
    REQUIRE(std::regex_search(err, m, re));
    auto const metrics_port = static_cast<std::uint16_t>(std::stoi(m[1].str()));
    REQUIRE(post_modern(server.port(), "Test_Echo", modern_call("1", "Test_Echo")).status == 200);
    auto const text = metrics_of(metrics_port);
    CHECK(
        sample(text, R"(toolgate_tool_calls_total{toolkit="Test",tool="Echo",outcome="ok"})") == 1);
    CHECK(http_request(metrics_port, "GET", "/readyz").status == 200);
    CHECK(http_request(metrics_port, "GET", "/healthz").status == 200);
    CHECK(http_request(metrics_port, "POST", "/mcp", mcp_headers(), "{}").status == 404);
    CHECK(http_request(server.port(), "GET", "/metrics").status == 404);
}

TEST_CASE("JSON logs: every stderr line is an object, and a call's line has its request id, "
          "outcome and the caller's trace",
    "[ops][http][logging]")
{
    http_server_process server(test_bin, { "--log-format", "json" });
    auto const port = server.port();
    // Trace context from _meta, and from the HTTP header for a call without one in _meta.
    auto const meta_trace = R"(,"traceparent":")" + traceparent + R"(")";
    REQUIRE(post_modern(port, "Test_Echo", modern_call("7", "Test_Echo", "{}", meta_trace)).status
        == 200);
    REQUIRE(post_modern(port, "Test_Fail", modern_call("8", "Test_Fail"),
                { { "traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" } })
                .status
        == 200);
    REQUIRE(post_modern(port, "Test_Echo",
                modern_call("9", "Test_Echo", "{}", R"(,"traceparent":"not-a-trace")"))
                .status
        == 200);
    server.process().signal(SIGTERM);
    REQUIRE(server.process().wait_exit(10s) == 0);

    std::istringstream lines(server.process().stderr_text());
    std::string line;
    std::vector<boost::json::object> calls;
    std::set<std::string> request_ids;
    int count = 0;
    while (std::getline(lines, line)) {
        INFO(line);
        boost::system::error_code ec;
        auto value = boost::json::parse(line, ec);
        REQUIRE_FALSE(ec);
        REQUIRE(value.is_object());
        auto const& o = value.as_object();
        CHECK(o.at("time").is_string());
        CHECK(o.at("level").is_string());
        CHECK(o.at("message").is_string());
        ++count;
        if (o.at("message") == "tools/call") {
            calls.push_back(o);
            request_ids.insert(std::string(o.at("request_id").as_string()));
        }
    }
    CHECK(count >= 4);
    REQUIRE(calls.size() == 3);
    CHECK(request_ids.size() == 3);
    CHECK(calls[0].at("tool") == "Test.Echo");
    CHECK(calls[0].at("toolkit") == "Test");
    CHECK(calls[0].at("outcome") == "ok");
    CHECK(calls[0].at("ms").is_int64());
    CHECK_FALSE(calls[0].contains("status")); // no platform request: no status
    CHECK(calls[0].at("trace_id") == "4bf92f3577b34da6a3ce929d0e0e4736");
    CHECK(calls[0].at("parent_id") == "00f067aa0ba902b7");
    CHECK(calls[0].at("span_id").as_string().size() == 16);
    CHECK(calls[1].at("outcome") == "tool_error");
    CHECK(calls[1].at("trace_id") == "0af7651916cd43dd8448eb211c80319c");
    CHECK_FALSE(calls[2].contains("trace_id")); // a malformed traceparent is ignored
}

TEST_CASE("a caller's traceparent reaches the platform under toolgate's own span, and upstream "
          "metrics count by toolkit, status class and retry",
    "[ops][http][upstream]")
{
    auto const log = temp_path("platform-log.jsonl");
    std::filesystem::remove(log);
    fake_platform_process ok_platform({ "--log", log.string() });
    fake_platform_process busy_platform({ "--plain", "--status", "503" });
    spawn_options env;
    env.env = { "KANBAN_API_KEY=fake-kanban-key", "KANBAN_TOKEN=fake-kanban-token",
        "DEPLOY_ACCESS_TOKEN=fake-deploy-token" };
    http_server_process server(toolgate_bin,
        { "--ca-file", ok_platform.ca, "--toolkits", "KanbanApi,DeployApi", "--base-url",
            "KanbanApi=https://127.0.0.1:" + std::to_string(ok_platform.port), "--base-url",
            "DeployApi=http://127.0.0.1:" + std::to_string(busy_platform.port), "--log-format",
            "json" },
        env);
    auto const port = server.port();
    auto const meta_trace = R"(,"traceparent":")" + traceparent + R"(","tracestate":"vendor=1")";
    auto call = post_modern(port, "KanbanApi_GetBoardMembers",
        modern_call("1", "KanbanApi_GetBoardMembers", R"({"board_id":"b1"})", meta_trace));
    REQUIRE(call.status == 200);
    CHECK(succeeded(call));
    auto busy = post_modern(port, "DeployApi_GetAuthenticatedUserInfo",
        modern_call("2", "DeployApi_GetAuthenticatedUserInfo"));
    REQUIRE(busy.status == 200);
    CHECK(rpc_body(busy).at("result").at("isError") == true);

    std::ifstream in(log);
    std::string first;
    REQUIRE(std::getline(in, first));
    auto const recorded = boost::json::parse(first).as_object();
    auto const& headers = recorded.at("headers").as_object();
    std::string forwarded;
    for (auto const& h : headers) {
        if (h.key() == "traceparent" || h.key() == "Traceparent") {
            forwarded = std::string(h.value().as_string());
        }
        CHECK(h.value().as_string().find("ops-test") == std::string::npos);
    }
    INFO(first);
    REQUIRE(forwarded.size() == 55);
    CHECK(forwarded.starts_with("00-4bf92f3577b34da6a3ce929d0e0e4736-"));
    CHECK(forwarded.substr(36, 16) != "00f067aa0ba902b7"); // toolgate's span, not the caller's
    CHECK(forwarded.ends_with("-01"));
    CHECK(server.process().stderr_text().find(forwarded.substr(36, 16)) != std::string::npos);

    auto const text = metrics_of(port);
    INFO(text);
    CHECK(
        sample(text,
            R"(toolgate_tool_calls_total{toolkit="KanbanApi",tool="GetBoardMembers",outcome="ok"})")
        == 1);
    CHECK(
        sample(text, R"(toolgate_upstream_requests_total{toolkit="KanbanApi",class="2xx"})") == 1);
    CHECK(
        sample(text, R"(toolgate_upstream_requests_total{toolkit="DeployApi",class="5xx"})") == 3);
    CHECK(sample(text, R"(toolgate_upstream_retries_total{toolkit="DeployApi"})") == 2);
    CHECK(sample(text, R"(toolgate_upstream_retries_total{toolkit="KanbanApi"})") == 0);
    CHECK(sample(text, "toolgate_upstream_pool_open_connections") >= 1);
    CHECK(sample(text, "toolgate_upstream_pool_waiting_calls") == 0);
    // The call's log line names the platform's status.
    CHECK(
        server.process().stderr_text().find(
            R"("tool":"KanbanApi.GetBoardMembers","toolkit":"KanbanApi","outcome":"ok","status":200)")
        != std::string::npos);
    std::filesystem::remove(log);
}

TEST_CASE("the config printout (--print-config) shows each setting's source with secrets masked, "
          "and reads back",
    "[ops][config]")
{
    auto const file = temp_path("settings.toml");
    std::ofstream(file) << "threads = 3\nport = 9100\nsession-key = \"file-secret-value\"\n"
                           "toolkits = [\"KanbanApi\"]\n";
    // It holds a secret, so it must be private to its owner (third review 17).
    std::filesystem::permissions(file,
        std::filesystem::perms::owner_read | std::filesystem::perms::owner_write,
        std::filesystem::perm_options::replace);
    spawn_options env;
    env.env = { "TOOLGATE_SESSION_KEY=env-secret-value", "TOOLGATE_AUTH_TOKENS=ops-token-value" };
    child_process print(
        toolgate_bin, { "--config", file.string(), "--port", "7000", "--print-config" }, env);
    REQUIRE(print.wait_exit(10s) == 0);
    std::string text;
    while (auto line = print.read_line(1s)) {
        text += *line + "\n";
    }
    INFO(text);
    CHECK(text.find("port = 7000  # flag\n") != std::string::npos);
    CHECK(text.find("threads = 3  # file\n") != std::string::npos);
    CHECK(text.find("session-key = \"***\"  # env TOOLGATE_SESSION_KEY\n") != std::string::npos);
    CHECK(text.find("toolkits = [\"KanbanApi\"]  # file\n") != std::string::npos);
    CHECK(text.find("max-inflight = 256  # default\n") != std::string::npos);
    CHECK(text.find("call-timeout = 55  # default\n") != std::string::npos);
    CHECK(text.find("allow-unauthenticated = false  # default\n") != std::string::npos);
    CHECK(text.find("# also set in the environment: TOOLGATE_AUTH_TOKENS (value not shown)")
        != std::string::npos);
    CHECK(text.find("secret-value") == std::string::npos);
    CHECK(text.find("ops-token-value") == std::string::npos);

    // What it prints is a config file toolgate accepts (secrets aside: they stay masked).
    auto const printed = temp_path("printed.toml");
    std::ofstream(printed) << text;
    child_process again(toolgate_bin, { "--config", printed.string(), "--print-config" });
    auto const status = again.wait_exit(10s);
    INFO(again.stderr_text());
    CHECK(status == 0);

    std::ofstream(file) << "threads = 3\n\nthread = 4\n";
    child_process bad(toolgate_bin, { "--config", file.string() });
    REQUIRE(bad.wait_exit(10s) == 2);
    CHECK(
        bad.stderr_text().find(file.string() + ":3: unknown key \"thread\"") != std::string::npos);
    std::filesystem::remove(file);
    std::filesystem::remove(printed);
}
