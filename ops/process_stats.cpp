// /proc/self/stat, /proc/stat (boot time), /proc/self/fd and getrlimit.
#include "ops/process_stats.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <unistd.h>

namespace toolgate::ops {
namespace {

std::optional<double> boot_time_seconds()
{
    std::ifstream in("/proc/stat");
    std::string key;
    while (in >> key) {
        if (key == "btime") {
            double v = 0;
            in >> v;
            return v;
        }
        in.ignore(1 << 20, '\n');
    }
    return std::nullopt;
}

} // namespace

std::optional<process_stats> read_process_stats()
{
    std::ifstream in("/proc/self/stat");
    std::string line;
    if (!std::getline(in, line)) {
        return std::nullopt;
    }
    // Field 2 (comm) may hold spaces and parentheses: the fields we want follow its last ')'.
    auto const close = line.rfind(')');
    if (close == std::string::npos) {
        return std::nullopt;
    }
    std::istringstream fields(line.substr(close + 2));
    // From field 3 (state) on: utime is field 14, stime 15, starttime 22, vsize 23, rss 24.
    std::string skip;
    unsigned long long utime = 0, stime = 0, starttime = 0, vsize = 0;
    long long rss = 0;
    for (int field = 3; field <= 24 && fields; ++field) {
        switch (field) {
        case 14:
            fields >> utime;
            break;
        case 15:
            fields >> stime;
            break;
        case 22:
            fields >> starttime;
            break;
        case 23:
            fields >> vsize;
            break;
        case 24:
            fields >> rss;
            break;
        default:
            fields >> skip;
        }
    }
    if (!fields) {
        return std::nullopt;
    }
    auto const ticks = static_cast<double>(sysconf(_SC_CLK_TCK));
    auto const page = static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
    process_stats out;
    out.cpu_seconds = static_cast<double>(utime + stime) / ticks;
    out.virtual_bytes = vsize;
    out.resident_bytes = rss > 0 ? static_cast<std::uint64_t>(rss) * page : 0;
    if (auto boot = boot_time_seconds()) {
        out.start_time_seconds = *boot + static_cast<double>(starttime) / ticks;
    }
    std::error_code ec;
    for (auto it = std::filesystem::directory_iterator("/proc/self/fd", ec);
         !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
        ++out.open_fds;
    }
    if (out.open_fds > 0) {
        --out.open_fds; // the directory iterator's own descriptor
    }
    rlimit limit {};
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0) {
        out.max_fds = limit.rlim_cur;
    }
    return out;
}

} // namespace toolgate::ops
