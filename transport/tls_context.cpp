// Client TLS context and per-connection peer identity for the outbound client.
#include "transport/tls_context.hpp"

#include <openssl/ssl.h>
#include <openssl/x509_vfy.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

namespace toolgate::transport {
namespace ssl = boost::asio::ssl;

namespace {

/// True when `dir` holds OpenSSL's subject-hash links (`1a2b3c4d.0`), as Debian's does.
bool has_hash_links(char const* dir)
{
    std::error_code ec;
    for (auto const& entry : std::filesystem::directory_iterator(dir, ec)) {
        auto const name = entry.path().filename().string();
        if (name.size() == 10 && name.ends_with(".0")
            && name.find_first_not_of("0123456789abcdef") == 8) {
            return true;
        }
    }
    return false;
}

/// The system trust store. A hashed directory is looked up per issuer during a handshake,
/// whereas reading the bundle file parses ~140 certificates up front: callgrind showed that
/// to be 85% of the server's cold start. On Debian both hold the same certificates
/// (update-ca-certificates writes both), so the directory is used unless SSL_CERT_FILE names
/// a different bundle, which is then loaded as asked.
void use_system_trust(ssl::context& ctx)
{
    char const* file_env = std::getenv(X509_get_default_cert_file_env());
    char const* dir_env = std::getenv(X509_get_default_cert_dir_env());
    std::string const dir = dir_env && *dir_env ? dir_env : X509_get_default_cert_dir();
    std::error_code ec;
    bool const custom_file = file_env && *file_env
        && !std::filesystem::equivalent(file_env, X509_get_default_cert_file(), ec);
    if (!custom_file && has_hash_links(dir.c_str())
        && SSL_CTX_load_verify_dir(ctx.native_handle(), dir.c_str()) == 1) {
        return;
    }
    ctx.set_default_verify_paths();
}

} // namespace

std::shared_ptr<ssl::context> make_tls_client_context(
    std::string const& extra_ca_file, bool system_trust)
{
    auto ctx = std::make_shared<ssl::context>(ssl::context::tls_client);
    // Floor at TLS 1.2: 1.0/1.1 are deprecated (RFC 8996) and no platform we call needs them.
    SSL_CTX_set_min_proto_version(ctx->native_handle(), TLS1_2_VERSION);
    ctx->set_options(ssl::context::default_workarounds | ssl::context::no_compression);
    ctx->set_verify_mode(ssl::verify_peer);
    if (system_trust) {
        use_system_trust(*ctx);
    }
    if (!extra_ca_file.empty()) {
        boost::system::error_code ec;
        ctx->load_verify_file(extra_ca_file, ec);
        if (ec) {
            throw std::runtime_error("cannot load CA file " + extra_ca_file + ": " + ec.message());
        }
    }
    return ctx;
}

bool set_tls_peer_identity(void* native_ssl, std::string const& host, bool host_is_ip)
{
    auto* ssl_handle = static_cast<SSL*>(native_ssl);
    X509_VERIFY_PARAM* param = SSL_get0_param(ssl_handle);
    if (host_is_ip) {
        return X509_VERIFY_PARAM_set1_ip_asc(param, host.c_str()) == 1;
    }
    // A wildcard covers one label only ("*.example.com" does not match "a.b.example.com").
    X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
    return SSL_set_tlsext_host_name(ssl_handle, host.c_str()) == 1
        && X509_VERIFY_PARAM_set1_host(param, host.c_str(), host.size()) == 1;
}

std::string tls_verify_failure(void* native_ssl)
{
    auto const result = SSL_get_verify_result(static_cast<SSL*>(native_ssl));
    if (result == X509_V_OK) {
        return {};
    }
    return X509_verify_cert_error_string(result);
}

} // namespace toolgate::transport
