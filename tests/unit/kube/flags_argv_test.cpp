#include "fake_environment.hpp"
#include "kube/kubectl_argv.hpp"

#include <doctest/doctest.h>

using namespace icheck::kube;
using Argv = std::vector<std::string>;

TEST_CASE("-n=foo and friends are split - -nfoo / --namespace=foo and args after -- are kept") {
  CHECK(normalize_kubectl_argv({"node", "-n=foo", "-l=app=x", "-c=side", "-o=json", "-v=6"}) ==
        Argv{"node", "-n", "foo", "-l", "app=x", "-c", "side", "-o", "json", "-v", "6"});
  CHECK(normalize_kubectl_argv({"-nfoo", "--namespace=foo", "-A"}) ==
        Argv{"-nfoo", "--namespace=foo", "-A"});
  CHECK(normalize_kubectl_argv({"-s=https://h:6443"}) == Argv{"-s", "https://h:6443"});
  CHECK(normalize_kubectl_argv({"-n=a", "--", "-n=b"}) == Argv{"-n", "a", "--", "-n=b"});
  CHECK(normalize_kubectl_argv({"-x=1", "-n="}) == Argv{"-x=1", "-n", ""});
}

TEST_CASE("namespace validation words") {
  CHECK_FALSE(namespace_error("dynamo").has_value());
  CHECK(*namespace_error("ns/x") == "error: invalid namespace \"ns/x\": [may not contain '/']");
  CHECK(*namespace_error("a%b") == "error: invalid namespace \"a%b\": [may not contain '%']");
  CHECK(*namespace_error("..") == "error: invalid namespace \"..\": [may not be '..']");
}

TEST_CASE("kubectl program: DYNAMO_ICHECK_KUBECTL / else kubectl") {
  test::FakeEnvironment fake;
  CHECK(kubectl_program(fake.environment()) == "kubectl");
  fake.variables["DYNAMO_ICHECK_KUBECTL"] = "/usr/lib/google-cloud-sdk/bin/kubectl.1.31";
  CHECK(kubectl_program(fake.environment()) == "/usr/lib/google-cloud-sdk/bin/kubectl.1.31");
}

TEST_CASE("base argv: user's kubeconfig / resolved context / then every global flag given") {
  KubeFlags flags;
  flags.kubeconfig = "rel/kc.yaml";
  flags.request_timeout = "5s";
  flags.as = "alice";
  flags.as_groups = {"g1", "g2"};
  flags.token = "t0k";
  flags.server = "https://h:6443";
  flags.insecure_skip_tls_verify = true;
  flags.cluster = "c2";
  flags.user = "u1";
  flags.verbosity = "6";
  flags.cache_dir = "/tmp/c";
  ResolvedKube resolved;
  resolved.context = "ctx-a";
  CHECK(kubectl_base_argv("kubectl", flags, resolved) ==
        Argv{"kubectl", "--kubeconfig=rel/kc.yaml", "--context=ctx-a", "--cluster=c2", "--user=u1",
             "--request-timeout=5s", "--as=alice", "--as-group=g1", "--as-group=g2", "--token=t0k",
             "--server=https://h:6443", "--insecure-skip-tls-verify=true", "--cache-dir=/tmp/c",
             "--v=6"});
  CHECK(kubectl_base_argv("k", KubeFlags{}, ResolvedKube{}) == Argv{"k"});
}

TEST_CASE("get pods argv: namespace or -A / optional selector") {
  const Argv base{"kubectl", "--context=c"};
  CHECK(get_pods_argv(base, "dyn", false, "nvidia.com/dynamo-graph-deployment-name=llm") ==
        Argv{"kubectl", "--context=c", "get", "pods", "-o", "json", "-n", "dyn", "-l",
             "nvidia.com/dynamo-graph-deployment-name=llm"});
  CHECK(get_pods_argv(base, "dyn", true, "") ==
        Argv{"kubectl", "--context=c", "get", "pods", "-o", "json", "-A"});
  CHECK(get_named_pods_argv(base, "dyn", {"p-0", "p-1"}) ==
        Argv{"kubectl", "--context=c", "get", "pods", "p-0", "p-1", "-o", "json", "-n", "dyn"});
}

TEST_CASE("exec argv: one sh -c per pod in the chosen container") {
  CHECK(exec_argv({"kubectl"}, "dyn", "w-0", "main", "uname -r") ==
        Argv{"kubectl", "exec", "w-0", "-n", "dyn", "-c", "main", "--", "sh", "-c", "uname -r"});
}

TEST_CASE("logs and events argv: bounded, never --follow / the pod's events by field selector") {
  CHECK(logs_argv({"kubectl"}, "dyn", "w-0", "main", false, 2000, 1048576) ==
        Argv{"kubectl", "logs", "w-0", "-n", "dyn", "-c", "main", "--tail=2000",
             "--limit-bytes=1048576", "--timestamps"});
  CHECK(logs_argv({"kubectl"}, "dyn", "w-0", "main", true, 10, 20).back() == "--previous");
  CHECK(events_argv({"kubectl"}, "dyn", "w-0") == Argv{"kubectl", "get", "events", "-n", "dyn",
                                                       "--field-selector",
                                                       "involvedObject.name=w-0", "-o", "json"});
}

TEST_CASE(
    "parse_exec_argv: exec_argv's and the transfer plans' shapes / anything else is not ours") {
  const Argv base{"kubectl", "--context=fake", "--token=t"};
  const auto probe = parse_exec_argv(exec_argv(base, "dynamo", "w-0", "main", "echo hi"), base);
  REQUIRE(probe);
  CHECK(probe->namespace_ == "dynamo");
  CHECK(probe->pod == "w-0");
  CHECK(probe->container == "main");
  CHECK_FALSE(probe->stdin);
  CHECK(probe->command == Argv{"sh", "-c", "echo hi"});
  Argv tied = base;
  tied.insert(tied.end(), {"exec", "w-1", "-n", "d", "-i", "--", "timeout", "60", "sh", "-c", "x"});
  const auto transfer = parse_exec_argv(tied, base);
  REQUIRE(transfer);
  CHECK(transfer->stdin);
  CHECK(transfer->container.empty());
  CHECK(transfer->command == Argv{"timeout", "60", "sh", "-c", "x"});
  auto other = tied;
  other[3] = "debug";
  CHECK_FALSE(parse_exec_argv(other, base));  // kubectl debug: not an exec
  other = tied;
  other.insert(other.begin() + 7, "--quiet");
  CHECK_FALSE(parse_exec_argv(other, base));                               // a flag we do not know
  CHECK_FALSE(parse_exec_argv(tied, Argv{"kubectl", "--context=other"}));  // not this run's base
  Argv no_ns = base;
  no_ns.insert(no_ns.end(), {"exec", "w-1", "--", "true"});
  CHECK_FALSE(parse_exec_argv(no_ns, base));
  Argv no_command = base;
  no_command.insert(no_command.end(), {"exec", "w-1", "-n", "d", "--"});
  CHECK_FALSE(parse_exec_argv(no_command, base));
}
