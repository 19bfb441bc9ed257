// The last one out wakes the waiters (see activity.hpp).
#include "transport/activity.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/system/system_error.hpp>

namespace toolgate::transport {
namespace asio = boost::asio;

void activity::leave() noexcept
{
    if (count_.fetch_sub(1) == 1 && waiting_.load() > 0) {
        wake();
    }
}

void activity::wake() noexcept
{
    std::vector<std::shared_ptr<channel>> woken;
    {
        std::lock_guard lock(mutex_);
        woken.swap(waiters_);
        waiting_ -= woken.size();
    }
    for (auto const& ch : woken) {
        ch->try_send(boost::system::error_code());
    }
}

asio::awaitable<void> activity::until_idle()
{
    auto const executor = co_await asio::this_coro::executor;
    // A wake-up can come from a unit given back at once (a call refused at a limit): look
    // again after each.
    for (;;) {
        auto ch = std::make_shared<channel>(executor, 1);
        {
            std::lock_guard lock(mutex_);
            ++waiting_;
            if (count_.load() == 0) {
                --waiting_;
                co_return;
            }
            waiters_.push_back(ch);
        }
        auto [ec] = co_await ch->async_receive(asio::as_tuple(asio::use_awaitable));
        if (ec) {
            // Cancelled (the wait lost a race against a timer): forget this waiter.
            std::lock_guard lock(mutex_);
            if (std::erase(waiters_, ch) > 0) {
                --waiting_;
            }
            throw boost::system::system_error(ec);
        }
    }
}

} // namespace toolgate::transport
