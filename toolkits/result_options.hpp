// The result budget's settings (`--max-result-tokens`, `--max-result-tokens-cap`, their
// TOOLGATE_* variables and config-file keys) and the budget of one call. Tokens are counted as
// bytes of result text / 4 (docs/results.md).
#pragma once

#include <cstdint>
#include <optional>

namespace CLI {
class App;
}

namespace toolgate::toolkits {

inline constexpr std::uint64_t bytes_per_token = 4;

struct result_options {
    /// The budget of every answer, in tokens; 0: none.
    std::uint64_t max_result_tokens = 8000;
    /// The largest `_max_tokens` a call may ask for; 0: no cap. A cap below the server's own
    /// budget does not lower it.
    std::uint64_t max_result_tokens_cap = 50000;
};

struct call_budget {
    std::uint64_t tokens = 0; ///< 0: no limit
    std::uint64_t asked = 0; ///< the call's `_max_tokens`, 0 when it gave none
    bool capped = false; ///< the call asked for more than the cap allows

    std::uint64_t bytes() const { return tokens * bytes_per_token; }
};

/// The budget of a call that asked for `asked` tokens (or for nothing).
call_budget budget_for(result_options const& options, std::optional<std::uint64_t> asked);

/// Registers --max-result-tokens and --max-result-tokens-cap (with their environment
/// variables; the config file takes the same names as keys).
void add_result_options(CLI::App& app, result_options& options);

} // namespace toolgate::toolkits
