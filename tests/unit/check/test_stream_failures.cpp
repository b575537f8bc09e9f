// What the proxy transport leaves behind is read by the same classifier as kubectl's stderr:
// each failure kind comes out the same on both transports. Status bodies: synthetic, following
// the apiserver's exec admission answers and the kubelet's status channel
// (shared/reference/kubectl.md §3.2, tests/e2e/fakeapi/server.py).
#include "kube/exec_failure.hpp"
#include "stream/status.hpp"

#include <doctest/doctest.h>

using icheck::kube::ExecFailureKind;

namespace {

const icheck::kube::ExecTarget k_target{"w-0", "dynamo", "main", "kubectl",
                                        std::chrono::seconds(30)};

ExecFailureKind kind_of(int exit_code, const std::string& err, bool stdout_empty = true) {
  icheck::kube::ExecOutcome o;
  o.exit_code = exit_code;
  o.stderr_text = err;
  o.stdout_empty = stdout_empty;
  return icheck::kube::classify_exec_failure(o, k_target).kind;
}

ExecFailureKind declined_kind(int http, const std::string& body) {
  const auto d = icheck::stream::declined(http, body);
  REQUIRE(d.final);
  return kind_of(1, d.line + "\n");
}

ExecFailureKind status_kind(const std::string& status, const std::string& out_err = "") {
  const auto end = icheck::stream::status_end(status);
  return kind_of(end.exit_code, out_err + end.stderr_note);
}

}  // namespace

TEST_CASE("proxy transport: refused upgrades classify as kubectl's errors do") {
  CHECK(
      declined_kind(
          403,
          R"j({"kind":"Status","status":"Failure","message":"pods \"w-0\" is forbidden: User \"u\" cannot create resource \"pods/exec\" in API group \"\" in the namespace \"dynamo\"","reason":"Forbidden","code":403})j") ==
      ExecFailureKind::forbidden);
  CHECK(
      declined_kind(
          404,
          R"j({"kind":"Status","status":"Failure","message":"pods \"w-0\" not found","reason":"NotFound","code":404})j") ==
      ExecFailureKind::pod_gone);
  CHECK(
      declined_kind(
          400,
          R"j({"kind":"Status","status":"Failure","message":"container side is not valid for pod w-0","reason":"BadRequest","code":400})j") ==
      ExecFailureKind::container_not_found);
  CHECK(
      declined_kind(
          500,
          R"j({"kind":"Status","status":"Failure","message":"container not found (\"main\")","reason":"InternalError","code":500})j") ==
      ExecFailureKind::container_not_found);
  CHECK(
      declined_kind(
          401,
          R"j({"kind":"Status","status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401})j") ==
      ExecFailureKind::unauthorized);
}

TEST_CASE("proxy transport: the status channel classifies as kubectl's stderr does") {
  CHECK(status_kind(R"j({"status":"Success"})j") == ExecFailureKind::none);
  CHECK(
      status_kind(
          R"j({"status":"Failure","reason":"NonZeroExitCode","details":{"causes":[{"reason":"ExitCode","message":"3"}]}})j",
          "sh: probe broke\n") == ExecFailureKind::command_failed);
  CHECK(
      status_kind(
          R"j({"kind":"Status","status":"Failure","message":"Internal error occurred: error executing command in container: failed to exec in container: failed to start exec \"c0\": OCI runtime exec failed: exec failed: unable to start container process: exec: \"sh\": executable file not found in $PATH: unknown","reason":"InternalError","code":500})j") ==
      ExecFailureKind::no_shell);
  CHECK(
      status_kind(
          R"j({"status":"Failure","reason":"NonZeroExitCode","details":{"causes":[{"reason":"ExitCode","message":"127"}]}})j") ==
      ExecFailureKind::no_shell);  // `sh -c` that never started: nothing on stdout
}
