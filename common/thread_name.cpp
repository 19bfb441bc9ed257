// Thread names through pthread_setname_np (see thread_name.hpp).
#include "common/thread_name.hpp"

#include <array>
#include <pthread.h>

namespace toolgate::common {

namespace {
constexpr std::size_t kept = 15; // TASK_COMM_LEN less the terminating NUL
}

void name_this_thread(std::string_view name)
{
    std::string cut(name.substr(0, kept));
    // Fails only for a name over the limit, which the cut rules out; a name is a convenience.
    (void)pthread_setname_np(pthread_self(), cut.c_str());
}

std::string this_thread_name()
{
    std::array<char, kept + 1> name {};
    if (pthread_getname_np(pthread_self(), name.data(), name.size()) != 0) {
        return {};
    }
    return name.data();
}

} // namespace toolgate::common
