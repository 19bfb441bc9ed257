// Helpers every subsystem's flag registration shares (CLI11, header only): a flag read as whole
// seconds. Only the .cpp files that register flags include this.
#pragma once

#include <CLI/App.hpp>

#include <chrono>
#include <string>

namespace toolgate::common {

/// `--name S`: whole seconds within [min, max] into `d`; its current value is the default shown
/// by --help and --print-config.
template <class Rep>
CLI::Option* add_seconds(CLI::App& app, std::string const& name, std::chrono::duration<Rep>& d,
    std::string const& help, long min = 1, long max = 86400L * 365)
{
    return app
        .add_option_function<long>(
            name, [&d](long v) { d = std::chrono::duration<Rep>(v); }, help)
        ->check(CLI::Range(min, max))
        ->default_str(std::to_string(d.count()));
}

} // namespace toolgate::common
