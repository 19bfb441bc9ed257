// The client TLS context shared by every outbound connection, and the per-connection
// verification set-up (SNI and host name or IP address checked by OpenSSL itself).
#pragma once

#include <boost/asio/ssl/context.hpp>

#include <memory>
#include <string>

namespace toolgate::transport {

/// A client context: TLS 1.2 or newer, peer verification on, the system trust store (when
/// `system_trust`) plus the PEM certificates in `extra_ca_file` (when not empty).
/// Throws std::runtime_error naming the file when OpenSSL cannot load it (the HTTPS client
/// makes the context at its first connection; at start-up it checks the file's framing only,
/// transport/pem_certificates.hpp). Immutable afterwards, so shared across threads freely.
std::shared_ptr<boost::asio::ssl::context> make_tls_client_context(
    std::string const& extra_ca_file, bool system_trust = true);

/// Prepares one connection's SSL object before the handshake: SNI for host names (never for
/// address literals, RFC 6066 §3) and the name or address the certificate must carry.
/// Returns false when OpenSSL refuses the values.
bool set_tls_peer_identity(void* native_ssl, std::string const& host, bool host_is_ip);

/// Why a failed handshake failed, in words: the certificate verification result when there is
/// one ("unable to get local issuer certificate", "hostname mismatch"), else "".
std::string tls_verify_failure(void* native_ssl);

} // namespace toolgate::transport
