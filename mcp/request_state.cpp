// Signed request states (see request_state.hpp): `<payload>.<mac>`, both base64url, the
// payload a JSON object {v, tool, args, who, exp, data}. MRTR's server requirements ask for
// integrity, the principal, a short expiry and the originating request; all four are checked.
#include "mcp/request_state.hpp"

#include "common/base64.hpp"
#include "transport/keyed_seal.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace toolgate::mcp {
namespace json = boost::json;

namespace {

std::int64_t system_now()
{
    return std::chrono::duration_cast<std::chrono::seconds>(
        std::chrono::system_clock::now().time_since_epoch())
        .count();
}

void canonical(json::value const& v, std::string& out)
{
    if (auto const* o = v.if_object()) {
        std::vector<std::pair<std::string_view, json::value const*>> members;
        members.reserve(o->size());
        for (auto const& [key, value] : *o) {
            members.emplace_back(key, &value);
        }
        std::sort(members.begin(), members.end(),
            [](auto const& a, auto const& b) { return a.first < b.first; });
        out += '{';
        for (std::size_t i = 0; i < members.size(); ++i) {
            out += i == 0 ? "" : ",";
            out += json::serialize(json::string(members[i].first));
            out += ':';
            canonical(*members[i].second, out);
        }
        out += '}';
    } else if (auto const* a = v.if_array()) {
        out += '[';
        for (std::size_t i = 0; i < a->size(); ++i) {
            out += i == 0 ? "" : ",";
            canonical((*a)[i], out);
        }
        out += ']';
    } else {
        out += json::serialize(v);
    }
}

protocol::rpc_error refused(std::string why)
{
    return { protocol::error_code::invalid_params, "Invalid params: requestState " + why,
        std::nullopt };
}

} // namespace

std::string arguments_digest(json::object const& arguments)
{
    std::string text;
    canonical(json::value(arguments), text);
    return common::base64url_encode(transport::sha256(text));
}

request_state_signer::request_state_signer(
    std::string key, std::chrono::seconds lifetime, clock now)
    : key_(std::move(key))
    , lifetime_(lifetime)
    , now_(now ? std::move(now) : clock(system_now))
{
    if (key_.size() < 32) {
        throw std::logic_error("request_state_signer: the key must hold at least 32 bytes");
    }
}

std::string request_state_signer::principal_tag(std::string_view principal) const
{
    // Keyed, so that the state (which the client can read) does not show a digest anyone could
    // compare against guessed principal names.
    auto const mac = transport::hmac_sha256(key_, std::string("principal\n").append(principal));
    return common::base64url_encode(std::string_view(mac).substr(0, 16));
}

std::string request_state_signer::issue(
    state_binding const& bound, json::object const& payload) const
{
    json::object body;
    body["v"] = 1;
    body["tool"] = bound.tool;
    body["args"] = arguments_digest(bound.arguments);
    body["who"] = principal_tag(bound.principal);
    body["exp"] = now_() + lifetime_.count();
    body["data"] = payload;
    auto const text = common::base64url_encode(json::serialize(body));
    return text + "." + common::base64url_encode(transport::hmac_sha256(key_, text));
}

protocol::rpc_result<json::object> request_state_signer::verify(
    std::string_view state, state_binding const& bound) const
{
    auto const dot = state.find('.');
    auto const mac = dot == std::string_view::npos
        ? std::nullopt
        : common::base64url_decode(state.substr(dot + 1));
    if (state.size() > 16 * 1024 || !mac
        || !transport::same_bytes(*mac, transport::hmac_sha256(key_, state.substr(0, dot)))) {
        return refused("was not issued by this server, or was altered; call the tool again "
                       "without inputResponses and requestState");
    }
    auto const text = common::base64url_decode(state.substr(0, dot));
    boost::system::error_code ec;
    auto body = text ? json::parse(*text, ec) : json::value();
    auto const* o = body.if_object();
    auto const* exp = o ? o->if_contains("exp") : nullptr;
    auto const* data = o ? o->if_contains("data") : nullptr;
    if (ec || !o || !exp || !exp->is_int64() || !data || !data->is_object()) {
        return refused("is malformed; call the tool again without it");
    }
    if (now_() >= exp->get_int64()) {
        return refused(fmt::format("has expired (it is valid for {} s); call the tool again "
                                   "without inputResponses and requestState",
            lifetime_.count()));
    }
    auto const field = [&](std::string_view key) {
        auto const* v = o->if_contains(key);
        return v && v->is_string() ? std::string_view(v->get_string()) : std::string_view();
    };
    if (field("tool") != bound.tool || field("args") != arguments_digest(bound.arguments)
        || field("who") != principal_tag(bound.principal)) {
        return refused("belongs to another call (another tool, other arguments or another "
                       "client); retry the original call unchanged, or call again without it");
    }
    return data->get_object();
}

std::shared_ptr<request_state_signer const> make_request_states(std::string const& shared_secret)
{
    return std::make_shared<request_state_signer const>(
        transport::key_for(shared_secret, "toolgate/request-state/v1"));
}

} // namespace toolgate::mcp
