// Shared set-up for the https_client tests: a client on a test io_context trusting the test CA,
// and helpers that run calls to completion under a bounded run_for (no sleeps).
#pragma once

#include "support/fake_platform.hpp"
#include "transport/https_client.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <catch2/catch.hpp>

#include <chrono>
#include <exception>
#include <optional>
#include <vector>

namespace toolgate::test {

/// Hermetic options: only the test CA is trusted, no proxy from the environment, short bounds.
inline transport::https_options test_options()
{
    transport::https_options options;
    options.ca_file = fake_platform::ca_file();
    options.system_trust = false;
    options.proxy_from_environment = false;
    options.connect_timeout = std::chrono::seconds(2);
    options.deadline = std::chrono::seconds(8);
    return options;
}

inline transport::outbound_request get(std::string url)
{
    transport::outbound_request request;
    request.method = "GET";
    request.url = std::move(url);
    return request;
}

inline transport::outbound_request post(std::string url, std::string body)
{
    transport::outbound_request request;
    request.method = "POST";
    request.url = std::move(url);
    request.body = std::move(body);
    return request;
}

/// A co_spawn completion handler that stores the call's result (an exception is rethrown out
/// of run_for, failing the test).
inline auto store_into(std::optional<transport::outbound_result>& slot)
{
    return [&slot](std::exception_ptr error, transport::outbound_result result) {
        if (error) {
            std::rethrow_exception(error);
        }
        slot = std::move(result);
    };
}

struct client_fixture {
    explicit client_fixture(transport::https_options options = test_options())
        : client(ioc, std::move(options))
    {
    }

    /// Runs one call to completion; fails the test if it has not finished within `limit`.
    transport::outbound_result call(
        transport::outbound_request request, std::chrono::seconds limit = std::chrono::seconds(20))
    {
        std::optional<transport::outbound_result> result;
        boost::asio::co_spawn(ioc, client.send(std::move(request)), store_into(result));
        ioc.restart();
        ioc.run_for(limit);
        REQUIRE(result.has_value());
        return std::move(*result);
    }

    /// Runs several calls concurrently; all must finish within `limit`.
    std::vector<transport::outbound_result> call_all(
        std::vector<transport::outbound_request> requests,
        std::chrono::seconds limit = std::chrono::seconds(20))
    {
        std::vector<std::optional<transport::outbound_result>> results(requests.size());
        for (std::size_t i = 0; i < requests.size(); ++i) {
            boost::asio::co_spawn(ioc, client.send(std::move(requests[i])), store_into(results[i]));
        }
        ioc.restart();
        ioc.run_for(limit);
        std::vector<transport::outbound_result> out;
        for (auto& result : results) {
            REQUIRE(result.has_value());
            out.push_back(std::move(*result));
        }
        return out;
    }

    boost::asio::io_context ioc; // declared first: the client's connections live on it
    transport::https_client client;
};

} // namespace toolgate::test
