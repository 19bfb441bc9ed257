// The result budget's flags (see result_options.hpp), registered beside the settings they fill,
// as every subsystem registers its own (app/config.cpp calls each).
#include "toolkits/result_options.hpp"

#include <CLI/App.hpp>

namespace toolgate::toolkits {

void add_result_options(CLI::App& app, result_options& options)
{
    app.add_option("--max-result-tokens", options.max_result_tokens,
           "token budget of every tool result (bytes / 4); a larger answer is cut, keeping "
           "its JSON shape, with a note on how to get the rest; 0: no limit")
        ->envname("TOOLGATE_MAX_RESULT_TOKENS");
    app.add_option("--max-result-tokens-cap", options.max_result_tokens_cap,
           "the largest budget a call may ask for with _max_tokens; 0: no cap")
        ->envname("TOOLGATE_MAX_RESULT_TOKENS_CAP");
}

} // namespace toolgate::toolkits
