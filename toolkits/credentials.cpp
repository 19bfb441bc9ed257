// The default credential sources: the process environment and a fixed map.
#include "toolkits/credentials.hpp"

#include <cstdlib>

namespace toolgate::toolkits {

std::optional<std::string> environment_credentials::find(std::string_view variable) const
{
    // getenv needs a NUL-terminated name; variable names are short, so the copy is cheap.
    std::string const name(variable);
    char const* value = std::getenv(name.c_str());
    if (value == nullptr || *value == '\0') {
        return std::nullopt;
    }
    return std::string(value);
}

std::optional<std::string> fixed_credentials::find(std::string_view variable) const
{
    auto it = values_.find(variable);
    if (it == values_.end() || it->second.empty()) {
        return std::nullopt;
    }
    return it->second;
}

} // namespace toolgate::toolkits
