// The process's own resource use, read from /proc for the standard `process_*` metrics.
#pragma once

#include <cstdint>
#include <optional>

namespace toolgate::ops {

struct process_stats {
    double cpu_seconds = 0; ///< user + system
    std::uint64_t resident_bytes = 0;
    std::uint64_t virtual_bytes = 0;
    std::uint64_t open_fds = 0;
    std::uint64_t max_fds = 0; ///< the soft RLIMIT_NOFILE
    double start_time_seconds = 0; ///< since the Unix epoch
};

/// Reads /proc/self (Linux). nullopt when /proc is not there. procfs lives in memory, so the
/// reads do not wait on a disk; still, call it only for a scrape, not per request.
std::optional<process_stats> read_process_stats();

} // namespace toolgate::ops
