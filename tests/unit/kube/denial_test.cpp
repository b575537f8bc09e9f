// API server messages scanned by hand (kube/denial.hpp): the RBAC denial's parts, a word after a
// lead, a token between two texts; 50 KB of outside text in linear time (issue 38).
#include "kube/denial.hpp"
#include "kube/exec_failure.hpp"

#include <doctest/doctest.h>

using namespace icheck::kube;

TEST_CASE("denial: user, verb and resource of the API server's RBAC message") {
  const std::string message =
      "pods \"w-0\" is forbidden: User \"system:serviceaccount:dynamo:icheck-viewer\" cannot get "
      "resource \"pods/log\" in API group \"\" in the namespace \"dynamo\"";
  const auto d = denial(message);
  CHECK(d.user == "system:serviceaccount:dynamo:icheck-viewer");
  CHECK(d.verb == "get");
  CHECK(d.resource == "pods/log");
  CHECK(denial(message, "pods/exec").verb.empty());  // another resource: no verb for it
  CHECK(denial(message, "pods/log").verb == "get");
  // the first `cannot W resource "R"` that reads so, after one that does not
  const auto second = denial("x cannot (really) resource; cannot list resource \"events\"");
  CHECK(second.verb == "list");
  CHECK(second.resource == "events");
  CHECK(denial("User \"unclosed cannot get resource \"pods").user ==
        "unclosed cannot get resource ");
  CHECK(denial("cannot get resource \"\" then").verb.empty());
  CHECK(denial("").user.empty());
}

TEST_CASE("word_after and token_between take the first lead that has one") {
  CHECK(word_after("phase is ; current phase is ; current phase is Succeeded.",
                   "current phase is ") == "Succeeded");
  CHECK(word_after("current phase is ", "current phase is ").empty());
  CHECK(token_between("The connection to the server localhost:8080 was refused - did you",
                      "The connection to the server ", " was refused") == "localhost:8080");
  CHECK(token_between("The connection to the server a b was refused",
                      "The connection to the server ", " was refused")
            .empty());
}

TEST_CASE("denial: 50 KB of `User \"` and `cannot ` runs are read in linear time, right") {
  // A 403 whose message held `User "` and 50 KB crashed std::regex's recursion.
  const std::string big(50'000, 'u');
  CHECK(denial("User \"" + big + "\" cannot get resource \"pods/exec\"").user == big);
  CHECK(denial("User \"" + big).user.empty());
  std::string cannots;
  while (cannots.size() < 50'000)
    cannots += "cannot cannot resource ";
  CHECK(denial(cannots).verb.empty());
  ExecOutcome o;
  o.exit_code = 1;
  o.stderr_text = "Error from server (Forbidden): pods \"x\" is forbidden: User \"" + big +
                  "\" cannot create resource \"pods/exec\" in API group \"\"\n";
  const auto failure = classify_exec_failure(
      o, {"llm-decode-0", "dynamo", "main", "kubectl", std::chrono::seconds(30)});
  CHECK(failure.kind == ExecFailureKind::forbidden);
  CHECK(failure.next_step == "kubectl auth can-i create pods/exec -n dynamo");
}
