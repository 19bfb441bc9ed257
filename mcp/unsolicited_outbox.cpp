// The outbox of unsolicited messages (see unsolicited_outbox.hpp).
#include "mcp/unsolicited_outbox.hpp"

#include <vector>

namespace toolgate::mcp {

bool unsolicited_outbox::attach(std::shared_ptr<transport::message_sink> sink)
{
    std::deque<std::string> kept;
    {
        std::lock_guard lock(mutex_);
        if (sink_ || closed_) {
            return false;
        }
        sink_ = sink;
        kept.swap(kept_);
    }
    for (auto& message : kept) {
        sink->send(std::move(message));
    }
    return true;
}

void unsolicited_outbox::detach(transport::message_sink const* sink)
{
    std::lock_guard lock(mutex_);
    if (sink_.get() == sink) {
        sink_.reset();
    }
}

void unsolicited_outbox::send(std::string message)
{
    std::shared_ptr<transport::message_sink> sink;
    {
        std::lock_guard lock(mutex_);
        if (closed_) {
            return;
        }
        if (!sink_) {
            if (kept_.size() == max_kept) {
                kept_.pop_front();
            }
            kept_.push_back(std::move(message));
            return;
        }
        sink = sink_;
    }
    sink->send(std::move(message)); // outside the lock: a sink may take its own
}

void unsolicited_outbox::close()
{
    std::lock_guard lock(mutex_);
    closed_ = true;
    kept_.clear();
    sink_.reset();
}

bool unsolicited_outbox::is_closed() const
{
    std::lock_guard lock(mutex_);
    return closed_;
}

bool unsolicited_outbox::is_attached() const
{
    std::lock_guard lock(mutex_);
    return sink_ != nullptr;
}

} // namespace toolgate::mcp
