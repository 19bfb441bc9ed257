// Shared by every fuzz target: the invariant-failure hook. Under libFuzzer a broken invariant
// aborts, so the fuzzer saves the input; in the replay build it throws, so test_fuzz_replay
// reports which input broke which invariant and carries on with the others.
#include "fuzz_target.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

void toolgate_fuzz_fail(char const* what, char const* file, int line)
{
#ifdef TOOLGATE_LIBFUZZER
    std::fprintf(stderr, "fuzz invariant failed: %s (%s:%d)\n", what, file, line);
    std::abort();
#else
    throw toolgate_fuzz_violation(
        std::string(what) + " (" + file + ":" + std::to_string(line) + ")");
#endif
}
