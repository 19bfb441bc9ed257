// What every detached coroutine (an asio::co_spawn root) does with an exception that ends it:
// log it with the root's name. An exception escaping a root is a bug or an exhausted resource;
// either way an operator must be able to see it, so no root swallows one silently.
#pragma once

#include <exception>
#include <string_view>

namespace toolgate::transport {

/// Logs `error` (when set) as "<root> failed: <what>" at error level. Cancellation
/// (operation_aborted) is part of normal shutdown and is logged at debug level only.
void log_root_failure(std::string_view root, std::exception_ptr const& error);

/// A co_spawn completion handler that only logs: `asio::co_spawn(ex, f(), logged("sweeper"))`.
struct logged {
    std::string_view root;
    void operator()(std::exception_ptr const& error) const { log_root_failure(root, error); }
};

} // namespace toolgate::transport
