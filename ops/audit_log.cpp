// The audit log (see audit_log.hpp). Lines are formatted on the caller's thread (cheap, and
// nothing of the caller's is kept) and written by one thread of the log's own; the caller
// holds the mutex only to push a string.
#include "ops/audit_log.hpp"

#include "common/thread_name.hpp"
#include "ops/logging.hpp"
#include "toolkits/secret_names.hpp"

#include <CLI/App.hpp>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

namespace toolgate::ops {
namespace {

std::string utc_time(std::chrono::system_clock::time_point when)
{
    auto const seconds = std::chrono::time_point_cast<std::chrono::seconds>(when);
    auto const millis
        = std::chrono::duration_cast<std::chrono::milliseconds>(when - seconds).count();
    auto const t = std::chrono::system_clock::to_time_t(seconds);
    std::tm utc {};
    gmtime_r(&t, &utc);
    char stamp[32];
    auto const n = std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &utc);
    return fmt::format("{}.{:03}Z", std::string_view(stamp, n), millis);
}

/// Writes all of `text`, retrying short writes and interruptions.
bool write_all(int fd, std::string_view text)
{
    while (!text.empty()) {
        auto const n = ::write(fd, text.data(), text.size());
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            return false;
        }
        text.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

} // namespace

void add_audit_options(CLI::App& app, audit_options& options)
{
    app.add_option("--audit-log", options.file,
           "append one JSON line per call of a tool that may change data (who, which tool and "
           "ids, outcome, platform status) to this file (mode 0600; reopened on SIGHUP)")
        ->envname("TOOLGATE_AUDIT_LOG");
}

std::string audit_line(audit_record const& record)
{
    std::string line = "{\"time\":" + json_quoted(utc_time(record.time));
    line += ",\"principal\":";
    line += record.principal.empty() ? std::string("null") : json_quoted(record.principal);
    line += ",\"tool\":" + json_quoted(record.tool);
    line += ",\"targets\":{";
    for (std::size_t i = 0; i < record.targets.size(); ++i) {
        auto const& [name, value] = record.targets[i];
        line += i == 0 ? "" : ",";
        line += json_quoted(name) + ":";
        // An id the platform takes in its path is not a secret; a path parameter named like
        // one is masked all the same, as in every log line.
        line += json_quoted(toolkits::is_secret_name(name) ? std::string_view("***") : value);
    }
    line += "},\"arguments\":[";
    for (std::size_t i = 0; i < record.argument_names.size(); ++i) {
        line += i == 0 ? "" : ",";
        line += json_quoted(record.argument_names[i]);
    }
    line += "],\"outcome\":" + json_quoted(record.outcome);
    line += ",\"status\":";
    line += record.status == 0 ? std::string("null") : std::to_string(record.status);
    line += ",\"request_id\":";
    line += record.request_id.empty() ? std::string("null") : json_quoted(record.request_id);
    line += ",\"trace_id\":";
    line += record.trace_id.empty() ? std::string("null") : json_quoted(record.trace_id);
    auto const micros = std::chrono::duration_cast<std::chrono::microseconds>(record.duration);
    line += fmt::format(",\"duration_ms\":{:.3f}}}", static_cast<double>(micros.count()) / 1000.0);
    return line;
}

audit_log::audit_log(std::string path, std::size_t max_queued)
    : path_(std::move(path))
    , max_queued_(max_queued)
{
    if (!open_file()) {
        throw std::runtime_error(fmt::format(
            "--audit-log {}: cannot open it for appending: {}", path_, std::strerror(errno)));
    }
    thread_ = std::thread([this] {
        common::name_this_thread("toolgate-audit");
        run();
    });
}

audit_log::~audit_log()
{
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_one();
    thread_.join();
    if (fd_ >= 0) {
        ::close(fd_);
    }
}

bool audit_log::open_file()
{
    int const fd = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) {
        return false;
    }
    // A file that existed before may be readable by others: the log says who did what.
    if (::fchmod(fd, 0600) != 0) {
        spdlog::warn(
            "--audit-log {}: could not set its mode to 0600: {}", path_, std::strerror(errno));
    }
    if (fd_ >= 0) {
        ::close(fd_);
    }
    fd_ = fd;
    return true;
}

void audit_log::write(audit_record const& record)
{
    auto line = audit_line(record);
    line += '\n';
    {
        std::lock_guard lock(mutex_);
        if (queue_.size() >= max_queued_) {
            ++dropped_;
            ++dropped_unreported_;
            return;
        }
        queue_.push_back(std::move(line));
        ++queued_total_;
    }
    wake_.notify_one();
}

void audit_log::reopen()
{
    {
        std::lock_guard lock(mutex_);
        reopen_ = true;
    }
    wake_.notify_one();
}

void audit_log::flush()
{
    std::unique_lock lock(mutex_);
    auto const target = queued_total_;
    written_.wait(lock, [&] { return written_total_ >= target; });
}

std::uint64_t audit_log::dropped() const
{
    std::lock_guard lock(mutex_);
    return dropped_;
}

void audit_log::run()
{
    std::unique_lock lock(mutex_);
    for (;;) {
        wake_.wait(lock, [&] { return stopping_ || reopen_ || !queue_.empty(); });
        bool const reopen = std::exchange(reopen_, false);
        auto lines = std::move(queue_);
        queue_.clear();
        auto const lost = std::exchange(dropped_unreported_, 0);
        bool const stop = stopping_;
        lock.unlock();
        if (reopen) {
            if (open_file()) {
                spdlog::info("SIGHUP: audit log {} reopened", path_);
            } else {
                spdlog::error("SIGHUP: audit log {} could not be reopened ({}); still writing "
                              "to the file open before",
                    path_, std::strerror(errno));
            }
        }
        if (lost > 0) {
            lines.push_front(fmt::format("{{\"time\":{},\"lost_records\":{}}}\n",
                json_quoted(utc_time(std::chrono::system_clock::now())), lost));
        }
        auto const count = lines.size() - (lost > 0 ? 1 : 0);
        write_batch(lines);
        lock.lock();
        written_total_ += count;
        written_.notify_all();
        if (stop && queue_.empty()) {
            return;
        }
    }
}

void audit_log::write_batch(std::deque<std::string>& lines)
{
    // One write per batch: the lines of calls that ended together go out in one system call.
    std::string text;
    for (auto& line : lines) {
        text += line;
    }
    if (!text.empty() && !write_all(fd_, text)) {
        spdlog::error("audit log {}: write failed: {}; {} record(s) lost", path_,
            std::strerror(errno), lines.size());
    }
}

} // namespace toolgate::ops
