#include "recipe/model.hpp"

namespace icheck::recipe {

const EnvVar* find_env(const Service& service, std::string_view name) {
  for (const auto& var : service.env) {
    if (var.name == name) {
      return &var;
    }
  }
  return nullptr;
}

}  // namespace icheck::recipe
