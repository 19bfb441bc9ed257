// Whether a coroutine's cancellation slot has fired (any type: terminal, partial, total).
#pragma once

#include <boost/asio/cancellation_state.hpp>
#include <boost/asio/cancellation_type.hpp>

namespace toolgate::transport {

inline bool is_cancelled(boost::asio::cancellation_state const& cs)
{
    return cs.cancelled() != boost::asio::cancellation_type::none;
}

} // namespace toolgate::transport
