// The default view's lines within the width; a runnable command is never cut and stands whole on
// its own line.
#include "report/fit_lines.hpp"

#include <doctest/doctest.h>

using namespace icheck::report;

TEST_CASE("a command inside prose: the prose before and after it, the command whole") {
  const auto s = split_command("resources.limits[\"rdma/ib\"]: 1 (the rdma/* resource: kubectl "
                               "get node n -o jsonpath='{.status.allocatable}')");
  CHECK(s.before == "resources.limits[\"rdma/ib\"]: 1 (the rdma/* resource: ");
  CHECK(s.command == "kubectl get node n -o jsonpath='{.status.allocatable}'");
  CHECK(s.after == ")");
  const auto c = split_command("kubectl exec p -- ucx_info -d; kubectl exec p -- ls  # why");
  CHECK(c.before.empty());
  CHECK(c.command == "kubectl exec p -- ucx_info -d; kubectl exec p -- ls");
  CHECK(c.after == "  # why");
  CHECK(split_command("set UCX_TLS=rc (or unset it)").command.empty());
  CHECK(split_command("see mykubectl x").command.empty());
  CHECK(split_command("/opt/bin/kubectl-logging --context=c exec p -- ls").command ==
        "/opt/bin/kubectl-logging --context=c exec p -- ls");  // kubectl by a path
  CHECK(split_command("run kubectl.1.31 get pods").command == "kubectl.1.31 get pods");
}

TEST_CASE("a labelled line that fits stays one line") {
  CHECK(labelled_lines("next", "kubectl get pods", 40) == "  next   kubectl get pods\n");
}

TEST_CASE("a command that does not fit goes whole under its prose") {
  CHECK(labelled_lines("limit", "no transfer was exercised: kubectl dynamo-icheck nixl --transfer",
                       40) == "  limit  no transfer was exercised:\n"
                              "         kubectl dynamo-icheck nixl --transfer\n");
  CHECK(labelled_lines("next", "kubectl exec pod-with-a-long-name -- nvidia-smi  # topology", 30) ==
        "  next   topology:\n"
        "         kubectl exec pod-with-a-long-name -- nvidia-smi\n");
  CHECK(labelled_lines("next", "kubectl exec pod-with-a-long-name -- nvidia-smi", 30) ==
        "  next   run:\n"
        "         kubectl exec pod-with-a-long-name -- nvidia-smi\n");
}

TEST_CASE("prose wraps at word boundaries under the label, a long word in pieces") {
  CHECK(labelled_lines("why", "aaa bbb ccc ddd", 16) == "  why    aaa bbb\n         ccc ddd\n");
  CHECK(wrap_words("x 0123456789abc", 10, "> ", "  ") == "> x\n  01234567\n  89abc\n");
  CHECK(wrap_words("ééé ééé", 6, "", "") == "ééé\nééé\n");  // code points, not bytes
}
