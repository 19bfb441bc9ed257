// JSON-RPC 2.0 framing: parse text into messages, classify them, and serialise answers.
#pragma once

#include "protocol/errors.hpp"

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace toolgate::protocol {

struct parse_limits {
    std::size_t max_depth = 64; ///< nesting deeper than this is a parse error
};

enum class message_kind { request, notification, response };

/// One classified JSON-RPC message. Views point into `doc`, which the message owns.
class message {
public:
    message(boost::json::value doc, message_kind kind);

    message_kind kind() const { return kind_; }
    bool is_request() const { return kind_ == message_kind::request; }
    bool is_notification() const { return kind_ == message_kind::notification; }
    /// The request id (string or integer), null for notifications.
    boost::json::value const& id() const;
    std::string_view method() const;
    /// `params` when it is an object, else nullptr.
    boost::json::object const* params() const;
    boost::json::value const& document() const { return doc_; }

private:
    boost::json::value doc_;
    message_kind kind_;
};

/// Text → JSON. A failure is a -32700 error whose message says where parsing stopped.
rpc_result<boost::json::value> parse_json(std::string_view text, parse_limits limits = {});

/// A classification failure: the error plus the id when one could be read (else null).
struct invalid_message {
    rpc_error error;
    boost::json::value id;
};

/// JSON value → message. Anything that is not a JSON-RPC 2.0 request, notification or
/// response is -32600 naming the broken member.
boost::system::result<message, invalid_message> classify(boost::json::value doc);

/// Lets the result of classify() throw from value() on an error (a programming error).
[[noreturn]] inline void throw_exception_from_error(
    invalid_message const& error, boost::source_location const& where)
{
    throw_exception_from_error(error.error, where);
}

/// `{"jsonrpc":"2.0","id":…,"result":…}` as compact text.
std::string serialize_result(boost::json::value const& id, boost::json::value const& result);
/// `{"jsonrpc":"2.0","id":…,"error":{…}}`; id null when unknown (parse errors).
std::string serialize_error(boost::json::value const& id, rpc_error const& error);
/// The same for an error without data.
std::string serialize_error(boost::json::value const& id, int code, std::string message);
/// `{"jsonrpc":"2.0","method":…,"params":…}`.
std::string serialize_notification(std::string_view method, boost::json::object params);
/// `{"jsonrpc":"2.0","id":…,"method":…,"params":…}`: a request of the server to the client.
std::string serialize_request(
    boost::json::value const& id, std::string_view method, boost::json::object params);

} // namespace toolgate::protocol
