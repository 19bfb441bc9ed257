// Replays every fuzz target's seed corpus and crash regressions (test/fuzz/corpus/<target>/,
// test/fuzz/regressions/<target>/) through the target function, in every build. A crash the
// fuzzer found stays fixed: its input is committed under regressions/ and runs here, under
// ASan+UBSan in `make test-asan`.
#include "fuzz_target.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

int toolgate_fuzz_jsonrpc(std::uint8_t const* data, std::size_t size);
int toolgate_fuzz_line_framer(std::uint8_t const* data, std::size_t size);
int toolgate_fuzz_http(std::uint8_t const* data, std::size_t size);
int toolgate_fuzz_validate(std::uint8_t const* data, std::size_t size);
int toolgate_fuzz_request_builder(std::uint8_t const* data, std::size_t size);

namespace {

namespace fs = std::filesystem;
using target_fn = int (*)(std::uint8_t const*, std::size_t);

std::size_t replay(std::string const& target, target_fn fn)
{
    std::size_t count = 0;
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
            INFO("input " << file.string());
            CHECK(fn(reinterpret_cast<std::uint8_t const*>(bytes.data()), bytes.size()) == 0);
            ++count;
        }
    }
    return count;
}

} // namespace

TEST_CASE("fuzz inputs replay cleanly: JSON-RPC parser and dispatcher", "[fuzz][protocol]")
{
    CHECK(replay("jsonrpc", toolgate_fuzz_jsonrpc) > 0);
}

TEST_CASE("fuzz inputs replay cleanly: stdio line framer", "[fuzz][stdio]")
{
    CHECK(replay("line_framer", toolgate_fuzz_line_framer) > 0);
}

TEST_CASE("fuzz inputs replay cleanly: HTTP request path", "[fuzz][http]")
{
    CHECK(replay("http", toolgate_fuzz_http) > 0);
}

TEST_CASE("fuzz inputs replay cleanly: argument validation", "[fuzz][toolkits]")
{
    CHECK(replay("validate", toolgate_fuzz_validate) > 0);
}

TEST_CASE("fuzz inputs replay cleanly: request building", "[fuzz][toolkits]")
{
    CHECK(replay("request_builder", toolgate_fuzz_request_builder) > 0);
}
