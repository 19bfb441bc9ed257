// Helpers for the platform-credential tests: a private temporary directory and files with a
// given mode.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace toolgate::testing {

/// A fresh directory under the system's temporary directory, removed with everything in it.
class temp_dir {
public:
    temp_dir()
    {
        auto pattern = (std::filesystem::temp_directory_path() / "toolgate-cred-XXXXXX").string();
        if (::mkdtemp(pattern.data()) == nullptr) {
            throw std::runtime_error("mkdtemp failed");
        }
        path_ = pattern;
    }
    ~temp_dir()
    {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    temp_dir(temp_dir const&) = delete;
    temp_dir& operator=(temp_dir const&) = delete;

    std::string file(std::string const& name) const { return path_ + "/" + name; }
    std::string const& path() const { return path_; }

private:
    std::string path_;
};

/// Writes `text` to `path` (replacing it) and sets its mode.
inline void write_file(std::string const& path, std::string const& text, mode_t mode = 0600)
{
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out << text;
    }
    ::chmod(path.c_str(), mode);
}

inline std::string read_file(std::string const& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

inline mode_t file_mode(std::string const& path)
{
    struct stat st { };
    ::stat(path.c_str(), &st);
    return st.st_mode & 07777;
}

} // namespace toolgate::testing
