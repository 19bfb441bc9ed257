// Operations pieces in-process: the metrics registry and exposition text, toolgate's metric
// families, trace context parsing, JSON log lines, and the config file's precedence.
#include "app/config.hpp"
#include "app/config_file.hpp"
#include "ops/logging.hpp"
#include "ops/metrics.hpp"
#include "ops/metrics_registry.hpp"
#include "protocol/trace_context.hpp"

#include <boost/json/parse.hpp>
#include <catch2/catch.hpp>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sched.h>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using namespace toolgate;
using namespace std::chrono_literals;
namespace json = boost::json;

bool has_line(std::string const& text, std::string const& line)
{
    std::istringstream in(text);
    std::string l;
    while (std::getline(in, l)) {
        if (l == line) {
            return true;
        }
    }
    return false;
}

std::vector<protocol::tool_descriptor> two_toolkits()
{
    std::vector<protocol::tool_descriptor> tools(4);
    tools[0].dotted_name = "StoreApi.DeleteFolder";
    tools[1].dotted_name = "StoreApi.GetFile";
    tools[2].dotted_name = "KanbanApi.GetCard";
    tools[3].dotted_name = "toolgate_search_tools"; // a meta-tool: no toolkit of its own
    return tools;
}

} // namespace

TEST_CASE("histogram buckets are cumulative and inclusive of their upper bound", "[ops][metrics]")
{
    static constexpr double bounds[] = { 0.01, 0.1, 1 };
    ops::metrics::histogram h(bounds);
    h.observe(10ms); // exactly on the first bound: le="0.01"
    h.observe(50ms); // le="0.1"
    h.observe(2s); // +Inf only
    auto const snap = h.read();
    REQUIRE(snap.cumulative == std::vector<std::uint64_t> { 1, 2, 2, 3 });
    CHECK(snap.count == 3);
    CHECK(snap.sum_seconds == Approx(2.06));
}

TEST_CASE("exposition escapes label values and groups a histogram's samples", "[ops][metrics]")
{
    ops::metrics::exposition out;
    out.family("x_total", ops::metrics::exposition::kind::counter, "help text");
    out.sample("x_total", { { "a", "quote\" back\\slash\nnewline" } }, 3.0);
    static constexpr double bounds[] = { 0.5 };
    ops::metrics::histogram h(bounds);
    h.observe(100ms);
    out.family("y_seconds", ops::metrics::exposition::kind::histogram, "durations");
    std::array<ops::metrics::label, 1> labels { ops::metrics::label { "k", "v" } };
    out.histogram_samples("y_seconds", labels, h);
    auto const& text = out.text();
    CHECK(has_line(text, "# TYPE x_total counter"));
    CHECK(has_line(text, R"(x_total{a="quote\" back\\slash\nnewline"} 3)"));
    CHECK(has_line(text, R"(y_seconds_bucket{k="v",le="0.5"} 1)"));
    CHECK(has_line(text, R"(y_seconds_bucket{k="v",le="+Inf"} 1)"));
    CHECK(has_line(text, R"(y_seconds_sum{k="v"} 0.1)"));
    CHECK(has_line(text, R"(y_seconds_count{k="v"} 1)"));
}

TEST_CASE("server metrics count calls by toolkit, tool and outcome, and only catalogue tools",
    "[ops][metrics]")
{
    auto const tools = two_toolkits();
    ops::server_metrics m(tools, "9.9.9");
    m.record_call(&tools[0], ops::call_outcome::ok, 3ms);
    m.record_call(&tools[0], ops::call_outcome::ok, 3ms);
    m.record_call(&tools[2], ops::call_outcome::cancelled, 2s);
    m.record_refused_call(&tools[1]);
    m.record_call(&tools[3], ops::call_outcome::ok, 1ms);
    protocol::tool_descriptor stranger;
    stranger.dotted_name = "StoreApi.DeleteFolder"; // same name, not one of `tools`
    m.record_call(&stranger, ops::call_outcome::ok, 1ms);
    auto const text = m.render();
    CHECK(has_line(text, R"(toolgate_build_info{version="9.9.9"} 1)"));
    CHECK(has_line(text,
        R"(toolgate_tool_calls_total{toolkit="StoreApi",tool="DeleteFolder",outcome="ok"} 2)"));
    CHECK(has_line(text,
        R"(toolgate_tool_calls_total{toolkit="KanbanApi",tool="GetCard",outcome="cancelled"} 1)"));
    CHECK(has_line(text,
        R"(toolgate_tool_calls_total{toolkit="StoreApi",tool="GetFile",outcome="protocol_error"} 1)"));
    CHECK(text.find(R"(tool="GetFile",outcome="ok")") == std::string::npos); // zero: left out
    CHECK(has_line(text,
        R"(toolgate_tool_calls_total{toolkit="toolgate",tool="toolgate_search_tools",outcome="ok"} 1)"));
    CHECK(has_line(text, R"(toolgate_tool_call_duration_seconds_count{toolkit="StoreApi"} 2)"));
    CHECK(has_line(
        text, R"(toolgate_tool_call_duration_seconds_bucket{toolkit="KanbanApi",le="1"} 0)"));
    CHECK(has_line(
        text, R"(toolgate_tool_call_duration_seconds_bucket{toolkit="KanbanApi",le="2.5"} 1)"));
    CHECK(text.find(R"(toolkit="none")") == std::string::npos);
}

TEST_CASE("server metrics count upstream responses by class, failures by reason, retries and "
          "redirects",
    "[ops][metrics]")
{
    auto const tools = two_toolkits();
    ops::server_metrics m(tools, "1");
    auto& o = m.upstream_observer();
    o.on_response("StoreApi", 200);
    o.on_response("StoreApi", 204);
    o.on_response("StoreApi", 503);
    o.on_retry("StoreApi");
    o.on_response("KanbanApi", 302);
    o.on_redirect("KanbanApi");
    o.on_failure("KanbanApi", transport::outbound_failure::timeout);
    o.on_failure("Elsewhere", transport::outbound_failure::connect);
    m.record_listing(true, 1000);
    m.record_listing(false, 5000);
    m.record_listing(false, 5000);
    auto const text = m.render();
    CHECK(has_line(text, R"(toolgate_upstream_requests_total{toolkit="StoreApi",class="2xx"} 2)"));
    CHECK(has_line(text, R"(toolgate_upstream_requests_total{toolkit="StoreApi",class="5xx"} 1)"));
    CHECK(has_line(text, R"(toolgate_upstream_requests_total{toolkit="KanbanApi",class="3xx"} 1)"));
    CHECK(has_line(text, R"(toolgate_upstream_retries_total{toolkit="StoreApi"} 1)"));
    CHECK(has_line(text, R"(toolgate_upstream_redirects_total{toolkit="KanbanApi"} 1)"));
    CHECK(has_line(
        text, R"(toolgate_upstream_failures_total{toolkit="KanbanApi",reason="timeout"} 1)"));
    // A sender outside the catalogue lands in the one extra row, which then shows.
    CHECK(has_line(text, R"(toolgate_upstream_failures_total{toolkit="none",reason="connect"} 1)"));
    CHECK(has_line(text, R"(toolgate_listings_total{encoding="gzip"} 1)"));
    CHECK(has_line(text, R"(toolgate_listing_bytes_total{encoding="identity"} 10000)"));
    // Every family is declared once, before its samples.
    std::set<std::string> typed;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        if (line.starts_with("# TYPE ")) {
            auto name = line.substr(7, line.find(' ', 7) - 7);
            CHECK(typed.insert(name).second);
        }
    }
}

TEST_CASE("traceparent: valid values are read, malformed ones ignored", "[ops][trace]")
{
    auto const ok
        = protocol::parse_traceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
    REQUIRE(ok);
    CHECK(ok->trace_id() == "4bf92f3577b34da6a3ce929d0e0e4736");
    CHECK(ok->parent_id() == "00f067aa0ba902b7");
    CHECK(ok->flags() == "01");
    CHECK(
        ok->child("1111111111111111") == "00-4bf92f3577b34da6a3ce929d0e0e4736-1111111111111111-01");
    // A later version may carry more fields after a dash.
    CHECK(protocol::parse_traceparent(
        "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra"));
    for (auto const* bad : {
             "",
             "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01", // upper case
             "00-00000000000000000000000000000000-00f067aa0ba902b7-01", // zero trace id
             "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", // zero parent id
             "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", // version ff
             "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-x", // 00 has no extra
             "00-4bf92f3577b34da6a3ce929d0e0e473-600f067aa0ba902b7-01", // dashes misplaced
             "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0\n",
         }) {
        INFO(bad);
        CHECK_FALSE(protocol::parse_traceparent(bad));
    }
    CHECK(protocol::checked_tracestate("vendor=abc,other=1") == "vendor=abc,other=1");
    CHECK_FALSE(protocol::checked_tracestate("bad\nvalue"));
    CHECK_FALSE(protocol::checked_tracestate(std::string(600, 'a')));
    auto const a = protocol::new_span_id();
    auto const b = protocol::new_span_id();
    CHECK(a.size() == 16);
    CHECK(a != b);
    CHECK(a.find_first_not_of("0123456789abcdef") == std::string::npos);
}

TEST_CASE("JSON logs: one object a line with time, level, message and the event's fields",
    "[ops][logging]")
{
    std::ostringstream captured;
    auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(captured);
    auto logger = std::make_shared<spdlog::logger>("ops-test", sink);
    spdlog::set_default_logger(logger);
    spdlog::set_level(spdlog::level::info);
    ops::set_log_format("json");
    ops::log_event(spdlog::level::info, "tools/call",
        { { "tool", std::string_view("Store.\"Quoted\"\n") }, { "ms", std::int64_t(12) },
            { "ok", true }, { "empty", std::string_view() }, { "none", std::monostate {} },
            { "bytes", std::string_view("bad \xff utf8") } });
    spdlog::info("plain {}", "message");
    ops::log_event(spdlog::level::debug, "not shown", {});
    ops::set_log_format("text");
    ops::log_event(spdlog::level::info, "tools/call",
        { { "tool", std::string_view("X.Y") }, { "ms", std::int64_t(3) } });

    std::istringstream lines(captured.str());
    std::string line;
    REQUIRE(std::getline(lines, line));
    auto const first = json::parse(line).as_object();
    CHECK(first.at("message") == "tools/call");
    CHECK(first.at("level") == "info");
    CHECK(first.at("time").as_string().ends_with("Z"));
    CHECK(first.at("tool") == "Store.\"Quoted\"\n");
    CHECK(first.at("ms") == 12);
    CHECK(first.at("ok") == true);
    CHECK_FALSE(first.contains("empty"));
    CHECK_FALSE(first.contains("none"));
    CHECK(first.at("bytes") == "bad \xef\xbf\xbd utf8");
    REQUIRE(std::getline(lines, line));
    CHECK(json::parse(line).at("message") == "plain message");
    REQUIRE(std::getline(lines, line));
    CHECK(line.ends_with("tools/call tool=X.Y ms=3"));
    CHECK_FALSE(std::getline(lines, line));
}

TEST_CASE("request ids are unique, and log tags are stable and hide their input", "[ops][logging]")
{
    auto const a = ops::new_request_id();
    auto const b = ops::new_request_id();
    CHECK(a.view().size() == 16);
    CHECK(a.view() != b.view());
    CHECK(a.view().find_first_not_of("0123456789abcdef") == std::string_view::npos);
    CHECK(ops::log_tag("jwt:alice") == ops::log_tag("jwt:alice"));
    CHECK(ops::log_tag("jwt:alice").size() == 12);
    CHECK(ops::log_tag("jwt:alice") != ops::log_tag("jwt:bob"));
    CHECK(ops::log_tag("").empty());
}

namespace {

/// A temporary config file, removed at the end.
struct temp_file {
    explicit temp_file(std::string const& text)
    {
        static int n = 0;
        path = std::filesystem::temp_directory_path()
            / ("toolgate-ops-" + std::to_string(::getpid()) + "-" + std::to_string(++n) + ".toml");
        std::ofstream(path) << text;
    }
    ~temp_file() { std::filesystem::remove(path); }
    std::filesystem::path path;
};

std::optional<app::config> parse(std::vector<std::string> args, int& exit_code)
{
    args.insert(args.begin(), "toolgate");
    std::vector<char*> argv;
    for (auto& a : args) {
        argv.push_back(a.data());
    }
    argv.push_back(nullptr);
    auto parsed = app::parse_config(static_cast<int>(args.size()), argv.data(), "test");
    if (!parsed) { // as run_main reports it
        app::print_error("toolgate: " + parsed.error().message);
        exit_code = 2;
        return std::nullopt;
    }
    exit_code = 0;
    return std::move(*parsed);
}

} // namespace

TEST_CASE("config precedence: flag over environment over file over default", "[ops][config]")
{
    temp_file file(R"(# settings
port = 9001
host = "127.0.0.2"
threads = 3
call-timeout = 20
allow-unauthenticated = true
allowed-origin = ["https://a.example", "https://b.example"]
log-level = "debug"
base-url = ["KanbanApi=https://file.example", "DeployApi=https://deploy.example"]
)");
    ::setenv("TOOLGATE_PORT", "9002", 1);
    ::setenv("TOOLGATE_LOG_LEVEL", "warn", 1);
    ::setenv("TOOLGATE_BASE_URL_KANBANAPI", "https://env.example", 1);
    int code = -1;
    auto cfg = parse({ "--config", file.path.string(), "--threads", "5" }, code);
    ::unsetenv("TOOLGATE_PORT");
    ::unsetenv("TOOLGATE_LOG_LEVEL");
    ::unsetenv("TOOLGATE_BASE_URL_KANBANAPI");
    REQUIRE(cfg);
    CHECK(cfg->http.threads == 5); // flag over file
    CHECK(cfg->http.port == 9002); // environment over file
    CHECK(cfg->ops.log_level == "warn"); // environment over file
    CHECK(cfg->http.host == "127.0.0.2"); // file over default
    CHECK(cfg->upstream.call_timeout == 20s); // file, through an option callback
    CHECK(cfg->http.allow_unauthenticated); // a flag set by the file
    CHECK(cfg->http.allowed_origins
        == std::vector<std::string> { "https://a.example", "https://b.example" });
    // The file's KanbanApi entry yields to TOOLGATE_BASE_URL_KANBANAPI; DeployApi's stays.
    CHECK(
        cfg->upstream.base_urls == std::vector<std::string> { "DeployApi=https://deploy.example" });
    CHECK(cfg->limits.max_inflight_total == 256); // default
}

TEST_CASE("config file: unknown keys, tables and refused values name the file, line and key",
    "[ops][config]")
{
    auto const refused = [](std::string const& text, std::string const& expected) {
        temp_file file(text);
        temp_file err_file("");
        // Errors are written to fd 2 in one write: catch them there.
        std::fflush(stderr);
        int const saved = ::dup(2);
        int const fd = ::open(err_file.path.c_str(), O_WRONLY | O_TRUNC);
        ::dup2(fd, 2);
        int code = -1;
        auto cfg = parse({ "--config", file.path.string() }, code);
        std::fflush(stderr);
        ::dup2(saved, 2);
        ::close(fd);
        ::close(saved);
        std::ifstream in(err_file.path);
        std::string const err(
            (std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        INFO(err);
        CHECK_FALSE(cfg);
        CHECK(code == 2);
        CHECK(err.find(file.path.string() + expected) != std::string::npos);
    };
    refused("port = 8080\n\nprot = 1\n", ":3: unknown key \"prot\"");
    refused("log_level = \"debug\"\n",
        ":1: unknown key \"log_level\"; options are spelled as on "
        "the command line: log-level");
    refused("port = 8080\n[server]\nhost = \"x\"\n", ":2: server is a table");
    refused("threads = 500\n", ":1: threads:"); // outside the option's range
    refused("port = [1, 2]\n", ":1: port takes one value, not an array");
    refused("config = \"other.toml\"\n", ":1: unknown key \"config\"");
    refused("port = 80\nport = 81\n", ":2: not valid TOML");
}

TEST_CASE("secret options are recognised by name, paths to secrets are not", "[ops][config]")
{
    CHECK(app::is_secret_option("session-key"));
    CHECK(app::is_secret_option("client-secret"));
    CHECK(app::is_secret_option("api-token"));
    CHECK_FALSE(app::is_secret_option("auth-token-file"));
    CHECK_FALSE(app::is_secret_option("oauth-authorization-server"));
    CHECK_FALSE(app::is_secret_option("max-sessions-per-principal"));
    CHECK_FALSE(app::is_secret_option("max-result-tokens")); // a limit, counted in tokens
    CHECK_FALSE(app::is_secret_option("max-result-tokens-cap"));
    CHECK_FALSE(app::is_secret_option("keyboard"));
}

TEST_CASE("config: --threads defaults to the cores the process may run on", "[ops]")
{
    cpu_set_t saved;
    REQUIRE(::sched_getaffinity(0, sizeof saved, &saved) == 0);
    auto const all = toolgate::app::default_threads();
    CHECK(all == std::min(64u, unsigned(CPU_COUNT(&saved))));
    cpu_set_t one;
    CPU_ZERO(&one);
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
        if (CPU_ISSET(cpu, &saved)) {
            CPU_SET(cpu, &one);
            break;
        }
    }
    REQUIRE(::sched_setaffinity(0, sizeof one, &one) == 0);
    auto const pinned = toolgate::app::default_threads();
    ::sched_setaffinity(0, sizeof saved, &saved);
    CHECK(pinned == 1);
    toolgate::app::config defaults;
    CHECK(defaults.http.threads == all);
}

TEST_CASE("config: TOOLGATE_TOOLKITS and TOOLGATE_TOOLS select what is served", "[ops]")
{
    ::setenv("TOOLGATE_TOOLKITS", "StoreApi,KanbanApi", 1);
    ::setenv("TOOLGATE_TOOLS", "*.Get*", 1);
    int code = 0;
    auto cfg = parse({}, code);
    ::unsetenv("TOOLGATE_TOOLKITS");
    ::unsetenv("TOOLGATE_TOOLS");
    REQUIRE(cfg);
    CHECK(cfg->catalogue.toolkits == std::vector<std::string> { "StoreApi", "KanbanApi" });
    CHECK(cfg->catalogue.tools == std::vector<std::string> { "*.Get*" });
    auto flag_wins = parse({ "--toolkits", "DeployApi" }, code);
    REQUIRE(flag_wins);
    CHECK(flag_wins->catalogue.toolkits == std::vector<std::string> { "DeployApi" });
}

TEST_CASE("config: the result budget from the environment and the config file", "[ops][config]")
{
    temp_file file("max-result-tokens = 3000\nmax-result-tokens-cap = 9000\n");
    int code = -1;
    auto from_file = parse({ "--config", file.path.string() }, code);
    REQUIRE(from_file);
    CHECK(from_file->results.max_result_tokens == 3000);
    CHECK(from_file->results.max_result_tokens_cap == 9000);
    ::setenv("TOOLGATE_MAX_RESULT_TOKENS", "0", 1);
    ::setenv("TOOLGATE_MAX_RESULT_TOKENS_CAP", "20000", 1);
    auto from_env = parse({ "--config", file.path.string() }, code);
    ::unsetenv("TOOLGATE_MAX_RESULT_TOKENS");
    ::unsetenv("TOOLGATE_MAX_RESULT_TOKENS_CAP");
    REQUIRE(from_env);
    CHECK(from_env->results.max_result_tokens == 0); // environment over file; 0: no budget
    CHECK(from_env->results.max_result_tokens_cap == 20000);
    auto defaults = parse({}, code);
    REQUIRE(defaults);
    CHECK(defaults->results.max_result_tokens == 8000);
    CHECK(defaults->results.max_result_tokens_cap == 50000);
    CHECK_FALSE(parse({ "--max-result-tokens", "lots" }, code));
    CHECK(code == 2);
}
