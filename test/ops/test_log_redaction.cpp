// Tool arguments that carry credentials are masked before they reach a log line.
#include "ops/log_redaction.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <catch2/catch.hpp>

using namespace toolgate::ops;
namespace json = boost::json;

TEST_CASE("secret-named arguments are masked at any depth, keywords are not", "[auth][logging]")
{
    for (auto name : { "password", "webhook_secret", "secret_key", "api_key", "apiKey", "X-Api-Key",
             "Authorization", "access_token", "signing_key", "client_credentials", "Cookie",
             "key" }) {
        INFO(name);
        CHECK(is_secret_name(name));
    }
    for (auto name : { "keyword", "keywords", "folder_id", "query", "name" }) {
        INFO(name);
        CHECK_FALSE(is_secret_name(name));
    }
    auto const args = json::parse(R"({
        "folder_id": "f1",
        "password": "hunter2-PLAIN",
        "nested": {"config": [{"http_secret_key": "sk-NESTED"}], "keyword": "kept"},
        "request_body": "{\"url\":\"https://x\",\"secret\":\"whsec-INBODY\"}"
    })")
                          .as_object();
    auto const text = redacted_arguments_text(args);
    CHECK_THAT(text, Catch::Contains("f1"));
    CHECK_THAT(text, Catch::Contains("kept"));
    CHECK_THAT(text, Catch::Contains("https://x"));
    CHECK_THAT(text,
        !Catch::Contains("PLAIN") && !Catch::Contains("NESTED") && !Catch::Contains("INBODY"));
    CHECK(redacted_arguments_text(json::parse(R"({"a":"0123456789"})").as_object(), 8).size() < 16);
}
