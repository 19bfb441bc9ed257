// A fake outbound client that records every request and answers from a script, plus a
// helper that runs one executor call to completion on a private io_context.
#pragma once

#include "toolkits/executor.hpp"
#include "transport/outbound.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json/object.hpp>

#include <chrono>
#include <deque>
#include <exception>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace toolgate::toolkits::testing {

/// Records requests; answers with the scripted results in order, then with 200 `{}`.
class fake_outbound final : public transport::outbound_client {
public:
    std::vector<transport::outbound_request> sent;
    std::deque<transport::outbound_result> script;

    boost::asio::awaitable<transport::outbound_result> send(
        transport::outbound_request request) override
    {
        sent.push_back(std::move(request));
        if (script.empty()) {
            co_return answer(200, "application/json", "{}");
        }
        auto next = std::move(script.front());
        script.pop_front();
        co_return next;
    }

    static transport::outbound_result answer(
        unsigned status, std::string content_type, std::string body, std::string reason = {})
    {
        transport::outbound_result r;
        r.response.status = status;
        r.response.reason = std::move(reason);
        if (!content_type.empty()) {
            r.response.headers.emplace_back("Content-Type", std::move(content_type));
        }
        r.response.body = std::move(body);
        return r;
    }

    static transport::outbound_result failure(transport::outbound_failure kind, std::string detail)
    {
        transport::outbound_result r;
        r.failure = kind;
        r.detail = std::move(detail);
        return r;
    }
};

/// A call_context that ignores progress and logs.
class quiet_context final : public call_context {
public:
    void report_progress(double, std::optional<double>, std::string_view) override { }
    void log(log_level, std::string_view, boost::json::value) override { }
    std::string_view protocol_version() const override { return "2025-11-25"; }
};

/// Runs `executor.execute(...)` to completion and returns its result; fails the test (by
/// throwing) when the call throws or does not finish within a second.
inline protocol::call_result run_call(tool_executor& executor, toolkit_spec const& toolkit,
    tool_spec const& tool, boost::json::object arguments)
{
    boost::asio::io_context io;
    quiet_context context;
    std::optional<protocol::call_result> result;
    std::exception_ptr failure;
    boost::asio::co_spawn(io, executor.execute(toolkit, tool, std::move(arguments), context),
        [&](std::exception_ptr e, protocol::call_result r) {
            failure = e;
            result = std::move(r);
        });
    io.run_for(std::chrono::seconds(1));
    if (failure) {
        std::rethrow_exception(failure);
    }
    if (!result) {
        throw std::runtime_error("the call did not finish");
    }
    return std::move(*result);
}

} // namespace toolgate::toolkits::testing
