// stderr logging: the text pattern, the JSON-lines formatter, and structured events. An event's
// fields reach the JSON formatter through a thread-local pointer: the stderr logger is
// synchronous, so the formatter runs on the logging thread, inside log_event's call.
#include "ops/logging.hpp"

#include <openssl/evp.h>
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <array>
#include <atomic>
#include <chrono>
#include <ctime>
#include <random>

namespace toolgate::ops {
namespace {

std::atomic<bool> json_format { false };
thread_local std::span<const log_field> current_fields;

void append_utf8_escaped(std::string& out, std::string_view text)
{
    static constexpr char hex[] = "0123456789abcdef";
    for (std::size_t i = 0; i < text.size();) {
        auto const c = static_cast<unsigned char>(text[i]);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
            ++i;
        } else if (c == '\n') {
            out += "\\n";
            ++i;
        } else if (c == '\r') {
            out += "\\r";
            ++i;
        } else if (c == '\t') {
            out += "\\t";
            ++i;
        } else if (c < 0x20 || c == 0x7f) {
            out += "\\u00";
            out += hex[c >> 4];
            out += hex[c & 0xf];
            ++i;
        } else if (c < 0x80) {
            out += static_cast<char>(c);
            ++i;
        } else {
            // A whole, valid UTF-8 sequence passes; anything else becomes U+FFFD.
            std::size_t const len = c >= 0xc2 && c <= 0xdf ? 2
                : c >= 0xe0 && c <= 0xef                   ? 3
                : c >= 0xf0 && c <= 0xf4                   ? 4
                                                           : 0;
            bool valid = len > 0 && i + len <= text.size();
            for (std::size_t k = 1; valid && k < len; ++k) {
                valid = (static_cast<unsigned char>(text[i + k]) & 0xc0) == 0x80;
            }
            if (valid && len == 3) {
                auto const c1 = static_cast<unsigned char>(text[i + 1]);
                valid = !(c == 0xe0 && c1 < 0xa0)
                    && !(c == 0xed && c1 >= 0xa0); // overlong, surrogate
            } else if (valid && len == 4) {
                auto const c1 = static_cast<unsigned char>(text[i + 1]);
                valid = !(c == 0xf0 && c1 < 0x90) && !(c == 0xf4 && c1 >= 0x90);
            }
            if (valid) {
                out.append(text.substr(i, len));
                i += len;
            } else {
                out += "\xef\xbf\xbd";
                ++i;
            }
        }
    }
}

std::string_view level_name(spdlog::level::level_enum level)
{
    switch (level) {
    case spdlog::level::trace:
        return "trace";
    case spdlog::level::debug:
        return "debug";
    case spdlog::level::info:
        return "info";
    case spdlog::level::warn:
        return "warn";
    case spdlog::level::err:
        return "error";
    case spdlog::level::critical:
        return "critical";
    default:
        return "off";
    }
}

/// `{"time":"…Z","level":"…","message":"…",<fields>}` and a newline.
class json_formatter final : public spdlog::formatter {
public:
    void format(spdlog::details::log_msg const& msg, spdlog::memory_buf_t& dest) override
    {
        std::string line;
        line.reserve(128 + msg.payload.size());
        auto const since_epoch = msg.time.time_since_epoch();
        auto const secs = std::chrono::duration_cast<std::chrono::seconds>(since_epoch);
        auto const millis
            = std::chrono::duration_cast<std::chrono::milliseconds>(since_epoch - secs).count();
        std::time_t const t = secs.count();
        std::tm utc {};
        gmtime_r(&t, &utc);
        std::array<char, 40> stamp {};
        auto const n = std::strftime(stamp.data(), stamp.size(), "%Y-%m-%dT%H:%M:%S", &utc);
        line += R"({"time":")";
        line.append(stamp.data(), n);
        line += fmt::format(
            ".{:03}Z\",\"level\":\"{}\",\"message\":", millis, level_name(msg.level));
        line += json_quoted(std::string_view(msg.payload.data(), msg.payload.size()));
        for (auto const& field : current_fields) {
            line += ',';
            line += json_quoted(field.key);
            line += ':';
            if (auto const* s = std::get_if<std::string_view>(&field.value)) {
                line += json_quoted(*s);
            } else if (auto const* i = std::get_if<std::int64_t>(&field.value)) {
                line += std::to_string(*i);
            } else {
                line += std::get<bool>(field.value) ? "true" : "false";
            }
        }
        line += "}\n";
        dest.append(line.data(), line.data() + line.size());
    }

    std::unique_ptr<spdlog::formatter> clone() const override
    {
        return std::make_unique<json_formatter>();
    }
};

constexpr char const* text_pattern = "%Y-%m-%dT%H:%M:%S.%e %^%l%$ %v";

bool has_value(log_field const& field)
{
    if (std::holds_alternative<std::monostate>(field.value)) {
        return false;
    }
    auto const* s = std::get_if<std::string_view>(&field.value);
    return !s || !s->empty();
}

} // namespace

void init_logging()
{
    auto logger = spdlog::stderr_logger_mt("toolgate");
    logger->set_pattern(text_pattern);
    spdlog::set_default_logger(std::move(logger));
}

void set_log_level(std::string const& name)
{
    spdlog::set_level(spdlog::level::from_str(name));
}

void set_log_format(std::string const& name)
{
    bool const json = name == "json";
    json_format = json;
    if (json) {
        spdlog::set_formatter(std::make_unique<json_formatter>());
    } else {
        spdlog::set_pattern(text_pattern);
    }
}

void log_event(
    spdlog::level::level_enum level, std::string_view message, std::span<const log_field> fields)
{
    auto* logger = spdlog::default_logger_raw();
    if (!logger->should_log(level)) {
        return;
    }
    if (json_format) {
        // At most a few fields: the empty ones are dropped on a small stack copy.
        std::array<log_field, 24> kept;
        std::size_t n = 0;
        for (auto const& f : fields) {
            if (has_value(f) && n < kept.size()) {
                kept[n++] = f;
            }
        }
        current_fields = std::span<const log_field>(kept.data(), n);
        logger->log(level, "{}", message);
        current_fields = {};
        return;
    }
    std::string line(message);
    for (auto const& f : fields) {
        if (!has_value(f)) {
            continue;
        }
        line += ' ';
        line += f.key;
        line += '=';
        if (auto const* s = std::get_if<std::string_view>(&f.value)) {
            line += *s;
        } else if (auto const* i = std::get_if<std::int64_t>(&f.value)) {
            line += std::to_string(*i);
        } else {
            line += std::get<bool>(f.value) ? "true" : "false";
        }
    }
    logger->log(level, "{}", line);
}

request_id new_request_id()
{
    static std::uint32_t const prefix = [] {
        std::random_device rd;
        return static_cast<std::uint32_t>(rd());
    }();
    static std::atomic<std::uint32_t> counter { 0 };
    // Every call makes one: plain hex digits, no formatting library, no allocation.
    std::uint64_t v
        = (std::uint64_t(prefix) << 32) | (counter.fetch_add(1, std::memory_order_relaxed) + 1);
    static constexpr char hex[] = "0123456789abcdef";
    request_id out;
    for (int i = 15; i >= 0; --i, v >>= 4) {
        out.digits[static_cast<std::size_t>(i)] = hex[v & 0xf];
    }
    return out;
}

std::string log_tag(std::string_view value)
{
    if (value.empty()) {
        return {};
    }
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest {};
    unsigned size = 0;
    EVP_Digest(value.data(), value.size(), digest.data(), &size, EVP_sha256(), nullptr);
    static constexpr char hex[] = "0123456789abcdef";
    std::string out;
    for (std::size_t i = 0; i < 6; ++i) {
        out += hex[digest[i] >> 4];
        out += hex[digest[i] & 0xf];
    }
    return out;
}

std::string json_quoted(std::string_view text)
{
    std::string out = "\"";
    append_utf8_escaped(out, text);
    out += '"';
    return out;
}

} // namespace toolgate::ops
