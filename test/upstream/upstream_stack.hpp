// The real outbound stack for end-to-end upstream tests: catalogue_provider -> http_executor ->
// https_client -> the fake platform over TLS. Every toolkit's base URL is overridden to
// `https://127.0.0.1:<port>/<Toolkit>`, so the path the fake receives names the toolkit that
// sent it. Calls run one at a time on one io_context, over pooled keep-alive connections.
#pragma once

#include "support/fake_platform.hpp"
#include "toolkits/catalogue_provider.hpp"
#include "toolkits/http_executor.hpp"
#include "transport/https_client.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json/object.hpp>
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace toolgate::upstream_test {

/// Recognisable fake secrets, one per variable. Each contains `s3cr3t` (any case), so a
/// result text can be searched for any of them at once.
inline std::map<std::string, std::string, std::less<>> const& fake_secrets()
{
    static std::map<std::string, std::string, std::less<>> const values = {
        { "STORE_ACCESS_TOKEN", "store-token-S3CR3T-0001" },
        { "LEDGER_ACCESS_TOKEN", "ledger-token-S3CR3T-0002" },
        { "ENGINE_API_KEY", "engine-key-S3CR3T-0003" },
        { "ENGINE_USER_TOKEN", "engine-user-S3CR3T-0010" },
        { "SEARCH_API_KEY", "search-key-S3CR3T-0004" },
        { "DESK_API_KEY", "desk-key-S3CR3T-0005" },
        { "DESK_SUBDOMAIN", "desk-s3cr3t-tenant" },
        { "KANBAN_API_KEY", "kanban-key-S3CR3T-0006" },
        { "KANBAN_TOKEN", "kanban-token-S3CR3T-0007" },
        { "VECTORDB_API_KEY", "vectordb-key-S3CR3T-0008" },
        { "VECTORDB_SERVER_URL", "https://vectordb-s3cr3t.example.test" },
        { "DEPLOY_ACCESS_TOKEN", "deploy-token-S3CR3T-0009" },
    };
    return values;
}

inline std::string const& secret(std::string_view variable)
{
    return fake_secrets().find(variable)->second;
}

/// Whether `text` holds any fake secret (or the Basic credential made from one).
bool leaks_secret(std::string_view text);

/// The provider's per-call services: with `reporting` on (a client that asked for logs and
/// progress), what the call reports is kept for the test to read.
class recording_context final : public toolkits::call_context {
public:
    struct progress_note {
        double progress;
        std::string message;
    };
    struct log_note {
        toolkits::log_level level;
        std::string logger;
        boost::json::value data;
    };

    void report_progress(double progress, std::optional<double>, std::string_view message) override
    {
        std::lock_guard lock(mutex_);
        progress_.push_back({ progress, std::string(message) });
    }
    void log(toolkits::log_level level, std::string_view logger, boost::json::value data) override
    {
        std::lock_guard lock(mutex_);
        logs_.push_back({ level, std::string(logger), std::move(data) });
    }
    bool reporting() const override { return reporting_on; }
    std::string_view protocol_version() const override { return "2025-11-25"; }

    std::vector<progress_note> progress() const
    {
        std::lock_guard lock(mutex_);
        return progress_;
    }
    std::vector<log_note> logs() const
    {
        std::lock_guard lock(mutex_);
        return logs_;
    }

    bool reporting_on = false;

private:
    mutable std::mutex mutex_;
    std::vector<progress_note> progress_;
    std::vector<log_note> logs_;
};

/// Hermetic client options: only the test CA, no proxy from the environment, short bounds.
inline transport::https_options stack_options()
{
    transport::https_options options;
    options.ca_file = test::fake_platform::ca_file();
    options.system_trust = false;
    options.proxy_from_environment = false;
    options.connect_timeout = std::chrono::seconds(3);
    options.deadline = std::chrono::seconds(10);
    return options;
}

/// Every toolkit to `<fake>/<Toolkit>`, except those named in `not_overridden`.
inline toolkits::base_url_overrides overrides_for(
    test::fake_platform const& fake, std::vector<std::string> const& not_overridden)
{
    toolkits::base_url_overrides overrides;
    for (auto const* toolkit : toolkits::all_toolkits()) {
        if (std::find(not_overridden.begin(), not_overridden.end(), toolkit->name)
            != not_overridden.end()) {
            continue;
        }
        std::string prefix = "/"; // appended: g++ 12 warns falsely on "literal" + temporary
        prefix += toolkit->name;
        auto entry = toolkits::make_base_url_override(toolkit->name, fake.url(prefix));
        REQUIRE(entry.has_value());
        overrides.set(std::move(*entry));
    }
    return overrides;
}

class upstream_stack {
public:
    explicit upstream_stack(transport::https_options options = stack_options(),
        std::map<std::string, std::string, std::less<>> secrets = fake_secrets(),
        test::fake_platform_options platform = {},
        std::vector<std::string> const& not_overridden = {})
        : fake(platform)
        , client(ioc, std::move(options))
        , credentials(std::move(secrets))
        , executor(client, credentials, overrides_for(fake, not_overridden))
        , provider({}, executor)
    {
    }

    /// Calls `name` (`Toolkit.Tool`) through the provider and runs the io_context until the
    /// call has finished (bounded). Throws what the call throws.
    protocol::call_result call(std::string_view name, boost::json::object arguments,
        std::chrono::seconds limit = std::chrono::seconds(20))
    {
        return call_on(provider, name, std::move(arguments), limit);
    }

    /// call() through another provider over the same executor (other result settings).
    protocol::call_result call_on(toolkits::catalogue_provider& through, std::string_view name,
        boost::json::object arguments, std::chrono::seconds limit = std::chrono::seconds(20))
    {
        auto const* tool = through.find(name);
        REQUIRE(tool != nullptr);
        std::optional<protocol::call_result> result;
        std::exception_ptr failure;
        boost::asio::co_spawn(ioc, through.call(*tool, std::move(arguments), context),
            [&](std::exception_ptr e, protocol::call_result r) {
                failure = e;
                result = std::move(r);
            });
        auto const until = std::chrono::steady_clock::now() + limit;
        while (!result && !failure && std::chrono::steady_clock::now() < until) {
            if (ioc.stopped()) {
                ioc.restart();
            }
            ioc.run_one_for(std::chrono::milliseconds(100));
        }
        if (failure) {
            std::rethrow_exception(failure);
        }
        REQUIRE(result.has_value());
        return std::move(*result);
    }

    test::fake_platform fake; // first: the overrides need its port
    boost::asio::io_context ioc;
    transport::https_client client;
    toolkits::fixed_credentials credentials;
    toolkits::http_executor executor;
    toolkits::catalogue_provider provider;
    recording_context context;
};

/// Text of every content block of a result, joined by newlines.
inline std::string all_text(protocol::call_result const& result)
{
    std::string out;
    for (auto const& block : result.content) {
        out += block.text;
        out += '\n';
    }
    return out;
}

} // namespace toolgate::upstream_test
