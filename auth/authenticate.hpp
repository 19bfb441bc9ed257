// Client authentication of one HTTP request, as every endpoint of ours applies it: the
// authenticated principal, or the refusal to send, logged once.
#pragma once

#include "auth/client_auth.hpp"
#include "transport/http_types.hpp"

#include <boost/system/result.hpp>

#include <string>
#include <vector>

namespace toolgate::auth {

/// The authenticated client of `request` ("" when `auth` is null: no client authentication is
/// configured), or the 400/401/403 answer to send. A missing credential is logged at debug
/// level (clients probe without one first), any other refusal as a warning. Not a coroutine:
/// the common, allowed case costs no coroutine frame. `scopes`, when given, receives an
/// allowed JWT's scopes (the operator's policy may grant toolsets by scope).
boost::system::result<std::string, client_auth::answer> authenticate(client_auth const* auth,
    transport::http_request const& request, std::vector<std::string>* scopes = nullptr);

} // namespace toolgate::auth
