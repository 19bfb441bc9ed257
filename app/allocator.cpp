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
    auto name = fmt::format("mimalloc {}.{}.{}", v / 100, (v / 10) % 10, v % 10);
    // Whether it asks for 2 MiB pages (app/main.cpp sets this at start-up; an environment
    // variable can turn it off). 6 is mi_option_large_os_pages in mimalloc 2.x's enum.
    using option_fn = bool (*)(int);
    if (auto* is_enabled = dlsym(RTLD_DEFAULT, "mi_option_is_enabled");
        is_enabled != nullptr && reinterpret_cast<option_fn>(is_enabled)(6)) {
        name += " (2 MiB pages)";
    }
    return name;
}

} // namespace toolgate::app
