// Masking secrets in text that leaves the process (error results, log lines, events). One rule
// everywhere: every non-empty secret, longest first (a secret that contains another is masked
// whole), in its raw form and its percent-encoded form (how it appears in a URL), becomes `***`.
// A value shorter than min_masked_length is masked only where it stands as a word of its own:
// inside a longer word it is a coincidence ("t" in "type"), and masking it would corrupt the
// text (security review 3, item 19).
#pragma once

#include <cstddef>
#include <span>
#include <string>

namespace toolgate::common {

inline constexpr char const* secret_mask = "***";

/// Secrets at least this long are masked wherever they occur. Credentials shorter than this
/// are refused before they are sent (toolkits/auth.cpp), so only values that are not
/// credentials themselves (a host label, a secret-named argument) are ever shorter.
inline constexpr std::size_t min_masked_length = 8;

/// `text` with every occurrence of each secret, raw or percent-encoded, replaced by `***`;
/// one shorter than min_masked_length only where no letter, digit, '-' or '_' adjoins it.
std::string mask_secrets(std::string text, std::span<const std::string> secrets);

} // namespace toolgate::common
