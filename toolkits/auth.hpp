// Authentication per toolkit: which secrets a tool needs and how each reaches its platform
// (header, Bearer token, HTTP Basic, query parameter, or part of the base URL). Secrets come
// from a credential_source, never from tool arguments.
#pragma once

#include "toolkits/credentials.hpp"
#include "toolkits/request_builder.hpp"
#include "toolkits/tool_error.hpp"
#include "toolkits/tool_spec.hpp"

#include <string>
#include <vector>

namespace toolgate::toolkits {

/// How far a host named by a secret is trusted. The operator's own secrets name any host; a
/// secret the calling client brought (credential_source::from_client) names only hosts the
/// operator lets clients choose, and reaches a loopback, private or link-local address only
/// when the operator says so (security review 3, item 2: otherwise a client could make the
/// server fetch from its internal network, or send another's key to its own host).
struct url_secret_policy {
    /// --allow-insecure-upstream: accept an `http://` URL (VECTORDB_SERVER_URL) whose host is
    /// not loopback; refused otherwise, because the credentials would cross the network in
    /// clear.
    bool allow_insecure_http = false;
    /// --client-host-allow: globs (`*`, `?`; ASCII case ignored) of the hosts a client's
    /// secret may name. None: a client's secret may name no host.
    std::vector<std::string> client_hosts;
    /// --client-host-allow-private: such a host may be, or resolve to, a loopback, private or
    /// link-local address (checked when connecting).
    bool client_private_addresses = false;
};

/// Adds credentials to a built request, as `toolkit.transmission` says, for the secrets that
/// `tool.secrets` lists: `header` (name: format with `{}` = secret), `basic` (Authorization:
/// Basic base64(secret + ":")), `query` (name=secret), `url` (fills the `{SECRET}` URL
/// placeholder; name `host` wants a host label, `base` an http(s) URL). A base-URL override
/// removes the placeholder and with it the need for that secret; a header credential is not
/// added when the caller supplied that header as an argument. Records secret header/query
/// names, the variables used and the values to redact.
/// When a needed secret is missing or unusable (a credential shorter than
/// common::min_masked_length included), returns a tool error naming the toolkit and the
/// variable (never its value or the host it holds) and leaves nothing to send.
/// `policy`: how far a host named by a `url` secret (DESK_SUBDOMAIN, VECTORDB_SERVER_URL) is
/// trusted; see url_secret_policy.
tool_result<void> authenticate(toolkit_spec const& toolkit, tool_spec const& tool,
    credential_source const& credentials, prepared_request& prepared,
    url_secret_policy const& policy = {});

} // namespace toolgate::toolkits
