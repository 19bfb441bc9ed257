// The credential sources: the process environment, a fixed map, layers and an overlay.
#include "toolkits/credentials.hpp"

#include <cstdlib>

namespace toolgate::toolkits {

std::string credential_source::missing_hint(bool plural) const
{
    return plural ? "set the environment variables" : "set the environment variable";
}

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

std::optional<std::string> layered_credentials::find(std::string_view variable) const
{
    for (auto const& layer : layers_) {
        if (layer) {
            if (auto value = layer->find(variable)) {
                return value;
            }
        }
    }
    return std::nullopt;
}

std::string layered_credentials::missing_hint(bool plural) const
{
    return hint_.empty() ? credential_source::missing_hint(plural) : hint_;
}

std::optional<std::string> overlay_credentials::find(std::string_view variable) const
{
    if (variable == variable_ && !value_.empty()) {
        return value_;
    }
    return base_.find(variable);
}

} // namespace toolgate::toolkits
