#include "outside/argv.hpp"

#include <doctest/doctest.h>

using icheck::outside::printable_argv;
using Argv = std::vector<std::string>;

TEST_CASE("printed commands keep context and namespace, drop every credential flag") {
  const Argv argv{"kubectl",
                  "--kubeconfig=/k",
                  "--context=prod",
                  "--token=eyJhbGci",
                  "--client-key=/home/u/.kube/u.key",
                  "--client-certificate=/home/u/u.crt",
                  "--certificate-authority=/ca.crt",
                  "--as=alice",
                  "exec",
                  "p",
                  "-n",
                  "dynamo"};
  CHECK(printable_argv(argv) == Argv{"kubectl", "--kubeconfig=/k", "--context=prod",
                                     "--certificate-authority=/ca.crt", "--as=alice", "exec", "p",
                                     "-n", "dynamo"});
}

TEST_CASE("a credential flag's separate value goes with it") {
  CHECK(printable_argv({"kubectl", "--token", "abc", "--password", "pw", "--username", "u",
                        "get"}) == Argv{"kubectl", "get"});
  CHECK(printable_argv({"kubectl", "--token"}) == Argv{"kubectl"});
}

TEST_CASE("words after -- are the remote command's and are kept") {
  CHECK(printable_argv({"kubectl", "exec", "p", "--", "tool", "--token=x"}) ==
        Argv{"kubectl", "exec", "p", "--", "tool", "--token=x"});
  CHECK(printable_argv({"kubectl", "--tokenish=1"}) == Argv{"kubectl", "--tokenish=1"});
}
