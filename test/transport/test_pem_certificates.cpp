// --ca-file at start: the framing check made without OpenSSL, and a file that passes it but
// that OpenSSL refuses, which fails the connection and names the file.
#include "https_client_fixture.hpp"
#include "transport/pem_certificates.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

using namespace toolgate;

namespace {

/// A file of the test's own, removed at the end of the test.
struct temp_file {
    explicit temp_file(std::string const& content)
        : path((std::filesystem::temp_directory_path()
            / ("toolgate-pem-" + std::to_string(::getpid()) + "-" + std::to_string(counter++)))
                   .string())
    {
        std::ofstream(path, std::ios::binary) << content;
    }
    ~temp_file() { std::remove(path.c_str()); }
    temp_file(temp_file const&) = delete;
    temp_file& operator=(temp_file const&) = delete;
    std::string path;
    static inline int counter = 0;
};

std::string pem(std::string const& label, std::string const& body)
{
    return "-----BEGIN " + label + "-----\n" + body + "\n-----END " + label + "-----\n";
}

/// Reads a whole file.
std::string contents(std::string const& path)
{
    std::ifstream in(path, std::ios::binary);
    return { std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>() };
}

std::string problem_with(std::string const& content)
{
    temp_file file(content);
    auto checked = transport::check_pem_certificates(file.path);
    return checked ? std::string() : checked.error().message;
}

} // namespace

TEST_CASE("pem check: the test CA and a bundle of certificates pass", "[upstream]")
{
    auto const ca = contents(test::fake_platform::ca_file());
    REQUIRE_THAT(ca, Catch::Contains("-----BEGIN CERTIFICATE-----"));
    CHECK(problem_with(ca).empty());
    CHECK(problem_with("# comment lines and blank ones around\n\n" + ca + "\n" + ca).empty());
    CHECK(problem_with(pem("X509 CRL", "MAMCAQE=") + ca).empty()); // other blocks are passed over
}

TEST_CASE("pem check: each usual mistake is named", "[upstream]")
{
    CHECK(transport::check_pem_certificates("/nonexistent/toolgate-ca.pem").error().message
        == "it cannot be opened");
    CHECK(transport::check_pem_certificates("/dev/zero").error().message
        == "it is larger than 16 MiB"); // read in bounded pieces, not to its (absent) end
    CHECK_THAT(problem_with(""), Catch::Contains("holds no PEM certificate"));
    CHECK_THAT(problem_with("not a certificate\n"), Catch::Contains("holds no PEM certificate"));
    CHECK_THAT(
        problem_with(pem("PRIVATE KEY", "MAMCAQE=")), Catch::Contains("holds no PEM certificate"));
    CHECK_THAT(problem_with(pem("CERTIFICATE", "MAMCAQE!")),
        Catch::Contains("certificate 1 is not valid base64"));
    // Base64 of 30 05 02 01 01: a SEQUENCE that says 5 bytes and holds 3.
    CHECK_THAT(problem_with(pem("CERTIFICATE", "MAUCAQE=")),
        Catch::Contains("certificate 1 is not DER-encoded"));
    auto const ca = contents(test::fake_platform::ca_file());
    CHECK_THAT(problem_with(ca.substr(0, ca.size() / 2)), Catch::Contains("has no -----END line"));
    CHECK_THAT(problem_with("-----BEGIN CERTIFICATE-----\nMAMCAQE=\n-----END X509 CRL-----\n"),
        Catch::Contains("begins as CERTIFICATE ends as X509 CRL"));
}

TEST_CASE(
    "a CA file OpenSSL refuses after the check fails the connection, naming the file", "[upstream]")
{
    // 30 03 02 01 01: sound DER framing (the start-up check passes), not a certificate.
    temp_file not_a_certificate(pem("CERTIFICATE", "MAMCAQE="));
    REQUIRE(transport::check_pem_certificates(not_a_certificate.path).has_value());
    auto options = test::test_options();
    options.ca_file = not_a_certificate.path;
    test::client_fixture f(options); // the check passes: no throw at start
    auto const result = f.call(test::get("https://127.0.0.1:9/anything"));
    CHECK(result.failure == transport::outbound_failure::tls);
    CHECK_THAT(result.detail, Catch::Contains("cannot load CA file " + not_a_certificate.path));
    // And again: the failure is not cached as a success.
    CHECK(
        f.call(test::get("https://127.0.0.1:9/again")).failure == transport::outbound_failure::tls);
}
