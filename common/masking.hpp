// Masking secrets in text that leaves the process (error results, log lines, events). One rule
// everywhere: every non-empty secret, longest first (a secret that contains another is masked
// whole), in its raw form and its percent-encoded form (how it appears in a URL), becomes `***`.
#pragma once

#include <span>
#include <string>

namespace toolgate::common {

inline constexpr char const* secret_mask = "***";

/// `text` with every occurrence of each secret, raw or percent-encoded, replaced by `***`.
std::string mask_secrets(std::string text, std::span<const std::string> secrets);

} // namespace toolgate::common
