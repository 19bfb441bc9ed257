// common::name_this_thread: a thread's own name, cut to what Linux keeps.
#include "common/thread_name.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <thread>

using namespace toolgate;

TEST_CASE("a thread names itself, and only itself", "[common]")
{
    auto const before = common::this_thread_name();
    std::string seen;
    std::string cut;
    std::thread([&] {
        common::name_this_thread("toolgate-test");
        seen = common::this_thread_name();
        common::name_this_thread("toolgate-a-name-longer-than-fifteen");
        cut = common::this_thread_name();
    }).join();
    CHECK(seen == "toolgate-test");
    CHECK(cut == "toolgate-a-name"); // the first 15 characters
    CHECK(common::this_thread_name() == before);
}
