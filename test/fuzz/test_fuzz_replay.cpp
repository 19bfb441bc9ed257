// Replays every fuzz target's seed corpus and crash regressions (test/fuzz/corpus/<target>/,
// test/fuzz/regressions/<target>/) through the target function, in every build. A crash the
// fuzzer found stays fixed: its input is committed under regressions/ and runs here, under
// ASan+UBSan in `make test-asan`.
#include "fuzz_target.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

int toolgate_fuzz_jsonrpc(std::uint8_t const* data, std::size_t size);
int toolgate_fuzz_line_framer(std::uint8_t const* data, std::size_t size);
int toolgate_fuzz_http(std::uint8_t const* data, std::size_t size);
int toolgate_fuzz_validate(std::uint8_t const* data, std::size_t size);
int toolgate_fuzz_request_builder(std::uint8_t const* data, std::size_t size);

namespace {

namespace fs = std::filesystem;
using target_fn = int (*)(std::uint8_t const*, std::size_t);

/// What one input did to a target: nothing (empty), or the broken invariant / exception.
std::string run_one(target_fn fn, std::string_view bytes)
{
    try {
        if (int const code = fn(reinterpret_cast<std::uint8_t const*>(bytes.data()), bytes.size());
            code != 0) {
            return "returned " + std::to_string(code);
        }
        return {};
    } catch (toolgate_fuzz_violation const& e) {
        return std::string("invariant broken: ") + e.what();
    } catch (std::exception const& e) {
        return std::string("threw: ") + e.what();
    }
}

struct replay_result {
    std::size_t inputs = 0;
    std::vector<std::string> failures; ///< "file: what happened", one per failing input
};

replay_result replay(std::string const& target, target_fn fn)
{
    replay_result out;
    for (char const* kind : { "corpus", "regressions" }) {
        fs::path const dir = fs::path(TOOLGATE_FUZZ_DIR) / kind / target;
        if (!fs::is_directory(dir)) {
            continue;
        }
        std::vector<fs::path> files;
        for (auto const& entry : fs::directory_iterator(dir)) {
            if (entry.is_regular_file()) {
                files.push_back(entry.path());
            }
        }
        std::sort(files.begin(), files.end());
        for (auto const& file : files) {
            std::ifstream in(file, std::ios::binary);
            std::string const bytes((std::istreambuf_iterator<char>(in)), {});
            if (auto problem = run_one(fn, bytes); !problem.empty()) {
                out.failures.push_back(file.string() + ": " + problem);
            }
            ++out.inputs;
        }
    }
    return out;
}

void check_replay(std::string const& target, target_fn fn)
{
    auto const result = replay(target, fn);
    CHECK(result.inputs > 0);
    for (auto const& failure : result.failures) {
        FAIL_CHECK(failure);
    }
}

/// A target whose invariant the input "broken" violates, to prove a violation is reported.
TOOLGATE_FUZZ_TARGET(replay_selftest)
{
    std::string_view const text(reinterpret_cast<char const*>(data), size);
    TOOLGATE_FUZZ_CHECK(text != "broken");
    return 0;
}

} // namespace

TEST_CASE("fuzz replay: an input that breaks an invariant is reported with the invariant", "[fuzz]")
{
    CHECK(run_one(toolgate_fuzz_replay_selftest, "fine").empty());
    auto const problem = run_one(toolgate_fuzz_replay_selftest, "broken");
    CHECK_THAT(problem, Catch::StartsWith("invariant broken: text != \"broken\""));
    // A target that returns non-zero or throws is a failure too.
    CHECK(run_one([](std::uint8_t const*, std::size_t) { return 1; }, "x") == "returned 1");
    CHECK_THAT(
        run_one(
            [](std::uint8_t const*, std::size_t) -> int { throw std::runtime_error("boom"); }, "x"),
        Catch::Equals("threw: boom"));
}

TEST_CASE("fuzz inputs replay cleanly: JSON-RPC parser and dispatcher", "[fuzz][protocol]")
{
    check_replay("jsonrpc", toolgate_fuzz_jsonrpc);
}

TEST_CASE("fuzz inputs replay cleanly: stdio line framer", "[fuzz][stdio]")
{
    check_replay("line_framer", toolgate_fuzz_line_framer);
}

TEST_CASE("fuzz inputs replay cleanly: HTTP request path", "[fuzz][http]")
{
    check_replay("http", toolgate_fuzz_http);
}

TEST_CASE("fuzz inputs replay cleanly: argument validation", "[fuzz][toolkits]")
{
    check_replay("validate", toolgate_fuzz_validate);
}

TEST_CASE("fuzz inputs replay cleanly: request building", "[fuzz][toolkits]")
{
    check_replay("request_builder", toolgate_fuzz_request_builder);
}
