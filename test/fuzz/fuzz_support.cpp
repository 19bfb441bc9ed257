// Shared by every fuzz target: the invariant-failure hook.
#include "fuzz_target.hpp"

#include <cstdio>
#include <cstdlib>

void toolgate_fuzz_fail(char const* what, char const* file, int line)
{
    std::fprintf(stderr, "fuzz invariant failed: %s (%s:%d)\n", what, file, line);
    std::abort();
}
