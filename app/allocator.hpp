// Which memory allocator serves this process: the shipped binary links mimalloc (it costs
// less CPU per call than glibc's malloc: bench/README.md), sanitizer builds keep glibc's.
#pragma once

#include <string>

namespace toolgate::app {

/// "mimalloc 2.0.9" when mimalloc serves malloc in this process, else "glibc malloc". Looked up
/// at run time, so it says what is in effect, not what was meant.
std::string memory_allocator();

} // namespace toolgate::app
