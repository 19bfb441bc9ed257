// The start-up check of a --ca-file, made without OpenSSL.
#pragma once

#include "common/result.hpp"

#include <string>

namespace toolgate::transport {

/// Checks that the file at `path` can be read and holds at least one PEM certificate, each
/// with sound base64 and DER framing (one outer SEQUENCE of the decoded length). The problem
/// names what is wrong (never the file's content).
///
/// Why not OpenSSL: loading the file sets OpenSSL up (its configuration, its providers, a
/// client context), about 4 ms that delayed the first answer of every start with --ca-file
/// (bench/README.md, "Start-up, fourth pass"). OpenSSL parses the file at the first
/// connection; what it still refuses then (well-framed DER that is not a certificate) fails
/// that connection with a message naming the file.
common::checked<void> check_pem_certificates(std::string const& path);

} // namespace toolgate::transport
