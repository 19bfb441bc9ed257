// The fault mix of `fake_platform --faults`: every kind equally likely once a request is
// picked for a fault.
#include "fake_faults.hpp"

#include <fmt/format.h>

namespace toolgate::test {

std::string_view fault_name(fault f)
{
    switch (f) {
    case fault::none:
        return "none";
    case fault::reset:
        return "reset";
    case fault::close:
        return "close";
    case fault::stall:
        return "stall";
    case fault::slow:
        return "slow";
    case fault::server_error:
        return "500";
    case fault::unavailable:
        return "503";
    case fault::too_many:
        return "429";
    case fault::oversized:
        return "oversized";
    case fault::malformed:
        return "malformed";
    case fault::count:
        break;
    }
    return "?";
}

fault_injector::fault_injector(fault_options options)
    : options_(options)
    , random_(options.seed)
    , oversized_body_("{\"data\":\"" + std::string(options.oversized_bytes, 'x') + "\"}")
{
}

fake_response fault_injector::answer(fake_response const& normal)
{
    fault f = fault::none;
    std::chrono::milliseconds slow { 0 };
    {
        std::lock_guard lock(mutex_);
        if (std::uniform_real_distribution<double>(0, 1)(random_) < options_.rate) {
            f = fault(1 + random_() % (std::size_t(fault::count) - 1));
        }
        slow = std::chrono::milliseconds(std::uniform_int_distribution<long>(
            100, std::max(100L, long(options_.slow.count())))(random_));
    }
    ++counts_[std::size_t(f)];
    fake_response r = normal;
    switch (f) {
    case fault::none:
        break;
    case fault::reset:
        r.action = fake_action::reset;
        break;
    case fault::close:
        r.action = fake_action::close;
        break;
    case fault::stall:
        r.action = fake_action::stall;
        break;
    case fault::slow:
        r.delay = slow;
        break;
    case fault::server_error:
        r.status = 500;
        r.body = R"({"error":"internal","message":"injected fault"})";
        break;
    case fault::unavailable:
        r.status = 503;
        r.headers.emplace_back("Retry-After", "1");
        r.body = R"({"error":"unavailable"})";
        break;
    case fault::too_many:
        r.status = 429;
        r.headers.emplace_back("Retry-After", "1");
        r.body = R"({"error":"rate_limited"})";
        break;
    case fault::oversized:
        r.body = oversized_body_;
        break;
    case fault::malformed:
        r.body = "{\"truncated\": [1, 2, \x01\xff <html>";
        r.keep_alive = false;
        break;
    case fault::count:
        break;
    }
    return r;
}

std::string fault_injector::summary() const
{
    std::string out;
    for (std::size_t i = 0; i < counts_.size(); ++i) {
        if (!out.empty()) {
            out += ' ';
        }
        out += fmt::format("{}={}", fault_name(fault(i)), counts_[i].load());
    }
    return out;
}

} // namespace toolgate::test
