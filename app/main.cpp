// toolgate's entry point: serves the compiled-in catalogue.
#include "app/app.hpp"
#include "app/catalogue_service.hpp"

#if TOOLGATE_WITH_MIMALLOC
#include <mimalloc.h>
#include <string_view>

namespace {

/// Start-up touches about 15 MB of fresh heap. At 4 KiB a page that is some 3,000 page faults,
/// which cost 10 µs each on a virtual machine: two thirds of the time to the first answer.
/// mimalloc asks for 2 MiB pages (transparent huge pages, where the kernel allows them in
/// `madvise` mode) and commits a thread's first segments at once, so start-up faults about
/// 800 times instead (bench/README.md, "Start-up"). The resident set grows by about 8 MB.
/// A MIMALLOC_* variable in the environment keeps the last word.
///
/// It runs from the executable's pre-initialisation array, before any library's constructor:
/// libstdc++'s start-up already allocates, and the options apply to segments made after them.
void tune_allocator_for_start_up(int, char**, char** environment)
{
    // libc's getenv is not ready before libc's own constructor: read the array we are given.
    auto const is_set = [environment](std::string_view name) {
        for (char** e = environment; e != nullptr && *e != nullptr; ++e) {
            std::string_view const entry(*e);
            if (entry.size() > name.size() && entry.starts_with(name)
                && entry[name.size()] == '=') {
                return true;
            }
        }
        return false;
    };
    if (!is_set("MIMALLOC_LARGE_OS_PAGES")) {
        mi_option_enable(mi_option_large_os_pages);
    }
    if (!is_set("MIMALLOC_EAGER_COMMIT_DELAY")) {
        mi_option_set(mi_option_eager_commit_delay, 0);
    }
}

[[gnu::section(".preinit_array"), gnu::used]] void (*const tune_allocator)(int, char**, char**)
    = tune_allocator_for_start_up;

} // namespace
#endif

int main(int argc, char** argv)
{
    return toolgate::app::run_main(argc, argv, toolgate::app::make_catalogue_service);
}
