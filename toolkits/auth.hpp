// Authentication per toolkit: which secrets a tool needs and how each reaches its platform
// (header, Bearer token, HTTP Basic, query parameter, or part of the base URL). Secrets come
// from a credential_source, never from tool arguments.
#pragma once

#include "toolkits/credentials.hpp"
#include "toolkits/request_builder.hpp"
#include "toolkits/tool_error.hpp"
#include "toolkits/tool_spec.hpp"

namespace toolgate::toolkits {

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
/// `allow_insecure_http`: accept an `http://` URL in a `base` secret (VECTORDB_SERVER_URL)
/// whose host is not loopback (--allow-insecure-upstream); refused otherwise, because the
/// credentials would cross the network in clear.
tool_result<void> authenticate(toolkit_spec const& toolkit, tool_spec const& tool,
    credential_source const& credentials, prepared_request& prepared,
    bool allow_insecure_http = false);

} // namespace toolgate::toolkits
