#include "transport/coroutine_root.hpp"

#include <boost/asio/error.hpp>
#include <boost/system/system_error.hpp>
#include <spdlog/spdlog.h>

namespace toolgate::transport {

void log_root_failure(std::string_view root, std::exception_ptr const& error)
{
    if (!error) {
        return;
    }
    try {
        std::rethrow_exception(error);
    } catch (boost::system::system_error const& e) {
        auto const level = e.code() == boost::asio::error::operation_aborted ? spdlog::level::debug
                                                                             : spdlog::level::err;
        spdlog::log(level, "{} failed: {}", root, e.what());
    } catch (std::exception const& e) {
        spdlog::error("{} failed: {}", root, e.what());
    } catch (...) {
        spdlog::error("{} failed: an exception that is not a std::exception", root);
    }
}

} // namespace toolgate::transport
