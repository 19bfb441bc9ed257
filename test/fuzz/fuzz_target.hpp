// One fuzz target = one function over bytes. In the libFuzzer build (TOOLGATE_LIBFUZZER) the
// macro also defines LLVMFuzzerTestOneInput; in every build the function is callable by name,
// so test_fuzz_replay runs the seed corpora and the crash regressions through it as tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>

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

/// A broken invariant: under libFuzzer, abort (the fuzzer saves the input); in the replay
/// build, throw toolgate_fuzz_violation (the replay test names the input and fails).
#define TOOLGATE_FUZZ_CHECK(condition)                                                             \
    do {                                                                                           \
        if (!(condition)) {                                                                        \
            toolgate_fuzz_fail(#condition, __FILE__, __LINE__);                                    \
        }                                                                                          \
    } while (false)

/// What the replay build throws for a broken invariant: the condition, file and line.
class toolgate_fuzz_violation : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

[[noreturn]] void toolgate_fuzz_fail(char const* what, char const* file, int line);
