#pragma once
// An in-memory Environment: files, directories and variables a test sets up explicitly.

#include "kube/environment.hpp"

#include <map>
#include <set>
#include <string>

namespace icheck::kube::test {

struct FakeEnvironment {
  std::map<std::string, std::string> files;
  std::set<std::string> directories;
  std::map<std::string, std::string> variables;

  Environment environment() const {
    Environment env;
    env.getenv = [vars = variables](std::string_view name) -> std::optional<std::string> {
      auto found = vars.find(std::string(name));
      if (found == vars.end())
        return std::nullopt;
      return found->second;
    };
    env.read_file = [files = files](const std::string& path) -> Expected<std::string> {
      auto found = files.find(path);
      if (found == files.end())
        return Error{"cannot be read (No such file or directory)"};
      return found->second;
    };
    env.exists = [files = files, dirs = directories](const std::string& path) {
      return files.count(path) != 0 || dirs.count(path) != 0;
    };
    env.is_directory = [dirs = directories](const std::string& path) {
      return dirs.count(path) != 0;
    };
    return env;
  }
};

} // namespace icheck::kube::test
