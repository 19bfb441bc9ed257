// Pure rules of the outbound client: URL splitting, retry timing, redirect hygiene.
#include "transport/outbound_policy.hpp"

#include "common/ascii.hpp"

#include <boost/asio/ip/address.hpp>
#include <boost/url/parse.hpp>
#include <boost/url/url.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>

namespace toolgate::transport {
namespace urls = boost::urls;
namespace asio = boost::asio;
using common::iequals_ascii;
using common::to_lower_ascii;
using common::trim_ows;

namespace {

bool parse_number(std::string_view text, int& out)
{
    auto const* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, out);
    return ec == std::errc {} && ptr == end && !text.empty();
}

/// IMF-fixdate only ("Sun, 06 Nov 1994 08:49:37 GMT"): the one format senders must use
/// (RFC 9110 §5.6.7). Parsed by hand because strptime's %a/%b follow the process locale.
std::optional<std::chrono::system_clock::time_point> parse_http_date(std::string_view text)
{
    static constexpr std::array<std::string_view, 12> months
        = { "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
    if (text.size() != 29 || text[3] != ',' || text.substr(25) != " GMT") {
        return std::nullopt;
    }
    int day = 0, year = 0, hour = 0, minute = 0, second = 0;
    auto const month_it = std::find(months.begin(), months.end(), text.substr(8, 3));
    if (month_it == months.end() || !parse_number(text.substr(5, 2), day)
        || !parse_number(text.substr(12, 4), year) || !parse_number(text.substr(17, 2), hour)
        || !parse_number(text.substr(20, 2), minute) || !parse_number(text.substr(23, 2), second)) {
        return std::nullopt;
    }
    using namespace std::chrono;
    auto const date = year_month_day { std::chrono::year { year },
        std::chrono::month { unsigned(month_it - months.begin() + 1) },
        std::chrono::day { unsigned(day) } };
    if (!date.ok() || hour > 23 || minute > 59 || second > 60) {
        return std::nullopt;
    }
    return sys_days { date } + hours { hour } + minutes { minute } + seconds { second };
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
    return method == "GET" || method == "HEAD" || method == "PUT" || method == "DELETE"
        || method == "OPTIONS";
}

bool is_retryable_status(unsigned status)
{
    return status == 429 || status == 503;
}

std::optional<std::chrono::milliseconds> parse_retry_after(
    std::string_view value, std::chrono::system_clock::time_point now)
{
    value = trim_ows(value);
    if (!value.empty() && std::all_of(value.begin(), value.end(), [](unsigned char c) {
            return std::isdigit(c) != 0;
        })) {
        // Anything past a day is as good as "never" within a call's deadline.
        int seconds = 86400;
        if (value.size() < 6) {
            parse_number(value, seconds);
        }
        return std::chrono::milliseconds { std::chrono::seconds { std::min(seconds, 86400) } };
    }
    auto const when = parse_http_date(value);
    if (!when) {
        return std::nullopt;
    }
    if (*when <= now) {
        return std::chrono::milliseconds { 0 };
    }
    return std::chrono::duration_cast<std::chrono::milliseconds>(*when - now);
}

std::chrono::milliseconds backoff_delay(int retry)
{
    auto const shift = std::clamp(retry - 1, 0, 5);
    return std::min(std::chrono::milliseconds { 200 << shift }, std::chrono::milliseconds { 5000 });
}

bool is_redirect_status(unsigned status)
{
    return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

common::checked<void> check_sendable_headers(header_list const& headers)
{
    constexpr std::size_t max_name = 256;
    constexpr std::size_t max_value = 32 * 1024;
    constexpr std::size_t max_total = 60 * 1024;
    auto const control = [](std::string_view text) {
        return std::any_of(text.begin(), text.end(), [](char c) {
            auto const u = static_cast<unsigned char>(c);
            return (u < 0x20 && c != '\t') || u == 0x7F;
        });
    };
    std::size_t total = 0;
    for (auto const& [name, value] : headers) {
        bool const token = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) != 0
                || std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
        });
        if (!token || name.size() > max_name) {
            return common::problem_of(
                "a header name is empty, over 256 bytes or not an HTTP token; request not sent");
        }
        if (control(value)) {
            return common::problem_of("header `" + name
                + "` holds a control character (a line break or similar); request not sent");
        }
        total += name.size() + value.size() + 4;
        if (value.size() > max_value || total > max_total) {
            return common::problem_of("header `" + name
                + "` makes the request's headers too large (32768 bytes at "
                  "most per value, 61440 in all); request not sent");
        }
    }
    return {};
}

bool has_idempotency_key(header_list const& headers)
{
    return std::any_of(headers.begin(), headers.end(), [](auto const& h) {
        return iequals_ascii(h.first, "idempotency-key") && !h.second.empty();
    });
}

bool is_non_public_address(std::string_view text)
{
    boost::system::error_code ec;
    auto address = asio::ip::make_address(std::string(text), ec);
    if (ec) {
        return false;
    }
    if (address.is_v6()) {
        auto const v6 = address.to_v6();
        if (v6.is_v4_mapped()) {
            address = asio::ip::make_address_v4(asio::ip::v4_mapped, v6);
        } else {
            auto const bytes = v6.to_bytes();
            bool const unique_local = (bytes[0] & 0xFE) == 0xFC; // fc00::/7
            return v6.is_loopback() || v6.is_unspecified() || v6.is_link_local()
                || v6.is_multicast() || v6.is_site_local() || unique_local;
        }
    }
    auto const b = address.to_v4().to_bytes();
    return b[0] == 0 || b[0] == 10 || b[0] == 127 || // this network, private, loopback
        (b[0] == 100 && (b[1] & 0xC0) == 64) || // shared address space
        (b[0] == 169 && b[1] == 254) || // link-local (metadata services)
        (b[0] == 172 && (b[1] & 0xF0) == 16) || // private
        (b[0] == 192 && b[1] == 168) || // private
        b[0] >= 224; // multicast, reserved, broadcast
}

bool is_trusted_origin(
    outbound_request const& request, std::string_view first_origin, url_target const& target)
{
    auto const key = target.pool_key();
    return key == first_origin
        || std::find(request.trusted_origins.begin(), request.trusted_origins.end(), key)
        != request.trusted_origins.end();
}

bool redirect_allowed(
    outbound_request const& request, std::string_view first_origin, url_target const& next)
{
    if (is_trusted_origin(request, first_origin, next)) {
        return true;
    }
    auto const key = next.pool_key();
    bool const listed
        = std::find(request.redirect_origins.begin(), request.redirect_origins.end(), key)
        != request.redirect_origins.end();
    return next.tls && listed && !(next.host_is_ip && is_non_public_address(next.host));
}

boost::system::result<outbound_request> follow_redirect(
    outbound_request const& current, std::string_view location)
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
            if (iequals_ascii(header.first, "authorization")
                || iequals_ascii(header.first, "proxy-authorization")
                || iequals_ascii(header.first, "cookie")) {
                return true;
            }
            return std::any_of(current.secret_headers.begin(), current.secret_headers.end(),
                [&header](std::string const& name) { return iequals_ascii(name, header.first); });
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
