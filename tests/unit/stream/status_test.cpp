// Status bodies: synthetic, following the metav1.Status the kubelet's ServeExec writes on the
// status channel and the apiserver's exec admission answers (shared/reference/kubectl.md §3.2,
// tests/e2e/fakeapi/server.py), and kubectl proxy's plain-text filter answer.
#include "stream/status.hpp"

#include <doctest/doctest.h>

using namespace icheck::stream;

TEST_CASE("status channel: success / empty / NonZeroExitCode / other failures, as kubectl ends") {
  CHECK(status_end(R"({"metadata":{},"status":"Success"})").exit_code == 0);
  CHECK(status_end(R"({"metadata":{},"status":"Success"})").stderr_note.empty());
  CHECK(status_end("").exit_code == 0);  // no status and a normal close: kubectl exits 0
  const auto rc42 = status_end(
      R"({"metadata":{},"status":"Failure","message":"command terminated with non-zero exit code: error executing command [sh -c exit 42], exit code 42","reason":"NonZeroExitCode","details":{"causes":[{"reason":"ExitCode","message":"42"}]}})");
  CHECK(rc42.exit_code == 42);
  CHECK(rc42.stderr_note == "command terminated with exit code 42\n");
  const auto internal = status_end(
      R"({"kind":"Status","status":"Failure","message":"Internal error occurred: error executing command in container: failed to exec in container: OCI runtime exec failed: exec failed: unable to start container process: exec: \"sh\": executable file not found in $PATH: unknown","reason":"InternalError","code":500})");
  CHECK(internal.exit_code == 1);
  CHECK(internal.stderr_note.rfind("error: Internal error occurred: error executing command", 0) ==
        0);
}

TEST_CASE("status channel: an exit code that is not a uint8 / garbage is never success") {
  const auto big = status_end(
      R"({"status":"Failure","message":"m","reason":"NonZeroExitCode","details":{"causes":[{"reason":"ExitCode","message":"256"}]}})");
  CHECK(big.exit_code == 1);
  CHECK(big.stderr_note == "error: m\n");
  CHECK(status_end("{not json").exit_code == 1);
  CHECK(status_end("[1]").exit_code == 1);
}

TEST_CASE(
    "declined upgrade: the API server's answers for the pod are final, as kubectl words them") {
  const auto forbidden = declined(
      403,
      R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \"w-0\" is forbidden: User \"system:serviceaccount:dynamo:icheck-viewer\" cannot create resource \"pods/exec\" in API group \"\" in the namespace \"dynamo\"","reason":"Forbidden","code":403})");
  CHECK(forbidden.final);
  CHECK(
      forbidden.line ==
      "Error from server (Forbidden): pods \"w-0\" is forbidden: User "
      "\"system:serviceaccount:dynamo:icheck-viewer\" cannot create resource \"pods/exec\" in API "
      "group \"\" in the namespace \"dynamo\"");
  const auto gone = declined(
      404,
      R"({"kind":"Status","status":"Failure","message":"pods \"w-9\" not found","reason":"NotFound","code":404})");
  CHECK(gone.final);
  CHECK(gone.line == "Error from server (NotFound): pods \"w-9\" not found");
  const auto container = declined(
      400,
      R"({"kind":"Status","status":"Failure","message":"container side is not valid for pod w-0","reason":"BadRequest","code":400})");
  CHECK(container.final);
  CHECK(container.line ==
        "Error from server (BadRequest): container side is not valid for pod w-0");
}

TEST_CASE(
    "declined upgrade: the transport refused (filter, no WebSocket, get verb) -> use kubectl") {
  const auto filter = declined(403, "Forbidden\n");  // kubectl proxy's http.Error
  CHECK_FALSE(filter.final);
  CHECK(filter.line == "HTTP 403: Forbidden");
  const auto no_ws = declined(
      400,
      R"({"kind":"Status","status":"Failure","message":"fakeapi: exec needs a WebSocket upgrade offering v5.channel.k8s.io","reason":"BadRequest","code":400})");
  CHECK_FALSE(no_ws.final);
  const auto get_verb = declined(
      403,
      R"({"kind":"Status","status":"Failure","message":"pods \"w-0\" is forbidden: User \"u\" cannot get resource \"pods/exec\" in API group \"\" in the namespace \"d\"","reason":"Forbidden","code":403})");
  CHECK_FALSE(get_verb.final);  // kubectl's SPDY POST asks create, which may be allowed
  CHECK_FALSE(declined(502, "Bad Gateway").final);
}
