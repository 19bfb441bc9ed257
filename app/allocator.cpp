// Which allocator is in effect (see allocator.hpp).
#include "app/allocator.hpp"

#include <fmt/format.h>

#include <dlfcn.h>

namespace toolgate::app {

std::string memory_allocator()
{
    // mimalloc, linked as a shared library ahead of libc, interposes malloc for the whole
    // process; its presence is the presence of its own entry points.
    void* const symbol = dlsym(RTLD_DEFAULT, "mi_version");
    if (symbol == nullptr) {
        return "glibc malloc";
    }
    using version_fn = int (*)();
    int const v = reinterpret_cast<version_fn>(symbol)(); // e.g. 209 for 2.0.9
    return fmt::format("mimalloc {}.{}.{}", v / 100, (v / 10) % 10, v % 10);
}

} // namespace toolgate::app
