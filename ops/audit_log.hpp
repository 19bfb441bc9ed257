// The audit log (--audit-log FILE): one JSON line for every call of a tool that may change
// data, whatever became of it (sent, shown by a dry run, declined by a person, refused by
// policy or quota), so that an operator can say who changed what. Never a secret, never a
// body: the tool, the ids it targeted and the names of the other arguments only.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace CLI {
class App;
}

namespace toolgate::ops {

/// The audit log's settings (its flag is added by add_audit_options).
struct audit_options {
    std::string file; ///< --audit-log: empty, no audit log
};

/// Adds --audit-log to `app`, writing into `options`.
void add_audit_options(CLI::App& app, audit_options& options);

/// One call as the audit log records it.
struct audit_record {
    std::chrono::system_clock::time_point time;
    std::string principal; ///< "" : no client authentication (written as null)
    std::string tool; ///< `Toolkit.Tool`
    /// The ids the call targets: its path parameters, by argument name, as given.
    std::vector<std::pair<std::string, std::string>> targets;
    std::vector<std::string> argument_names; ///< every argument given, names only
    /// ok, error (the platform refused, or the call failed on the way), invalid_arguments,
    /// dry_run, declined (a person said no), refused_policy, refused_quota,
    /// refused_confirmation (nobody could be asked).
    std::string outcome;
    unsigned status = 0; ///< the platform's HTTP status; 0: none came (written as null)
    std::string request_id; ///< the platform's request-id header; "" : none
    std::string trace_id; ///< the caller's W3C trace id; "" : none
    std::chrono::nanoseconds duration { 0 };
};

/// The record as one JSON line (without the newline). Target values whose argument is named
/// like a credential are written as "***".
std::string audit_line(audit_record const& record);

/// Appends records to a file from a thread of its own, so a request never waits for the disk:
/// write() only queues the line under a mutex held for a push. The file is created with mode
/// 0600 (an existing one is set to it) and opened for appending. Thread-safe.
class audit_log {
public:
    /// Opens `path`; throws std::runtime_error naming the file when it cannot be opened.
    /// Past `max_queued` lines waiting (the disk stalled), new records are dropped and
    /// counted, and the next line written says how many were lost.
    explicit audit_log(std::string path, std::size_t max_queued = 65536);
    /// Writes what is queued, then stops the thread.
    ~audit_log();
    audit_log(audit_log const&) = delete;
    audit_log& operator=(audit_log const&) = delete;

    void write(audit_record const& record);
    /// Closes and opens the file again before the next line (SIGHUP: after log rotation).
    void reopen();
    /// Blocks until every line queued before this call is written (tests, shutdown).
    void flush();
    std::string const& path() const { return path_; }
    std::uint64_t dropped() const;

private:
    void run();
    void write_batch(std::deque<std::string>& lines);
    bool open_file();

    std::string path_;
    std::size_t max_queued_;
    int fd_ = -1; ///< touched by the writer thread only (and the constructor)
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::condition_variable written_;
    std::deque<std::string> queue_;
    std::uint64_t queued_total_ = 0; ///< lines ever queued
    std::uint64_t written_total_ = 0; ///< lines ever taken off the queue and written
    std::uint64_t dropped_ = 0;
    std::uint64_t dropped_unreported_ = 0;
    bool reopen_ = false;
    bool stopping_ = false;
    std::thread thread_;
};

} // namespace toolgate::ops
