// fake_platform: the test fake platform as a process, for end-to-end tests and benchmarks.
// Prints `port=<n> ca=<path>` on stdout once listening, answers every request with canned
// JSON, optionally logs each request as a JSON line, and exits when stdin reaches EOF.
#include "fake_faults.hpp"
#include "fake_platform.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <mutex>
#include <sstream>
#include <string>

namespace {

constexpr char const* usage
    = "usage: fake_platform [--plain] [--status N] [--body JSON | --body-file PATH]\n"
      "                     [--delay-ms N] [--log PATH]\n"
      "                     [--faults RATE [--seed N] [--oversized-bytes N] [--slow-ms N]]\n"
      "Serves on 127.0.0.1 (port printed as `port=<n> ca=<path>`) until stdin closes.\n"
      "--faults: that share of requests (0..1) gets a reset, close, stall, slow answer, 500,\n"
      "503/429 with Retry-After, an oversized or a malformed body; the counts are printed to\n"
      "stderr as `faults: name=n ...` at exit.\n";

std::string json_string(std::string_view text)
{
    std::string out = "\"";
    for (unsigned char c : text) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (c < 0x20) {
                out += fmt::format("\\u{:04x}", c);
            } else {
                out += static_cast<char>(c);
            }
        }
    }
    return out + "\"";
}

std::string to_json_line(toolgate::test::recorded_request const& request)
{
    std::string headers;
    for (auto const& [name, value] : request.headers) {
        if (!headers.empty()) {
            headers += ',';
        }
        headers.append(json_string(name)).append(":").append(json_string(value));
    }
    return fmt::format(R"({{"method":{},"target":{},"headers":{{{}}},"body":{}}})",
        json_string(request.method), json_string(request.target), headers,
        json_string(request.body));
}

struct settings {
    toolgate::test::fake_platform_options options;
    toolgate::test::fake_response response;
    std::string log_path;
    toolgate::test::fault_options faults;
};

bool parse_arguments(int argc, char** argv, settings& out)
{
    for (int i = 1; i < argc; ++i) {
        std::string const arg = argv[i];
        bool const has_value = i + 1 < argc;
        if (arg == "--plain") {
            out.options.tls = false;
        } else if (arg == "--status" && has_value) {
            out.response.status = static_cast<unsigned>(std::atoi(argv[++i]));
        } else if (arg == "--body" && has_value) {
            out.response.body = argv[++i];
        } else if (arg == "--body-file" && has_value) {
            std::ifstream file(argv[++i]);
            std::ostringstream text;
            text << file.rdbuf();
            if (!file) {
                return false;
            }
            out.response.body = text.str();
        } else if (arg == "--delay-ms" && has_value) {
            out.response.delay = std::chrono::milliseconds(std::atoi(argv[++i]));
        } else if (arg == "--log" && has_value) {
            out.log_path = argv[++i];
        } else if (arg == "--faults" && has_value) {
            out.faults.rate = std::atof(argv[++i]);
        } else if (arg == "--seed" && has_value) {
            out.faults.seed = static_cast<std::uint32_t>(std::atol(argv[++i]));
        } else if (arg == "--oversized-bytes" && has_value) {
            out.faults.oversized_bytes = static_cast<std::size_t>(std::atol(argv[++i]));
        } else if (arg == "--slow-ms" && has_value) {
            out.faults.slow = std::chrono::milliseconds(std::atol(argv[++i]));
        } else {
            return false;
        }
    }
    return true;
}

} // namespace

int main(int argc, char** argv)
{
    settings config;
    if (!parse_arguments(argc, argv, config)) {
        std::fputs(usage, stderr);
        return 2;
    }
    toolgate::test::fake_platform platform(config.options);
    std::mutex log_mutex;
    std::ofstream log;
    if (!config.log_path.empty()) {
        log.open(config.log_path, std::ios::app);
    }
    toolgate::test::fault_injector faults(config.faults);
    platform.set_handler([&](toolgate::test::recorded_request const& request) {
        if (log.is_open()) {
            std::lock_guard lock(log_mutex);
            log << to_json_line(request) << '\n' << std::flush;
        }
        return config.faults.rate > 0 ? faults.answer(config.response) : config.response;
    });

    // The one stdout line, read by the launching test or benchmark.
    fmt::print("port={} ca={}\n", platform.port(), toolgate::test::fake_platform::ca_file());
    std::fflush(stdout);

    std::string ignored;
    while (std::getline(std::cin, ignored)) { }
    if (config.faults.rate > 0) {
        std::fprintf(stderr, "faults: %s\n", faults.summary().c_str());
    }
    return 0;
}
