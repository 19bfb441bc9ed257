// Sealed sign-in states (see sign_in_link.hpp): JSON {p, t, c, e, n, x} sealed with
// transport::seal under the link key, the context naming the format.
#include "credentials/sign_in_link.hpp"

#include "common/base64.hpp"
#include "common/random.hpp"
#include "transport/keyed_seal.hpp"

#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <stdexcept>

namespace toolgate::credentials {
namespace json = boost::json;

namespace {

constexpr std::string_view context = "toolgate/sign-in-link/v1";

std::int64_t system_now()
{
    return std::chrono::duration_cast<std::chrono::seconds>(
        std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::string text_of(json::object const& o, std::string_view key)
{
    auto const* v = o.if_contains(key);
    return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

} // namespace

sign_in_links::sign_in_links(std::string key, std::chrono::seconds lifetime, clock now)
    : key_(std::move(key))
    , lifetime_(lifetime)
    , now_(now ? std::move(now) : clock(system_now))
{
    if (key_.size() != 32) {
        throw std::logic_error("sign_in_links: the key must hold 32 bytes");
    }
}

std::string sign_in_links::issue(sign_in_claim claim) const
{
    json::object o;
    o["p"] = claim.principal;
    o["t"] = claim.toolkit;
    o["c"] = claim.client_name;
    o["e"] = claim.elicitation_id;
    o["n"] = common::base64url_encode(common::random_bytes(16));
    o["x"] = now_() + lifetime_.count();
    return transport::seal(key_, json::serialize(o), context);
}

boost::system::result<sign_in_claim, link_fault> sign_in_links::open(std::string_view state) const
{
    auto const plain = transport::unseal(key_, state, context);
    if (!plain) {
        return link_fault::malformed;
    }
    boost::system::error_code ec;
    auto doc = json::parse(*plain, ec);
    auto const* o = doc.if_object();
    auto const* expiry = o ? o->if_contains("x") : nullptr;
    if (ec || !o || !expiry || !expiry->is_int64()) {
        return link_fault::malformed;
    }
    sign_in_claim claim { text_of(*o, "p"), text_of(*o, "t"), text_of(*o, "c"), text_of(*o, "e"),
        text_of(*o, "n"), expiry->get_int64() };
    if (claim.nonce.empty() || claim.toolkit.empty()) {
        return link_fault::malformed;
    }
    if (now_() >= claim.expires_at) {
        return link_fault::expired;
    }
    std::lock_guard lock(mutex_);
    if (spent_.contains(claim.nonce)) {
        return link_fault::used;
    }
    return claim;
}

bool sign_in_links::spend(sign_in_claim const& claim)
{
    auto const now = now_();
    std::lock_guard lock(mutex_);
    std::erase_if(spent_, [now](auto const& e) { return e.second < now; });
    return spent_.emplace(claim.nonce, claim.expires_at).second;
}

std::string sign_in_links::code_verifier(sign_in_claim const& claim) const
{
    // 32 bytes of HMAC, base64url: 43 unreserved characters, as make_pkce's.
    return common::base64url_encode(transport::hmac_sha256(key_, "pkce\n" + claim.nonce));
}

} // namespace toolgate::credentials
