#include "stream/proxy.hpp"
#include "stream/request.hpp"

#include <doctest/doctest.h>
#include <regex>

using namespace icheck::stream;

TEST_CASE("exec path: kubectl's query (command repeated, container, stdout/stderr) / stdin only "
          "with -i") {
  ExecTarget t{"dynamo", "worker-0", "main", {"sh", "-c", "nvidia-smi -L && echo a=b&c"}, false};
  CHECK(exec_path(t) ==
        "/api/v1/namespaces/dynamo/pods/worker-0/exec?command=sh&command=-c&"
        "command=nvidia-smi+-L+%26%26+echo+a%3Db%26c&container=main&stdout=true&stderr=true");
  t.stdin = true;
  t.container.clear();
  t.command = {"timeout", "60", "ucx_perftest"};
  CHECK(exec_path(t) == "/api/v1/namespaces/dynamo/pods/worker-0/exec?command=timeout&command=60&"
                        "command=ucx_perftest&stdin=true&stdout=true&stderr=true");
}

TEST_CASE("percent encoding keeps only RFC 3986 unreserved characters") {
  CHECK(percent_encode("aZ09-._~") == "aZ09-._~");
  CHECK(percent_encode("/ ?#%\n\xff") == "%2F%20%3F%23%25%0A%FF");
}

TEST_CASE("query values: a space is '+', a '+' is encoded, as Go's url.Values does") {
  CHECK(query_encode("sh -c 'a+b'  x") == "sh+-c+%27a%2Bb%27++x");
  CHECK(query_encode(" ") == "+");
  CHECK(query_encode("") == "");
}

TEST_CASE("namespace names: RFC 1123 labels only") {
  CHECK(is_namespace_name("dynamo"));
  CHECK(is_namespace_name("team-a1"));
  CHECK_FALSE(is_namespace_name(""));
  CHECK_FALSE(is_namespace_name("-a"));
  CHECK_FALSE(is_namespace_name("a.b"));
  CHECK_FALSE(is_namespace_name("A"));
  CHECK_FALSE(is_namespace_name("a|.*"));
  CHECK_FALSE(is_namespace_name(std::string(64, 'a')));
}

TEST_CASE("accept paths: exactly pods/exec, pods/log and events in the targets' namespaces / "
          "nothing for a bad name") {
  const auto re = exec_accept_paths({"dynamo", "team-b", "dynamo"});
  REQUIRE(re);
  CHECK(*re == "^/api/v1/namespaces/(dynamo|team-b)/(pods/[^/]+/(exec|log)|events)$");
  CHECK(re->find(',') == std::string::npos);  // kubectl splits its flag on commas
  const std::regex accept(*re);
  CHECK(std::regex_search("/api/v1/namespaces/dynamo/pods/w-0/exec", accept));
  CHECK(std::regex_search("/api/v1/namespaces/team-b/pods/w-1/exec", accept));
  CHECK(std::regex_search("/api/v1/namespaces/dynamo/pods/w-0/log", accept));
  CHECK(std::regex_search("/api/v1/namespaces/team-b/events", accept));
  for (const char* refused :
       {"/api/v1/namespaces/dynamo/pods", "/api/v1/namespaces/dynamo/pods/w-0",
        "/api/v1/namespaces/dynamo/pods/w-0/attach", "/api/v1/namespaces/kube-system/pods/x/exec",
        "/api/v1/namespaces/dynamox/pods/w-0/exec", "/api/v1/namespaces/dynamo/pods/a/b/exec",
        "/api/v1/namespaces/dynamo/secrets", "/x/api/v1/namespaces/dynamo/pods/w-0/exec",
        "/api/v1/namespaces/dynamo/pods/w-0/exec/more", "/api/v1/namespaces/dynamo/pods/w-0/logs",
        "/api/v1/namespaces/dynamo/pods/w-0/log/x", "/api/v1/namespaces/dynamo/events/e1",
        "/api/v1/namespaces/kube-system/events", "/api/v1/events",
        "/apis/events.k8s.io/v1/namespaces/dynamo/events", "/api/v1/namespaces/dynamo/secrets/log",
        "/api/v1/namespaces/dynamo/configmaps/x/log", "/api/v1/namespaces/dynamo/pods/w-0/proxy"}) {
    CAPTURE(refused);
    CHECK_FALSE(std::regex_search(refused, accept));
  }
  CHECK_FALSE(exec_accept_paths({}));
  CHECK_FALSE(exec_accept_paths({"dynamo", "a|.*"}));
}

TEST_CASE("proxy argv: Unix socket, our accept paths, attach rejected, GET only, localhost only") {
  const auto args =
      proxy_args("/tmp/icheck-proxy-x/sock", "^/api/v1/namespaces/(d)/pods/[^/]+/exec$");
  CHECK(args == std::vector<std::string>{"proxy", "--unix-socket=/tmp/icheck-proxy-x/sock",
                                         "--accept-paths=^/api/v1/namespaces/(d)/pods/[^/]+/exec$",
                                         "--reject-paths=^/api/.*/pods/.*/attach",
                                         "--reject-methods=^(|[^G].*|G|G[^E].*|GE|GE[^T].*|GET.+)$",
                                         "--accept-hosts=^localhost$"});
  for (const auto& a : args)
    CHECK(a.find("--port") == std::string::npos);  // nothing listens on TCP
}

TEST_CASE("log path: bounded, timestamped, never follow / previous only when asked") {
  LogQuery q{"dynamo", "w-0", "main", false, 2000, 1048576};
  CHECK(log_path(q) ==
        "/api/v1/namespaces/dynamo/pods/w-0/log?container=main&tailLines=2000&limitBytes=1048576"
        "&timestamps=true");
  q.previous = true;
  q.container = "a b";
  CHECK(log_path(q) == "/api/v1/namespaces/dynamo/pods/w-0/log?container=a%20b&previous=true"
                       "&tailLines=2000&limitBytes=1048576&timestamps=true");
  CHECK(log_path(q).find("follow") == std::string::npos);
}

TEST_CASE("events path: the pod's events by field selector, a bounded list") {
  CHECK(events_path("dynamo", "w-0", 200) ==
        "/api/v1/namespaces/dynamo/events?fieldSelector=involvedObject.name%3Dw-0&limit=200");
}
