// Names for toolgate's threads, so that `ps -L`, `top -H`, gdb and perf tell them apart
// (toolgate-io-N, toolgate-index, toolgate-audit, toolgate-stdin, toolgate-files).
#pragma once

#include <string>
#include <string_view>

namespace toolgate::common {

/// Names the calling thread. Linux keeps 15 characters: a longer name is cut there.
void name_this_thread(std::string_view name);

/// The calling thread's name (the process's name until a thread is given its own).
std::string this_thread_name();

} // namespace toolgate::common
