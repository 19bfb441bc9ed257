// Where platform secrets come from. Auth adapters ask a credential_source for each variable
// they need, so a multi-user deployment can later hand in per-request credentials; the
// process environment is only the default source.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace toolgate::toolkits {

/// A read-only lookup of secrets by their environment variable name (e.g. `ENGINE_API_KEY`).
/// Implementations must be safe to call from several threads at once.
class credential_source {
public:
    virtual ~credential_source() = default;
    /// The secret's value, or nullopt when it is not configured. An empty value counts as
    /// not configured: an empty API key can only ever earn a 401.
    virtual std::optional<std::string> find(std::string_view variable) const = 0;
};

/// Reads the process environment at each lookup. Nothing in toolgate calls setenv while
/// serving, so concurrent getenv calls are safe.
class environment_credentials final : public credential_source {
public:
    std::optional<std::string> find(std::string_view variable) const override;
};

/// A fixed set of secrets: tests, and later credentials that arrive with a request.
class fixed_credentials final : public credential_source {
public:
    fixed_credentials() = default;
    explicit fixed_credentials(std::map<std::string, std::string, std::less<>> values)
        : values_(std::move(values))
    {
    }
    void set(std::string variable, std::string value)
    {
        values_[std::move(variable)] = std::move(value);
    }
    std::optional<std::string> find(std::string_view variable) const override;

private:
    std::map<std::string, std::string, std::less<>> values_;
};

} // namespace toolgate::toolkits
