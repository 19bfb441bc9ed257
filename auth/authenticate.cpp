// authenticate() (see authenticate.hpp).
#include "auth/authenticate.hpp"

#include <spdlog/spdlog.h>

namespace toolgate::auth {

boost::system::result<std::string, client_auth::answer> authenticate(client_auth const* auth,
    transport::http_request const& request, std::vector<std::string>* scopes)
{
    if (!auth) {
        return std::string();
    }
    auto decision = auth->check(request);
    if (decision.result != auth_decision::verdict::allowed) {
        auto answer = auth->refuse(decision);
        spdlog::log(answer.status == 401 && decision.reason.starts_with("no ")
                ? spdlog::level::debug
                : spdlog::level::warn,
            "http: {} from {}: {}", answer.status, request.peer, decision.reason);
        return answer;
    }
    if (scopes != nullptr) {
        *scopes = std::move(decision.scopes);
    }
    return std::move(decision.principal);
}

} // namespace toolgate::auth
