// The search index's own thread: SCHED_IDLE until a search waits for it.
#include "discovery/index_builder.hpp"

#include "common/thread_name.hpp"

#include <chrono>
#include <pthread.h>
#include <sched.h>

namespace toolgate::discovery {
namespace {

/// Best effort: where a policy cannot be set the thread keeps the one it has.
void set_policy(std::jthread::native_handle_type thread, int policy)
{
    sched_param const priority {};
    ::pthread_setschedparam(thread, policy, &priority);
}

} // namespace

index_builder::index_builder(search_texts texts)
{
    std::promise<std::shared_ptr<search_index const>> built;
    index_ = built.get_future().share();
    // The thread starts by waiting until its policy is set, so that it never runs beside
    // start-up under the normal one.
    std::promise<void> policy_set;
    auto may_start = policy_set.get_future();
    thread_ = std::jthread([texts = std::move(texts), built = std::move(built),
                               may_start = std::move(may_start)]() mutable {
        common::name_this_thread("toolgate-index");
        may_start.wait();
        try {
            built.set_value(std::make_shared<search_index const>(texts()));
        } catch (...) {
            built.set_exception(std::current_exception());
        }
    });
    handle_ = thread_.native_handle();
    set_policy(handle_, SCHED_IDLE);
    policy_set.set_value();
}

index_builder::~index_builder()
{
    set_policy(handle_, SCHED_OTHER); // thread_'s destructor joins it next
}

search_index const& index_builder::index() const
{
    if (index_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
        // The thread is joined only by the destructor, so its handle is still valid.
        set_policy(handle_, SCHED_OTHER);
    }
    return *index_.get();
}

} // namespace toolgate::discovery
