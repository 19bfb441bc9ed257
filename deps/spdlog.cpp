// spdlog's compiled part, for SPDLOG_COMPILED_LIB: its headers then leave the definitions to
// their -inl.h files, compiled here once. The sink classes are templates over a mutex: the
// ones toolgate and its tests use are instantiated here (ops/logging.cpp's logger writes to
// stderr; the registry first makes a colour sink on stdout its default logger, which
// ops::init_logging replaces before anything is logged).
#include <spdlog/common-inl.h>
#include <spdlog/details/backtracer-inl.h>
#include <spdlog/details/log_msg-inl.h>
#include <spdlog/details/log_msg_buffer-inl.h>
#include <spdlog/details/null_mutex.h>
#include <spdlog/details/os-inl.h>
#include <spdlog/details/periodic_worker-inl.h>
#include <spdlog/details/registry-inl.h>
#include <spdlog/logger-inl.h>
#include <spdlog/pattern_formatter-inl.h>
#include <spdlog/sinks/ansicolor_sink-inl.h>
#include <spdlog/sinks/base_sink-inl.h>
#include <spdlog/sinks/sink-inl.h>
#include <spdlog/sinks/stdout_sinks-inl.h>
#include <spdlog/spdlog-inl.h>

#include <mutex>

namespace spdlog {

template class sinks::base_sink<std::mutex>;
template class sinks::base_sink<details::null_mutex>;

template class sinks::stdout_sink_base<details::console_mutex>;
template class sinks::stdout_sink_base<details::console_nullmutex>;
template class sinks::stdout_sink<details::console_mutex>;
template class sinks::stdout_sink<details::console_nullmutex>;
template class sinks::stderr_sink<details::console_mutex>;
template class sinks::stderr_sink<details::console_nullmutex>;
template std::shared_ptr<logger> stdout_logger_mt<synchronous_factory>(std::string const&);
template std::shared_ptr<logger> stderr_logger_mt<synchronous_factory>(std::string const&);

template class sinks::ansicolor_sink<details::console_mutex>;
template class sinks::ansicolor_stdout_sink<details::console_mutex>;
template class sinks::ansicolor_stderr_sink<details::console_mutex>;

} // namespace spdlog
