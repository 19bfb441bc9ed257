// Test-only key pairs and JWT minting (OpenSSL), so the validator is checked against tokens
// signed here rather than against its own code.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace toolgate::testing {

class test_key {
public:
    static test_key rsa(std::string kid, int bits = 2048);
    static test_key ec(std::string kid);

    std::string const& kid() const { return kid_; }
    std::string const& alg() const { return alg_; }
    /// The public JWK (kty, kid, alg, use and n/e or crv/x/y).
    std::string jwk_json() const;
    /// A compact JWS over the given header and payload JSON texts.
    std::string sign(std::string const& header_json, std::string const& payload_json) const;
    /// A JWT with header {"alg":<alg>,"typ":"at+jwt","kid":<kid>}.
    std::string token(std::string const& payload_json) const;

private:
    std::string kid_;
    std::string alg_;
    std::shared_ptr<void> key_; ///< EVP_PKEY with the private half
};

/// `{"keys":[...]}` of the keys' public JWKs.
std::string make_jwks(std::vector<test_key const*> const& keys);

/// Seconds since the epoch, now plus `offset`.
long long epoch_seconds(std::chrono::seconds offset = std::chrono::seconds(0));

/// A temporary file holding `text`, removed when the object dies.
class temp_file {
public:
    explicit temp_file(std::string const& text, std::string const& suffix = "");
    ~temp_file();
    temp_file(temp_file const&) = delete;
    temp_file& operator=(temp_file const&) = delete;
    std::string const& path() const { return path_; }

private:
    std::string path_;
};

} // namespace toolgate::testing
