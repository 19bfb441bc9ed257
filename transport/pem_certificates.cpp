// PEM and DER framing, enough to tell a certificate file from a mistake.
#include "transport/pem_certificates.hpp"

#include "common/ascii.hpp"
#include "common/base64.hpp"

#include <array>
#include <fstream>
#include <string_view>

namespace toolgate::transport {
namespace {

/// Larger than any CA bundle (the system's is about 200 KB).
constexpr std::size_t max_file_bytes = 16 * 1024 * 1024;

bool is_certificate_label(std::string_view label)
{
    return label == "CERTIFICATE" || label == "TRUSTED CERTIFICATE" || label == "X509 CERTIFICATE";
}

/// One DER SEQUENCE that fills `der` exactly (definite length, at most four length bytes).
bool is_one_der_sequence(std::string_view der)
{
    if (der.size() < 2 || static_cast<unsigned char>(der[0]) != 0x30) {
        return false;
    }
    auto const first = static_cast<unsigned char>(der[1]);
    std::size_t length = first;
    std::size_t header = 2;
    if (first >= 0x80) {
        std::size_t const bytes = first & 0x7fU;
        if (bytes == 0 || bytes > 4 || der.size() < 2 + bytes) {
            return false;
        }
        length = 0;
        for (std::size_t i = 0; i < bytes; ++i) {
            length = (length << 8U) | static_cast<unsigned char>(der[2 + i]);
        }
        header += bytes;
    }
    return header + length == der.size();
}

/// The label of a `-----BEGIN <label>-----` or `-----END <label>-----` line, else "".
std::string_view label_of(std::string_view line, std::string_view keyword)
{
    std::string_view const dashes = "-----";
    auto const opening = std::string(dashes) + std::string(keyword) + " ";
    if (!line.starts_with(opening) || !line.ends_with(dashes)
        || line.size() < opening.size() + dashes.size()) {
        return {};
    }
    return line.substr(opening.size(), line.size() - opening.size() - dashes.size());
}

} // namespace

common::checked<void> check_pem_certificates(std::string const& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return common::problem_of("it cannot be opened");
    }
    // Read in pieces up to the limit: a device such as /dev/zero never ends.
    std::string text;
    std::array<char, 64 * 1024> piece {};
    while (in.read(piece.data(), piece.size()) || in.gcount() > 0) {
        text.append(piece.data(), static_cast<std::size_t>(in.gcount()));
        if (text.size() > max_file_bytes) {
            return common::problem_of("it is larger than 16 MiB");
        }
    }
    if (in.bad()) {
        return common::problem_of("it cannot be read");
    }
    std::size_t certificates = 0;
    std::string_view open_label;
    std::string body;
    std::string_view rest = text;
    while (!rest.empty()) {
        auto const end = rest.find('\n');
        auto const line = common::trim_blanks(rest.substr(0, end));
        rest = end == std::string_view::npos ? std::string_view {} : rest.substr(end + 1);
        if (open_label.empty()) {
            open_label = label_of(line, "BEGIN");
            body.clear();
            continue;
        }
        if (auto const closing = label_of(line, "END"); !closing.empty()) {
            if (closing != open_label) {
                return common::problem_of("a PEM block that begins as " + std::string(open_label)
                    + " ends as " + std::string(closing));
            }
            if (is_certificate_label(open_label)) {
                ++certificates;
                auto const der = common::base64_decode(body);
                if (!der) {
                    return common::problem_of(
                        "certificate " + std::to_string(certificates) + " is not valid base64");
                }
                if (!is_one_der_sequence(*der)) {
                    return common::problem_of(
                        "certificate " + std::to_string(certificates) + " is not DER-encoded");
                }
            }
            open_label = {};
            continue;
        }
        body += line;
    }
    if (!open_label.empty()) {
        return common::problem_of(
            "a PEM block (" + std::string(open_label) + ") has no -----END line");
    }
    if (certificates == 0) {
        return common::problem_of("it holds no PEM certificate (-----BEGIN CERTIFICATE-----)");
    }
    return {};
}

} // namespace toolgate::transport
