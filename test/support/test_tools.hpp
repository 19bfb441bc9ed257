// Test-only tools (echo, slow with progress, failing, logging, throwing) that prove the
// protocol machinery before and besides the catalogue. Never linked into the shipped binary.
#pragma once

#include "toolkits/tool_provider.hpp"

#include <memory>

namespace toolgate::testing {

std::unique_ptr<toolkits::tool_provider> make_test_tools();

} // namespace toolgate::testing
