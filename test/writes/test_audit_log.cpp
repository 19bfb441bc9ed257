// The audit log (docs/controlling-writes.md "Audit log"): exactly one JSON line for every call of
// a tool that may change data, whatever became of it, none for reads or the meta-tools' own
// work; who, which tool and ids, argument names, outcome, platform status and request id,
// trace id, duration; never a secret or a body; mode 0600; reopened on SIGHUP.
#include "credentials/credentials_support.hpp"
#include "writes_support.hpp"

#include <boost/json/parse.hpp>

#include <csignal>
#include <filesystem>
#include <thread>

using namespace toolgate::testing;
using namespace toolgate::testing::writes;
using toolgate::test::fake_response;

namespace {

std::vector<std::string> lines_of(std::string const& path)
{
    std::vector<std::string> out;
    std::istringstream in(read_file(path));
    for (std::string line; std::getline(in, line);) {
        out.push_back(line);
    }
    return out;
}

/// The file's lines once it has `count` of them (the log writes from a thread of its own),
/// then a moment more to catch any extra one.
std::vector<std::string> await_lines(std::string const& path, std::size_t count)
{
    auto const deadline = std::chrono::steady_clock::now() + 10s;
    while (lines_of(path).size() < count && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(20ms);
    }
    std::this_thread::sleep_for(200ms);
    return lines_of(path);
}

std::vector<json::object> records(std::vector<std::string> const& lines)
{
    std::vector<json::object> out;
    for (auto const& line : lines) {
        INFO(line);
        auto value = json::parse(line);
        REQUIRE(value.is_object());
        out.push_back(value.as_object());
    }
    return out;
}

/// The platform answers 404 for board `gone`, 200 with a request id otherwise.
void script(fake_platform& platform)
{
    platform.set_handler([](toolgate::test::recorded_request const& request) {
        fake_response response;
        response.headers.emplace_back("X-Request-Id", "req-" + std::to_string(request.body.size()));
        if (request.path().find("/gone") != std::string::npos) {
            response.status = 404;
            response.body = R"({"message":"no such board"})";
        }
        return response;
    });
}

std::string const traced_meta
    = R"("_meta":{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"})";

} // namespace

TEST_CASE("stdio: the audit log has one line per call of a tool that may change data, none "
          "for reads, and never a secret or a body",
    "[writes][audit][stdio]")
{
    fake_platform platform;
    script(platform);
    temp_dir dir;
    auto const path = dir.file("audit.jsonl");
    stdio_server server(
        with(platform_args(platform), { "--audit-log", path }), toolgate_bin, secret_env());
    server.initialize();

    // Reads and the meta-tools' own work: no line.
    stdio_call(server, 1, "KanbanApi_CheckBoardBillableGuests",
        R"({"board_id":"b-1","organization_id_or_name":"o"})");
    stdio_call(server, 2, "toolgate_search_tools", R"({"query":"delete a board"})");
    stdio_call(server, 3, "toolgate_describe_tools", R"({"names":["KanbanApi_DeleteBoard"]})");

    // Sent (with a caller's trace), through toolgate_call_tool, shown by a dry run, invalid,
    // and refused by the platform.
    server.send(
        call_request("4", "KanbanApi_DeleteBoard", R"({"board_id_to_delete":"b-1"})", traced_meta));
    CHECK_FALSE(is_error(server.response(4).at("result")));
    stdio_call(server, 5, "toolgate_call_tool",
        R"({"name":"DeployApi_AddProjectDomain","arguments":{"project_identifier_or_name":"p-9",)"
        R"("project_domain_name":"s3cr3t-body.example.test"}})");
    stdio_call(
        server, 6, "KanbanApi_DeleteBoard", R"({"board_id_to_delete":"b-2","_dry_run":true})");
    stdio_call(server, 7, "KanbanApi_DeleteBoard", R"({"board":"b-3"})");
    stdio_call(server, 8, "KanbanApi_DeleteBoard", R"({"board_id_to_delete":"gone"})");

    auto const lines = await_lines(path, 5);
    REQUIRE(lines.size() == 5);
    for (auto const& line : lines) {
        CHECK_FALSE(leaks_secret(line));
    }
    auto const all = records(lines);
    CHECK(file_mode(path) == 0600);

    auto const& sent = all[0];
    CHECK(sent.at("tool") == "KanbanApi.DeleteBoard");
    CHECK(sent.at("principal").is_null()); // stdio: no client authentication
    CHECK(sent.at("targets") == json::parse(R"({"board_id_to_delete":"b-1"})"));
    CHECK(sent.at("arguments") == json::parse(R"(["board_id_to_delete"])"));
    CHECK(sent.at("outcome") == "ok");
    CHECK(sent.at("status") == 200);
    CHECK(sent.at("request_id") == "req-0");
    CHECK(sent.at("trace_id") == "4bf92f3577b34da6a3ce929d0e0e4736");
    CHECK(sent.at("duration_ms").as_double() > 0);
    CHECK_THAT(std::string(sent.at("time").as_string()), Catch::EndsWith("Z"));

    auto const& via_meta = all[1];
    CHECK(via_meta.at("tool") == "DeployApi.AddProjectDomain");
    CHECK(via_meta.at("targets") == json::parse(R"({"project_identifier_or_name":"p-9"})"));
    CHECK(via_meta.at("outcome") == "ok");
    CHECK(via_meta.at("trace_id").is_null());

    CHECK(all[2].at("outcome") == "dry_run");
    CHECK(all[2].at("status").is_null());
    CHECK(all[2].at("targets") == json::parse(R"({"board_id_to_delete":"b-2"})"));
    CHECK(all[3].at("outcome") == "invalid_arguments");
    CHECK(all[3].at("arguments") == json::parse(R"(["board"])"));
    CHECK(all[4].at("outcome") == "error");
    CHECK(all[4].at("status") == 404);
    CHECK(platform.request_count() == 4); // the read, b-1, the domain, gone
}

TEST_CASE("HTTP: the audit log names the authenticated client in both eras and is reopened on "
          "SIGHUP",
    "[writes][audit][http]")
{
    fake_platform platform;
    temp_dir dir;
    auto const path = dir.file("audit.jsonl");
    write_file(dir.file("tokens"), "bob bob-client-token-1\n");
    http_server_process server(toolgate_bin,
        with(platform_args(platform),
            { "--audit-log", path, "--auth-token-file", dir.file("tokens") }),
        secret_env());
    header_pairs const bob { { "Authorization", "Bearer bob-client-token-1" } };

    auto const modern = modern_call(
        server.port(), 1, "KanbanApi_DeleteBoard", R"({"board_id_to_delete":"m"})", bob);
    CHECK_FALSE(is_error(modern.at("result")));
    auto const first = await_lines(path, 1);
    REQUIRE(first.size() == 1);
    CHECK(records(first)[0].at("principal") == "static:bob");

    // Log rotation: the old file moves away, SIGHUP opens a new one at the same path.
    std::filesystem::rename(path, path + ".1");
    server.process().signal(SIGHUP);
    REQUIRE(server.process().wait_stderr("audit log " + path + " reopened"));
    auto const session = open_session(server.port(), bob);
    auto const legacy = session_call(
        server.port(), session, 2, "KanbanApi_DeleteBoard", R"({"board_id_to_delete":"s"})", bob);
    CHECK_FALSE(is_error(legacy.at("result")));
    auto const second = await_lines(path, 1);
    REQUIRE(second.size() == 1);
    auto const record = records(second)[0];
    CHECK(record.at("principal") == "static:bob");
    CHECK(record.at("targets").at("board_id_to_delete") == "s");
    CHECK(lines_of(path + ".1").size() == 1);
    CHECK(file_mode(path) == 0600);
    CHECK_FALSE(leaks_secret(server.process().stderr_text()));
}
