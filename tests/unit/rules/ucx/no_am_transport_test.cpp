// A pod whose UCX_TLS keeps only cuda_* transports has no active-message transport for NIXL's
// UCX wireup: "no active messages transport to <no debug data>: ... Destination is unreachable"
// (ai-dynamo/nixl #1413, UCX_TLS=cuda_ipc,cuda_copy on a GB200). Facts through the probe's own
// parser (test_node_fixture.hpp).
#include "../test_node_fixture.hpp"

#include <doctest/doctest.h>

using namespace icheck;
using namespace icheck::rules::test;
using report::Layer;
using report::Status;

TEST_CASE("UCX_TLS of cuda transports only fails at ucx: no active-message transport") {
  auto p = healthy_h100();
  for (const char* tls : {"cuda_ipc,cuda_copy", "cuda_copy", "cuda"}) {
    CAPTURE(tls);
    p.set("transport_env", std::string("UCX_TLS=") + tls + "\n");
    auto f = find(judge(p), "UCX_TLS");
    CHECK(f.status == Status::fail);
    CHECK(f.layer == Layer::ucx);
    CHECK(contains(f.detail, "has no active-message transport (rc, ud, dc, tcp, sm)"));
    CHECK(contains(f.detail, "ai-dynamo/nixl #1413"));
  }
  // Its healthy twin: the same with tcp (or sm) for the wireup.
  for (const char* tls : {"cuda_ipc,cuda_copy,tcp", "cuda_ipc,cuda_copy,sm,rc"}) {
    CAPTURE(tls);
    p.set("transport_env", std::string("UCX_TLS=") + tls + "\n");
    const auto found = judge(p);
    CHECK((!has(found, "UCX_TLS") || !contains(find(found, "UCX_TLS").detail, "active-message")));
  }
}
