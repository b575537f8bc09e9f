// The transport alone: `true` in every pod over one kubectl proxy (stream/), the counterpart of
// a bare `kubectl exec POD -- true` fan-out. bench/e2e_fanout.py runs it on the e2e bed.
//
//   bench_stream_fanout KUBECTL PARALLEL NAMESPACE POD...   (KUBECONFIG etc. from the environment)
#include "exec/fanout.hpp"
#include "stream/proxy.hpp"
#include "stream/ws_exec.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: %s KUBECTL PARALLEL NAMESPACE POD...\n", argv[0]);
    return 2;
  }
  const std::string ns = argv[3];
  const std::vector<std::string> pods(argv + 4, argv + argc);
  auto proxy = icheck::stream::Proxy::start({{argv[1]}, {ns}});
  if (!proxy) {
    std::fprintf(stderr, "proxy: %s\n", proxy.error().message.c_str());
    return 1;
  }
  std::atomic<int> failed{0};
  icheck::exec::FanoutOptions fan;
  fan.parallel = static_cast<std::size_t>(std::atoi(argv[2]));
  icheck::exec::parallel_for(pods.size(), fan, [&](std::size_t i) {
    const auto r =
        icheck::stream::ws_exec((*proxy)->socket_path(), {ns, pods[i], "main", {"true"}}, {});
    if (r.refused || !r.result.ok())
      ++failed;
  });
  std::printf("%zu execs, %d failed\n", pods.size(), failed.load());
  return failed == 0 ? 0 : 1;
}
