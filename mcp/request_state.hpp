// The `requestState` of 2026-07-28 input_required results (basic/patterns/mrtr): what a call
// asked the client for, signed with a key the replicas share and bound to the tool, a digest of
// the call's arguments and the caller's principal, valid for a few minutes. The client echoes
// it on its retry; whichever replica gets the retry checks it, so nothing is kept in between.
#pragma once

#include "protocol/errors.hpp"

#include <boost/json/object.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace toolgate::mcp {

/// What a state is bound to: the call it answers and who made it.
struct state_binding {
    std::string_view tool; ///< the tool's dotted name
    boost::json::object const& arguments;
    std::string_view principal; ///< "" without client authentication
};

/// A digest of `arguments` that ignores the order of object members (base64url SHA-256 of
/// their canonical text), so a client that rebuilds the same arguments matches.
std::string arguments_digest(boost::json::object const& arguments);

class request_state_signer {
public:
    using clock = std::function<std::int64_t()>; ///< Unix seconds

    /// `key`: at least 32 bytes (transport::derive_key of the shared secret). `now` defaults
    /// to the system clock.
    explicit request_state_signer(
        std::string key, std::chrono::seconds lifetime = std::chrono::minutes(10), clock now = {});

    /// A state carrying `payload` for the call `bound` describes.
    std::string issue(state_binding const& bound, boost::json::object const& payload) const;
    /// The payload of a state this signer issued for the same tool, arguments and principal
    /// that has not expired; otherwise -32602 saying which of these it failed (never echoing
    /// the state).
    protocol::rpc_result<boost::json::object> verify(
        std::string_view state, state_binding const& bound) const;

    std::chrono::seconds lifetime() const { return lifetime_; }

private:
    std::string principal_tag(std::string_view principal) const;

    std::string key_;
    std::chrono::seconds lifetime_;
    clock now_;
};

/// A signer whose key derives from `shared_secret` (--session-key: replicas given the same
/// secret accept each other's states), or from random bytes when it is empty (this process
/// only).
std::shared_ptr<request_state_signer const> make_request_states(std::string const& shared_secret);

} // namespace toolgate::mcp
