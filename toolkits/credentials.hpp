// Where platform secrets come from. Auth adapters ask a credential_source for each variable
// they need; a call's source is assembled once per request (request headers, the client's own
// secrets, the server's) and handed to the executor with the call, so nothing deep inside
// reads a global. The process environment is only the default source.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toolgate::toolkits {

/// A read-only lookup of secrets by their environment variable name (e.g. `ENGINE_API_KEY`).
/// Implementations must be safe to call from several threads at once.
class credential_source {
public:
    virtual ~credential_source() = default;
    /// The secret's value, or nullopt when it is not configured. An empty value counts as
    /// not configured: an empty API key can only ever earn a 401.
    virtual std::optional<std::string> find(std::string_view variable) const = 0;
    /// How to supply a missing secret, completing "… needs X, which is not set: <hint>"
    /// (`plural`: several variables are missing). Names settings, never values.
    virtual std::string missing_hint(bool plural) const;
    /// Whether the value find() gives for `variable` is the calling client's own (a request
    /// header or its credentials-file section) rather than the operator's: a host it names is
    /// then held to the operator's client host rules (security review 3, item 2).
    virtual bool from_client(std::string_view /*variable*/) const { return false; }
};

/// Reads the process environment at each lookup. Nothing in toolgate calls setenv while
/// serving, so concurrent getenv calls are safe.
class environment_credentials final : public credential_source {
public:
    std::optional<std::string> find(std::string_view variable) const override;
};

/// A fixed set of secrets: tests, a secrets file, a client's own secrets, request headers.
class fixed_credentials final : public credential_source {
public:
    using map = std::map<std::string, std::string, std::less<>>;
    fixed_credentials() = default;
    explicit fixed_credentials(map values)
        : values_(std::move(values))
    {
    }
    void set(std::string variable, std::string value)
    {
        values_[std::move(variable)] = std::move(value);
    }
    std::optional<std::string> find(std::string_view variable) const override;
    map const& values() const { return values_; }

private:
    map values_;
};

/// Several sources asked in order; the first that has a variable wins, except that a
/// toolkit's secrets never mix: the first layer holding any of a toolkit's variables (the
/// catalogue's `auth.secrets`) answers for all of them, so one call never pairs one
/// principal's host or key with another's credential. Holds its layers (shared, immutable)
/// so a call's source outlives whatever reloads them meanwhile.
class layered_credentials final : public credential_source {
public:
    /// The first `client_layers` of `layers` are the calling client's own (from_client()).
    explicit layered_credentials(std::vector<std::shared_ptr<credential_source const>> layers,
        std::string hint = {}, std::size_t client_layers = 0)
        : layers_(std::move(layers))
        , hint_(std::move(hint))
        , client_layers_(client_layers)
    {
    }
    std::optional<std::string> find(std::string_view variable) const override;
    /// The hint given at construction, or the default one.
    std::string missing_hint(bool plural) const override;
    bool from_client(std::string_view variable) const override;

private:
    /// The layer that answers for `variable` (layers_.size() when none does).
    std::size_t supplier(std::string_view variable) const;

    std::vector<std::shared_ptr<credential_source const>> layers_;
    std::string hint_;
    std::size_t client_layers_ = 0;
};

/// `base` with one variable set on top (an access token the token store supplied for one
/// call). `base` must outlive this object.
class overlay_credentials final : public credential_source {
public:
    overlay_credentials(credential_source const& base, std::string variable, std::string value)
        : base_(base)
        , variable_(std::move(variable))
        , value_(std::move(value))
    {
    }
    std::optional<std::string> find(std::string_view variable) const override;
    std::string missing_hint(bool plural) const override { return base_.missing_hint(plural); }
    bool from_client(std::string_view variable) const override
    {
        return variable != variable_ && base_.from_client(variable);
    }

private:
    credential_source const& base_;
    std::string variable_;
    std::string value_;
};

} // namespace toolgate::toolkits
