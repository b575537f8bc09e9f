#include "recipe/role.hpp"

namespace icheck::recipe {

dynamo::RoleReading read_role(const Service& service) {
  return dynamo::read_role({service.component_type, service.sub_component_type, service.name,
                            service.command_line, literal_env(service)});
}

} // namespace icheck::recipe
