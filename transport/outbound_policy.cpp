// Pure rules of the outbound client: URL splitting, retry timing, redirect hygiene.
#include "transport/outbound_policy.hpp"

#include "transport/http_text.hpp"

#include <boost/url/parse.hpp>
#include <boost/url/url.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>

namespace toolgate::transport {
namespace urls = boost::urls;

namespace {

bool iequals(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && to_lower_ascii(a) == to_lower_ascii(b);
}

bool parse_number(std::string_view text, int& out)
{
    auto const* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, out);
    return ec == std::errc{} && ptr == end && !text.empty();
}

/// IMF-fixdate only ("Sun, 06 Nov 1994 08:49:37 GMT"): the one format senders must use
/// (RFC 9110 §5.6.7). Parsed by hand because strptime's %a/%b follow the process locale.
std::optional<std::chrono::system_clock::time_point> parse_http_date(std::string_view text)
{
    static constexpr std::array<std::string_view, 12> months = {
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    if (text.size() != 29 || text[3] != ',' || text.substr(25) != " GMT") {
        return std::nullopt;
    }
    int day = 0, year = 0, hour = 0, minute = 0, second = 0;
    auto const month_it = std::find(months.begin(), months.end(), text.substr(8, 3));
    if (month_it == months.end() || !parse_number(text.substr(5, 2), day) ||
        !parse_number(text.substr(12, 4), year) || !parse_number(text.substr(17, 2), hour) ||
        !parse_number(text.substr(20, 2), minute) || !parse_number(text.substr(23, 2), second)) {
        return std::nullopt;
    }
    using namespace std::chrono;
    auto const date = year_month_day{std::chrono::year{year},
                                     std::chrono::month{unsigned(month_it - months.begin() + 1)},
                                     std::chrono::day{unsigned(day)}};
    if (!date.ok() || hour > 23 || minute > 59 || second > 60) {
        return std::nullopt;
    }
    return sys_days{date} + hours{hour} + minutes{minute} + seconds{second};
}

} // namespace

std::string url_target::pool_key() const
{
    // Appended piecewise: `"literal" + std::string` trips a g++ 12 -Wrestrict false positive.
    std::string key = tls ? "https://" : "http://";
    key.append(to_lower_ascii(host)).append(":").append(port);
    return key;
}

std::string url_target::authority() const
{
    std::string out;
    if (host.find(':') != std::string::npos) {
        out.append("[").append(host).append("]");
    } else {
        out = host;
    }
    return out.append(":").append(port);
}

boost::system::result<url_target> parse_url_target(std::string_view url)
{
    auto parsed = urls::parse_uri(url);
    if (!parsed) {
        return parsed.error();
    }
    urls::url_view const& u = *parsed;
    url_target out;
    if (u.scheme_id() == urls::scheme::https) {
        out.tls = true;
    } else if (u.scheme_id() == urls::scheme::http) {
        out.tls = false;
    } else {
        return boost::system::errc::make_error_code(boost::system::errc::protocol_not_supported);
    }
    switch (u.host_type()) {
    case urls::host_type::ipv4:
    case urls::host_type::ipv6:
        out.host = u.host_address();
        out.host_is_ip = true;
        break;
    case urls::host_type::name:
        out.host = u.host_name();
        break;
    default:
        return boost::system::errc::make_error_code(boost::system::errc::invalid_argument);
    }
    if (out.host.empty()) {
        return boost::system::errc::make_error_code(boost::system::errc::invalid_argument);
    }
    out.port = u.port();
    if (out.port.empty()) {
        out.port = out.tls ? "443" : "80";
    }
    out.host_header = u.encoded_host();
    if (!u.port().empty()) {
        out.host_header.append(":").append(u.port());
    }
    out.path = u.encoded_path();
    if (out.path.empty()) {
        out.path.push_back('/'); // not `= "/"`: g++ 12 -Wrestrict false positive
    }
    out.target = out.path;
    if (u.has_query()) {
        out.target.append("?").append(u.encoded_query());
    }
    return out;
}

bool is_idempotent(std::string_view method)
{
    return method == "GET" || method == "HEAD" || method == "PUT" || method == "DELETE" ||
           method == "OPTIONS";
}

bool is_retryable_status(unsigned status)
{
    return status == 429 || status == 503;
}

std::optional<std::chrono::milliseconds>
parse_retry_after(std::string_view value, std::chrono::system_clock::time_point now)
{
    value = trim_ows(value);
    if (!value.empty() && std::all_of(value.begin(), value.end(),
                                      [](unsigned char c) { return std::isdigit(c) != 0; })) {
        // Anything past a day is as good as "never" within a call's deadline.
        int seconds = 86400;
        if (value.size() < 6) {
            parse_number(value, seconds);
        }
        return std::chrono::milliseconds{std::chrono::seconds{std::min(seconds, 86400)}};
    }
    auto const when = parse_http_date(value);
    if (!when) {
        return std::nullopt;
    }
    if (*when <= now) {
        return std::chrono::milliseconds{0};
    }
    return std::chrono::duration_cast<std::chrono::milliseconds>(*when - now);
}

std::chrono::milliseconds backoff_delay(int retry)
{
    auto const shift = std::clamp(retry - 1, 0, 5);
    return std::min(std::chrono::milliseconds{200 << shift}, std::chrono::milliseconds{5000});
}

bool is_redirect_status(unsigned status)
{
    return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

boost::system::result<outbound_request>
follow_redirect(outbound_request const& current, std::string_view location)
{
    auto base = urls::parse_uri(current.url);
    if (!base) {
        return base.error();
    }
    auto ref = urls::parse_uri_reference(trim_ows(location));
    if (!ref) {
        return ref.error();
    }
    urls::url dest;
    if (auto resolved = urls::resolve(*base, *ref, dest); !resolved) {
        return resolved.error();
    }
    dest.remove_fragment();
    auto const from = parse_url_target(current.url);
    auto const to = parse_url_target(dest.buffer());
    if (!from) {
        return from.error();
    }
    if (!to) {
        return to.error();
    }

    outbound_request next = current;
    next.body.clear();
    if (from->pool_key() != to->pool_key()) {
        auto const is_credential = [&current](auto const& header) {
            if (iequals(header.first, "authorization") ||
                iequals(header.first, "proxy-authorization") || iequals(header.first, "cookie")) {
                return true;
            }
            return std::any_of(current.secret_headers.begin(), current.secret_headers.end(),
                               [&header](std::string const& name) {
                                   return iequals(name, header.first);
                               });
        };
        std::erase_if(next.headers, is_credential);
        for (auto const& name : current.secret_query) {
            dest.params().erase(name);
        }
    }
    next.url = std::string(dest.buffer());
    return next;
}

} // namespace toolgate::transport
