#pragma once
// The smallest DynamoGraphDeployment the loader accepts, for tests about files, not content.

#include <string>

namespace icheck::test {

inline const std::string minimal_dgd = R"(apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata: {name: tiny}
spec:
  components:
    - {name: w, type: worker}
)";

}  // namespace icheck::test
