// The credential sources: the process environment, a fixed map, layers and an overlay.
#include "toolkits/credentials.hpp"

#include "toolkits/catalogue.hpp"

#include <cstdlib>

namespace toolgate::toolkits {
namespace {

/// The secrets of the toolkit that uses `variable` (the catalogue's `auth.secrets`): the
/// variables that come from one layer together. Empty when no toolkit names it.
std::span<const std::string_view> toolkit_secrets_with(std::string_view variable)
{
    for (auto const* kit : all_toolkits()) {
        for (auto s : kit->secrets) {
            if (s == variable) {
                return kit->secrets;
            }
        }
    }
    return {};
}

} // namespace

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

std::size_t layered_credentials::supplier(std::string_view variable) const
{
    auto const siblings = toolkit_secrets_with(variable);
    for (std::size_t i = 0; i < layers_.size(); ++i) {
        auto const& layer = layers_[i];
        if (!layer) {
            continue;
        }
        if (layer->find(variable)) {
            return i;
        }
        // The first layer holding any of the toolkit's secrets supplies all of them: what it
        // lacks stays missing. Taken from a layer below, a client's VECTORDB_SERVER_URL would
        // receive the server's VECTORDB_API_KEY (security review 3, item 1).
        for (auto sibling : siblings) {
            if (sibling != variable && layer->find(sibling)) {
                return layers_.size();
            }
        }
    }
    return layers_.size();
}

std::optional<std::string> layered_credentials::find(std::string_view variable) const
{
    auto const i = supplier(variable);
    return i < layers_.size() ? layers_[i]->find(variable) : std::nullopt;
}

bool layered_credentials::from_client(std::string_view variable) const
{
    auto const i = supplier(variable);
    return i < layers_.size() && (i < client_layers_ || layers_[i]->from_client(variable));
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
