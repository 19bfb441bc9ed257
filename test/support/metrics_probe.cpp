#include "metrics_probe.hpp"

#include <string>
#include <thread>

namespace toolgate::testing {

bool wait_calls_in_flight(
    std::uint16_t port, int count, header_pairs const& headers, std::chrono::milliseconds timeout)
{
    auto const sample = "\ntoolgate_tool_calls_in_flight " + std::to_string(count) + "\n";
    auto const deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
        auto const metrics = http_request(port, "GET", "/metrics", headers);
        if (metrics.status == 200 && metrics.body.find(sample) != std::string::npos) {
            return true;
        }
        if (std::chrono::steady_clock::now() >= deadline) {
            return false;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

} // namespace toolgate::testing
