// Random bytes from getrandom(2) (see random.hpp).
#include "common/random.hpp"

#include <cerrno>
#include <stdexcept>
#include <sys/random.h>

namespace toolgate::common {

void fill_random(std::span<unsigned char> out)
{
    std::size_t filled = 0;
    while (filled < out.size()) {
        // Requests over 256 bytes may be cut short (and interrupted by a signal): loop on.
        auto const got = ::getrandom(out.data() + filled, out.size() - filled, 0);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got <= 0) {
            throw std::runtime_error("no random bytes available (getrandom failed)");
        }
        filled += static_cast<std::size_t>(got);
    }
}

std::string random_bytes(std::size_t n)
{
    std::string out(n, '\0');
    fill_random({ reinterpret_cast<unsigned char*>(out.data()), out.size() });
    return out;
}

} // namespace toolgate::common
