// One fuzz target = one function over bytes. In the libFuzzer build (TOOLGATE_LIBFUZZER) the
// macro also defines LLVMFuzzerTestOneInput; in every build the function is callable by name,
// so test_fuzz_replay runs the seed corpora and the crash regressions through it as tests.
#pragma once

#include <cstddef>
#include <cstdint>

#ifdef TOOLGATE_LIBFUZZER
#define TOOLGATE_FUZZ_EXPORT(name)                                                                 \
    extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size)              \
    {                                                                                              \
        return toolgate_fuzz_##name(data, size);                                                   \
    }
#else
#define TOOLGATE_FUZZ_EXPORT(name)
#endif

/// Declares `int toolgate_fuzz_<name>(data, size)` and, in the libFuzzer build, its entry point;
/// the function body follows the macro.
#define TOOLGATE_FUZZ_TARGET(name)                                                                 \
    int toolgate_fuzz_##name(std::uint8_t const* data, std::size_t size);                          \
    TOOLGATE_FUZZ_EXPORT(name)                                                                     \
    int toolgate_fuzz_##name(std::uint8_t const* data, std::size_t size)

/// A broken invariant: abort, so libFuzzer saves the input and a replay test fails.
#define TOOLGATE_FUZZ_CHECK(condition)                                                             \
    do {                                                                                           \
        if (!(condition)) {                                                                        \
            toolgate_fuzz_fail(#condition, __FILE__, __LINE__);                                    \
        }                                                                                          \
    } while (false)

[[noreturn]] void toolgate_fuzz_fail(char const* what, char const* file, int line);
