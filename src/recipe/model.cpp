#include "recipe/model.hpp"

#include "report/redact.hpp"

#include <cctype>

namespace icheck::recipe {

std::string shown(const EnvVar& var) {
  return var.is_reference ? "from " + var.value : report::shown_value(var.name, var.value);
}

namespace {

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

}  // namespace

std::string expand_env_refs(std::string s, const std::map<std::string, std::string>& env) {
  for (const auto& [name, value] : env) {
    for (const auto& ref : {"$(" + name + ")", "${" + name + "}", "$" + name}) {
      const bool bare = ref[1] != '(' && ref[1] != '{';
      for (std::size_t at = 0; (at = s.find(ref, at)) != std::string::npos;) {
        auto end = at + ref.size();
        if (bare && end < s.size() && ident_char(s[end])) {
          at = end;  // $NAMEX is another variable
          continue;
        }
        s.replace(at, ref.size(), value);
        at += value.size();
      }
    }
  }
  return s;
}

std::map<std::string, std::string> literal_env(const Service& service) {
  std::map<std::string, std::string> env;
  for (const auto& var : service.env) {
    if (!var.is_reference) {
      env[var.name] = var.value;
    }
  }
  return env;
}

const EnvVar* find_env(const Service& service, std::string_view name) {
  for (const auto& var : service.env) {
    if (var.name == name) {
      return &var;
    }
  }
  return nullptr;
}

}  // namespace icheck::recipe
