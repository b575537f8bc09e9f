#include "fake_environment.hpp"
#include "kube/kubeconfig.hpp"

#include <doctest/doctest.h>

using namespace icheck::kube;
using icheck::kube::test::FakeEnvironment;

namespace {

// The two files of reference §1.2's observed table.
const char* kA = R"(apiVersion: v1
kind: Config
current-context: ctx-a
clusters:
- name: c1
  cluster: {server: "http://127.0.0.1:18081"}
- name: c2
  cluster: {server: "http://127.0.0.1:18082"}
contexts:
- name: ctx-a
  context: {cluster: c1, user: u1, namespace: ns-a}
- name: shared
  context: {cluster: c1, user: u1, namespace: from-a}
- name: nons
  context: {cluster: c2, user: u1}
users:
- name: u1
  user: {token: abc}
)";

const char* kB = R"(current-context: ctx-b
clusters:
- name: c1
  cluster: {server: "http://127.0.0.1:19999"}
contexts:
- name: ctx-b
  context: {cluster: c1, user: u2, namespace: ns-b}
- name: shared
  context: {cluster: c1, user: u2, namespace: from-b}
users:
- name: u2
  user: {token: def}
)";

const char* kNoCurrent = R"(contexts:
- name: other
  context: {cluster: c9, namespace: other-ns}
)";

FakeEnvironment two_files() {
  FakeEnvironment fake;
  fake.files["/k/a.yaml"] = kA;
  fake.files["/k/b.yaml"] = kB;
  fake.files["/k/nocur.yaml"] = kNoCurrent;
  fake.variables["HOME"] = "/home/u";
  return fake;
}

icheck::Expected<ResolvedKube> resolve(const FakeEnvironment& fake, const KubeFlags& flags = {}) {
  return resolve_kube(flags, fake.environment());
}

KubeFlags with_context(std::string context, std::optional<std::string> ns = std::nullopt) {
  KubeFlags flags;
  flags.context = std::move(context);
  flags.namespace_ = std::move(ns);
  return flags;
}

FakeEnvironment in_cluster(FakeEnvironment fake) {
  fake.variables["KUBERNETES_SERVICE_HOST"] = "10.0.0.1";
  fake.variables["KUBERNETES_SERVICE_PORT"] = "443";
  fake.files["/var/run/secrets/kubernetes.io/serviceaccount/token"] = "tok";
  fake.files["/var/run/secrets/kubernetes.io/serviceaccount/namespace"] = "sa-ns\n";
  return fake;
}

} // namespace

TEST_CASE("KUBECONFIG a:b: first file's current-context and first definition of each name") {
  auto fake = two_files();
  fake.variables["KUBECONFIG"] = "/k/a.yaml:/k/b.yaml";
  auto r = resolve(fake);
  REQUIRE(r.has_value());
  CHECK(r->context == "ctx-a");
  CHECK(r->namespace_ == "ns-a");
  CHECK(r->server == "http://127.0.0.1:18081");
  CHECK(r->files == std::vector<std::string>{"/k/a.yaml", "/k/b.yaml"});
  auto shared = resolve(fake, with_context("shared"));
  REQUIRE(shared.has_value());
  CHECK(shared->namespace_ == "from-a");
  CHECK(shared->user == "u1");
}

TEST_CASE("KUBECONFIG b:a: the order decides") {
  auto fake = two_files();
  fake.variables["KUBECONFIG"] = "/k/b.yaml:/k/a.yaml";
  auto r = resolve(fake);
  REQUIRE(r.has_value());
  CHECK(r->context == "ctx-b");
  CHECK(r->namespace_ == "ns-b");
  CHECK(r->server == "http://127.0.0.1:19999");
  auto shared = resolve(fake, with_context("shared"));
  REQUIRE(shared.has_value());
  CHECK(shared->namespace_ == "from-b");
  CHECK(shared->server == "http://127.0.0.1:19999");
}

TEST_CASE("a first file without current-context leaves it to the next file") {
  auto fake = two_files();
  fake.variables["KUBECONFIG"] = "/k/nocur.yaml:/k/a.yaml";
  auto r = resolve(fake);
  REQUIRE(r.has_value());
  CHECK(r->context == "ctx-a");
  CHECK(r->namespace_ == "ns-a");
}

TEST_CASE("missing / empty and duplicate KUBECONFIG entries are dropped") {
  auto fake = two_files();
  fake.variables["KUBECONFIG"] = "/nonexist.yaml::/k/a.yaml:/k/a.yaml";
  auto r = resolve(fake);
  REQUIRE(r.has_value());
  CHECK(r->context == "ctx-a");
  CHECK(r->files == std::vector<std::string>{"/k/a.yaml"});
}

TEST_CASE("without KUBECONFIG / $HOME/.kube/config - empty KUBECONFIG counts as unset") {
  auto fake = two_files();
  fake.files["/home/u/.kube/config"] = kB;
  fake.variables["KUBECONFIG"] = "";
  auto r = resolve(fake);
  REQUIRE(r.has_value());
  CHECK(r->context == "ctx-b");
  CHECK(r->files == std::vector<std::string>{"/home/u/.kube/config"});
}

TEST_CASE("--kubeconfig wins over KUBECONFIG and must exist") {
  auto fake = two_files();
  fake.variables["KUBECONFIG"] = "/k/a.yaml";
  KubeFlags flags;
  flags.kubeconfig = "/k/b.yaml";
  auto r = resolve(fake, flags);
  REQUIRE(r.has_value());
  CHECK(r->context == "ctx-b");
  flags.kubeconfig = "/nope.yaml";
  auto missing = resolve(fake, flags);
  REQUIRE_FALSE(missing.has_value());
  CHECK(missing.error().message == "error: stat /nope.yaml: no such file or directory");
}

TEST_CASE("--context picks another context - -n overrides its namespace") {
  auto fake = two_files();
  fake.variables["KUBECONFIG"] = "/k/a.yaml:/k/b.yaml";
  auto r = resolve(fake, with_context("ctx-b"));
  REQUIRE(r.has_value());
  CHECK(r->context == "ctx-b");
  CHECK(r->cluster == "c1");
  CHECK(r->user == "u2");
  CHECK(r->namespace_ == "ns-b");
  auto ns = resolve(fake, with_context("ctx-b", "flagns"));
  REQUIRE(ns.has_value());
  CHECK(ns->namespace_ == "flagns");
}

TEST_CASE("-n with an empty value is not set - a context without namespace gives default") {
  auto fake = two_files();
  fake.variables["KUBECONFIG"] = "/k/a.yaml";
  KubeFlags flags;
  flags.namespace_ = "";
  CHECK(resolve(fake, flags)->namespace_ == "ns-a");
  CHECK(resolve(fake, with_context("nons"))->namespace_ == "default");
}

TEST_CASE("a namespace with '/' is refused as kubectl does") {
  auto fake = two_files();
  KubeFlags flags;
  flags.namespace_ = "ns/flagns2";
  auto r = resolve(fake, flags);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().message == "error: invalid namespace \"ns/flagns2\": [may not contain '/']");
}

TEST_CASE("missing context: kubectl's words depend on -n") {
  auto fake = two_files();
  fake.variables["KUBECONFIG"] = "/k/a.yaml";
  auto plain = resolve(fake, with_context("missing"));
  REQUIRE_FALSE(plain.has_value());
  CHECK(plain.error().message ==
        "Error in configuration: context was not found for specified context: missing");
  auto with_ns = resolve(fake, with_context("missing", "foo"));
  REQUIRE_FALSE(with_ns.has_value());
  CHECK(with_ns.error().message == "error: context \"missing\" does not exist");
}

TEST_CASE("current-context naming a missing context fails with or without -n") {
  FakeEnvironment fake;
  fake.files["/k/ghost.yaml"] = "current-context: ghost\n";
  fake.variables["KUBECONFIG"] = "/k/ghost.yaml";
  const auto expected =
      "Error in configuration: context was not found for specified context: ghost";
  CHECK(resolve(fake).error().message == expected);
  KubeFlags flags;
  flags.namespace_ = "foo";
  CHECK(resolve(fake, flags).error().message == expected);
}

TEST_CASE("--cluster and --user override the context and must exist") {
  auto fake = two_files();
  fake.variables["KUBECONFIG"] = "/k/a.yaml";
  KubeFlags flags;
  flags.cluster = "c2";
  auto r = resolve(fake, flags);
  REQUIRE(r.has_value());
  CHECK(r->cluster == "c2");
  CHECK(r->server == "http://127.0.0.1:18082");
  flags.cluster = "nope";
  CHECK(resolve(fake, flags).error().message == "error: no server found for cluster \"nope\"");
  KubeFlags user;
  user.user = "nope";
  CHECK(resolve(fake, user).error().message == "error: auth info \"nope\" does not exist");
}

TEST_CASE("a name twice in one file is a load error") {
  FakeEnvironment fake;
  fake.files["/k/dup.yaml"] = R"(clusters:
- name: kubeconfig-cluster
  cluster: {server: "http://a"}
- name: kubeconfig-cluster
  cluster: {server: "http://b"}
)";
  fake.variables["KUBECONFIG"] = "/k/dup.yaml";
  CHECK(resolve(fake).error().message ==
        "error: error loading config file \"/k/dup.yaml\": error converting *[]NamedCluster into "
        "*map[string]*api.Cluster: duplicate name \"kubeconfig-cluster\" in list");
}

TEST_CASE("no kubeconfig at all: no context / default namespace / localhost:8080") {
  FakeEnvironment fake;
  fake.variables["HOME"] = "/home/u";
  auto r = resolve(fake);
  REQUIRE(r.has_value());
  CHECK(r->context == "");
  CHECK(r->namespace_ == "default");
  CHECK(r->server == "http://localhost:8080");
  CHECK(r->files.empty());
}

TEST_CASE("in-cluster: POD_NAMESPACE / then the service-account file") {
  auto fake = in_cluster(FakeEnvironment{});
  fake.variables["POD_NAMESPACE"] = "podns";
  auto r = resolve(fake);
  REQUIRE(r.has_value());
  CHECK(r->namespace_ == "podns");
  CHECK(r->server == "https://10.0.0.1:443");
  fake.variables.erase("POD_NAMESPACE");
  CHECK(resolve(fake)->namespace_ == "sa-ns");
}

TEST_CASE("in-cluster never beats -n or a namespace the context sets / even default") {
  auto fake = in_cluster(two_files());
  fake.variables["POD_NAMESPACE"] = "podns";
  fake.variables["KUBECONFIG"] = "/k/a.yaml";
  CHECK(resolve(fake)->namespace_ == "ns-a");
  CHECK(resolve(fake, with_context("nons"))->namespace_ == "podns");
  fake.files["/k/explicit.yaml"] =
      "current-context: d\ncontexts:\n- name: d\n  context: {namespace: default}\n";
  fake.variables["KUBECONFIG"] = "/k/explicit.yaml";
  CHECK(resolve(fake)->namespace_ == "default");
  KubeFlags flags;
  flags.namespace_ = "flagns";
  CHECK(resolve(fake, flags)->namespace_ == "flagns");
}

TEST_CASE("in-cluster not possible: POD_NAMESPACE is ignored") {
  auto fake = two_files();
  fake.variables["KUBECONFIG"] = "/k/a.yaml";
  fake.variables["POD_NAMESPACE"] = "podns";
  CHECK(resolve(fake, with_context("nons"))->namespace_ == "default");
  auto no_token = in_cluster(fake);
  no_token.files.erase("/var/run/secrets/kubernetes.io/serviceaccount/token");
  no_token.directories.insert("/var/run/secrets/kubernetes.io/serviceaccount/token");
  CHECK(resolve(no_token, with_context("nons"))->namespace_ == "default");
  auto no_port = in_cluster(fake);
  no_port.variables["KUBERNETES_SERVICE_PORT"] = "";
  CHECK(resolve(no_port, with_context("nons"))->namespace_ == "default");
}
