#pragma once
// A service's role: its recipe fields as evidence for dynamo::read_role, the one rule
// that also decides a running pod's role.

#include "dynamo/role.hpp"
#include "recipe/model.hpp"

namespace icheck::recipe {

// componentType or v1beta1 type, subComponentType, the service's name, the main container's
// command + args and literal env; the role with what decided it.
dynamo::RoleReading read_role(const Service& service);

} // namespace icheck::recipe
