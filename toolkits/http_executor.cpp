// build -> authenticate -> send -> shape (see http_executor.hpp).
#include "toolkits/http_executor.hpp"

#include "toolkits/auth.hpp"
#include "toolkits/request_builder.hpp"
#include "toolkits/secret_names.hpp"

#include <boost/asio/use_awaitable.hpp>

namespace toolgate::toolkits {

http_executor::http_executor(transport::outbound_client& client,
                             credential_source const& credentials, base_url_overrides overrides,
                             shaping_options options)
    : client_(client), credentials_(credentials), overrides_(std::move(overrides)),
      options_(options)
{
}

tool_result<prepared_request> http_executor::prepare(toolkit_spec const& toolkit,
                                                     tool_spec const& tool,
                                                     boost::json::object const& arguments) const
{
    auto prepared = build_request(toolkit, tool, arguments, overrides_);
    if (!prepared) {
        return prepared.error();
    }
    if (auto authenticated = authenticate(toolkit, tool, credentials_, *prepared); !authenticated) {
        return authenticated.error();
    }
    return prepared;
}

boost::asio::awaitable<protocol::call_result> http_executor::execute(toolkit_spec const& toolkit,
                                                                     tool_spec const& tool,
                                                                     boost::json::object arguments,
                                                                     call_context& /*context*/)
{
    if (auto local = answer_locally(tool, arguments)) {
        co_return std::move(*local);
    }
    auto prepared = prepare(toolkit, tool, arguments);
    if (!prepared) {
        co_return protocol::call_result::error(std::move(prepared.error().message));
    }
    // Logs never show a secret, a secret host, or a secret-named argument (issue 6 item 6).
    prepared->request.log_redactions = prepared->redactions;
    for (auto& value : secret_argument_values(arguments)) {
        prepared->request.log_redactions.push_back(std::move(value));
    }
    // The request is copied into send(): the prepared redactions stay here for shaping.
    auto result = co_await client_.send(prepared->request);
    co_return shape_result(toolkit, tool, *prepared, result, options_);
}

} // namespace toolgate::toolkits
