#include "recipe/model.hpp"

#include "outside/mask.hpp"

namespace icheck::recipe {

std::string shown(const EnvVar& var) {
  return var.is_reference ? "from " + var.value : outside::shown_value(var.name, var.value);
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
