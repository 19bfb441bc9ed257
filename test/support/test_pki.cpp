// Test CA and server certificates built with OpenSSL 3's EVP and X509 APIs.
#include "test_pki.hpp"

#include <openssl/bn.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <unistd.h>

namespace toolgate::test {
namespace {

template <class T, void (*Free)(T*)> struct openssl_deleter {
    void operator()(T* p) const { Free(p); }
};
using pkey_ptr = std::unique_ptr<EVP_PKEY, openssl_deleter<EVP_PKEY, EVP_PKEY_free>>;
using x509_ptr = std::unique_ptr<X509, openssl_deleter<X509, X509_free>>;
using bio_ptr = std::unique_ptr<BIO, openssl_deleter<BIO, BIO_free_all>>;

void check(bool ok, char const* what)
{
    if (!ok) {
        throw std::runtime_error(std::string("test PKI: ") + what + " failed");
    }
}

pkey_ptr make_key()
{
    pkey_ptr key(EVP_EC_gen("P-256"));
    check(key != nullptr, "EC key generation");
    return key;
}

void add_extension(X509* cert, X509* issuer, int nid, std::string const& value)
{
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
    X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str());
    check(ext != nullptr, "X509 extension");
    X509_add_ext(cert, ext, -1);
    X509_EXTENSION_free(ext);
}

/// An unsigned certificate for `key` named `common_name`, issuer name from `issuer` (itself
/// when null); the caller adds extensions, then signs.
x509_ptr make_certificate(EVP_PKEY* key, std::string const& common_name, X509* issuer)
{
    x509_ptr cert(X509_new());
    check(cert != nullptr, "X509_new");
    X509_set_version(cert.get(), X509_VERSION_3);
    BIGNUM* serial = BN_new();
    BN_rand(serial, 63, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY);
    BN_to_ASN1_INTEGER(serial, X509_get_serialNumber(cert.get()));
    BN_free(serial);
    X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);
    X509_gmtime_adj(X509_getm_notAfter(cert.get()), 2 * 86400);
    X509_set_pubkey(cert.get(), key);
    X509_NAME* name = X509_get_subject_name(cert.get());
    X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC,
        reinterpret_cast<unsigned char const*>("toolgate tests"), -1, -1, 0);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
        reinterpret_cast<unsigned char const*>(common_name.c_str()), -1, -1, 0);
    X509* signer = issuer ? issuer : cert.get();
    X509_set_issuer_name(cert.get(), X509_get_subject_name(signer));
    return cert;
}

std::string to_pem(X509* cert)
{
    bio_ptr bio(BIO_new(BIO_s_mem()));
    check(PEM_write_bio_X509(bio.get(), cert) == 1, "PEM_write_bio_X509");
    char* data = nullptr;
    auto const size = BIO_get_mem_data(bio.get(), &data);
    return std::string(data, static_cast<std::size_t>(size));
}

std::string to_pem(EVP_PKEY* key)
{
    bio_ptr bio(BIO_new(BIO_s_mem()));
    check(PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr) == 1,
        "PEM_write_bio_PrivateKey");
    char* data = nullptr;
    auto const size = BIO_get_mem_data(bio.get(), &data);
    return std::string(data, static_cast<std::size_t>(size));
}

/// A private temporary directory, removed at exit (tests stay hermetic, STYLE §9).
struct temp_dir {
    temp_dir()
    {
        auto pattern = (std::filesystem::temp_directory_path() / "toolgate-pki-XXXXXX").string();
        check(mkdtemp(pattern.data()) != nullptr, "mkdtemp");
        path = pattern;
    }
    ~temp_dir()
    {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
    std::filesystem::path path;
};

} // namespace

struct test_ca::keys {
    pkey_ptr key;
    x509_ptr certificate;
};

test_ca::test_ca(std::string common_name)
    : keys_(std::make_unique<keys>())
{
    keys_->key = make_key();
    keys_->certificate = make_certificate(keys_->key.get(), common_name, nullptr);
    X509* ca = keys_->certificate.get();
    add_extension(ca, ca, NID_basic_constraints, "critical,CA:TRUE");
    add_extension(ca, ca, NID_key_usage, "critical,keyCertSign,cRLSign");
    add_extension(ca, ca, NID_subject_key_identifier, "hash");
    check(X509_sign(ca, keys_->key.get(), EVP_sha256()) > 0, "CA signature");
    certificate_pem_ = to_pem(ca);
}

test_ca::~test_ca() = default;

pem_pair test_ca::issue_server(
    std::vector<std::string> const& dns_names, std::vector<std::string> const& ip_addresses) const
{
    auto key = make_key();
    std::string const common_name = dns_names.empty() ? std::string("server") : dns_names.front();
    auto cert = make_certificate(key.get(), common_name, keys_->certificate.get());
    std::string san;
    for (auto const& name : dns_names) {
        san.append(san.empty() ? "DNS:" : ",DNS:").append(name);
    }
    for (auto const& ip : ip_addresses) {
        san.append(san.empty() ? "IP:" : ",IP:").append(ip);
    }
    X509* issuer = keys_->certificate.get();
    add_extension(cert.get(), issuer, NID_basic_constraints, "critical,CA:FALSE");
    add_extension(cert.get(), issuer, NID_key_usage, "critical,digitalSignature,keyEncipherment");
    add_extension(cert.get(), issuer, NID_ext_key_usage, "serverAuth");
    add_extension(cert.get(), issuer, NID_subject_alt_name, san);
    add_extension(cert.get(), issuer, NID_authority_key_identifier, "keyid:always");
    check(X509_sign(cert.get(), keys_->key.get(), EVP_sha256()) > 0, "server signature");
    return { to_pem(cert.get()), to_pem(key.get()) };
}

test_ca const& test_ca::shared()
{
    static test_ca const ca("toolgate test CA");
    return ca;
}

std::string const& test_ca::shared_pem_path()
{
    static temp_dir const dir;
    static std::string const path = [] {
        auto file = dir.path / "ca.pem";
        std::ofstream out(file);
        out << shared().certificate_pem();
        check(static_cast<bool>(out.flush()), "writing the CA file");
        return file.string();
    }();
    return path;
}

} // namespace toolgate::test
