// Random bytes for keys, nonces, tokens and ids: the one source toolgate draws them from.
#pragma once

#include <cstddef>
#include <span>
#include <string>

namespace toolgate::common {

/// Fills `out` from the kernel's generator (getrandom(2), which OpenSSL's own generator is
/// seeded from). Throws std::runtime_error when the kernel gives none; never returns a
/// partly filled buffer. Drawing from OpenSSL instead would set its generator and providers
/// up at the first call (about 7M instructions), which start-up can do without.
void fill_random(std::span<unsigned char> out);

/// `n` random bytes (fill_random).
std::string random_bytes(std::size_t n);

} // namespace toolgate::common
