// Which argument names may carry a credential: their values are masked in every log line
// (issue 6 item 6). Results are the caller's data and are not altered.
#pragma once

#include <boost/json/object.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace toolgate::toolkits {

/// Case-insensitive: secret, token, password, passwd, authorization, cookie, credential,
/// signature, private, or "key" (api_key, apiKey, X-Api-Key, signing_key) but not "keyword".
bool is_secret_name(std::string_view name);

/// The string values (and string array items) of `arguments`' secret-named members, at any
/// depth, for masking in logs.
std::vector<std::string> secret_argument_values(boost::json::object const& arguments);

} // namespace toolgate::toolkits
