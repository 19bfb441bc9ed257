// toml++'s compiled part: with TOML_HEADER_ONLY=0 its headers only declare, and the one file
// that defines TOML_IMPLEMENTATION compiles the parser (app/config_file.cpp and
// mcp/policy_file.cpp read the config file with it).
#define TOML_IMPLEMENTATION
#include <toml++/toml.h>
