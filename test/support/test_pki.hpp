// Certificates made at test time with OpenSSL 3: a CA, and server certificates it issues.
// Nothing is checked in: every run has fresh keys, and no test depends on a clock-limited file.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace toolgate::test {

/// A PEM certificate and its private key.
struct pem_pair {
    std::string certificate;
    std::string private_key;
};

/// A certificate authority (EC P-256, valid from an hour ago for two days).
class test_ca {
public:
    explicit test_ca(std::string common_name);
    ~test_ca();
    test_ca(test_ca const&) = delete;
    test_ca& operator=(test_ca const&) = delete;

    /// The CA certificate, PEM.
    std::string const& certificate_pem() const { return certificate_pem_; }

    /// A server certificate for these DNS names and IP addresses (subjectAltName), with
    /// serverAuth extended key usage. Thread-safe.
    pem_pair issue_server(std::vector<std::string> const& dns_names,
        std::vector<std::string> const& ip_addresses) const;

    /// The process-wide test CA that fake platforms use by default; its certificate is written
    /// to a private temporary directory, removed at exit. Created on first use, thread-safe.
    static test_ca const& shared();
    /// Path of shared()'s certificate PEM: pass it as the client's extra CA file.
    static std::string const& shared_pem_path();

private:
    struct keys;
    std::unique_ptr<keys> keys_;
    std::string certificate_pem_;
};

} // namespace toolgate::test
