// stderr logging setup.
#include "server/logging.hpp"

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

namespace toolgate::server {

void init_logging()
{
    auto logger = spdlog::stderr_logger_mt("toolgate");
    logger->set_pattern("%Y-%m-%dT%H:%M:%S.%e %^%l%$ %v");
    spdlog::set_default_logger(std::move(logger));
}

void set_log_level(std::string const& name)
{
    spdlog::set_level(spdlog::level::from_str(name));
}

} // namespace toolgate::server
