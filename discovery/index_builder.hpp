// The search index, built on a thread of its own that yields to every other thread until a
// search needs it.
#pragma once

#include "discovery/search_index.hpp"

#include <functional>
#include <future>
#include <memory>
#include <thread>
#include <vector>

namespace toolgate::discovery {

/// Gathers the index's texts; called once, on the index's own thread, so that copying some
/// megabytes of text stays off the start path too. What it reads must outlive the builder.
using search_texts = std::function<std::vector<search_entry>()>;

/// Builds the index for the whole catalogue (about 90M instructions, three times the rest of
/// start-up) beside the server. The thread runs under SCHED_IDLE: it takes a core only when no
/// other thread wants it, so on one core the first answers, which need no index, are not
/// slowed; on an idle core it runs at full speed. The first caller of index() that finds it
/// unfinished raises the thread to the normal policy before waiting, so that a busy machine
/// cannot starve a search that is waiting for it.
class index_builder {
public:
    explicit index_builder(search_texts texts);
    /// Raises the thread to the normal policy and joins it: what `texts` reads must stay alive
    /// until the index is built, and on a busy machine a thread left under SCHED_IDLE would
    /// hold up the end of the process.
    ~index_builder();
    index_builder(index_builder const&) = delete;
    index_builder& operator=(index_builder const&) = delete;

    /// The index; waits for it when it is still being built. Thread-safe.
    search_index const& index() const;

private:
    std::shared_future<std::shared_ptr<search_index const>> index_;
    std::jthread thread_; ///< after index_: joined before the future goes
    std::jthread::native_handle_type handle_ {};
};

} // namespace toolgate::discovery
