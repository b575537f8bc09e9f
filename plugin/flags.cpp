#include "flags.hpp"

#include "util/join.hpp"

namespace icheck::plugin {
namespace {

CLI::Validator one_of(const std::string& flag) {
  const auto& allowed = flag_choices().at(flag);
  return CLI::Validator(
      [allowed](std::string& value) -> std::string {
        for (const auto& a : allowed) {
          if (a == value) {
            return {};
          }
        }
        return "must be one of " + join(allowed, ", ");
      },
      "");
}

void add_kube_flags(CLI::App& app, kube::KubeFlags& k) {
  const std::string g = k_kube_group;
  app.add_option("--kubeconfig", k.kubeconfig, "Path to the kubeconfig file to use")->group(g);
  app.add_option("--context", k.context, "The name of the kubeconfig context to use")->group(g);
  app.add_option("--cluster", k.cluster, "The name of the kubeconfig cluster to use")->group(g);
  app.add_option("--user", k.user, "The name of the kubeconfig user to use")->group(g);
  app.add_option("-n,--namespace", k.namespace_,
                 "The namespace to look in (default: the context's namespace)")
      ->group(g);
  app.add_flag("-A,--all-namespaces", k.all_namespaces,
               "Look for worker pods in every namespace; -n is then ignored")
      ->group(g);
  app.add_option("--request-timeout", k.request_timeout,
                 "How long kubectl waits for one API request (passed to kubectl)")
      ->group(g);
  app.add_option("--as", k.as, "Username to impersonate")->group(g);
  app.add_option("--as-group", k.as_groups, "Group to impersonate; repeatable")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->group(g);
  app.add_option("--as-uid", k.as_uid, "UID to impersonate")->group(g);
  app.add_option("--token", k.token, "Bearer token for the API server (passed to kubectl)")
      ->group(g);
  app.add_option("-s,--server", k.server, "The address and port of the API server")->group(g);
  // A callback, not a bound optional<bool>: only a flag actually given may reach kubectl.
  app.add_flag_function(
         "--insecure-skip-tls-verify{true}",
         [&k](std::int64_t) { k.insecure_skip_tls_verify = true; },
         "Do not check the server's certificate (passed to kubectl)")
      ->group(g);
  app.add_option("--certificate-authority", k.certificate_authority,
                 "Path to a cert file for the certificate authority")
      ->group(g);
  app.add_option("--client-certificate", k.client_certificate,
                 "Path to a client certificate file for TLS")
      ->group(g);
  app.add_option("--client-key", k.client_key, "Path to a client key file for TLS")->group(g);
  app.add_option("--tls-server-name", k.tls_server_name,
                 "Server name for the server's certificate (passed to kubectl)")
      ->group(g);
  app.add_option("--cache-dir", k.cache_dir, "kubectl's cache directory")->group(g);
  app.add_option("-v,--v", k.verbosity, "kubectl's log level (passed to kubectl)")->group(g);
}

void add_target_flags(CLI::App& sub, check::TargetOptions& t) {
  sub.add_option("--pod", t.pods, "Probe this pod; repeatable")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  sub.add_option("-l,--selector", t.selector, "Probe the pods matching this label selector");
  sub.add_option("--deployment", t.deployment, "Probe the pods of this DynamoGraphDeployment");
  sub.add_option("--recipe", t.recipe,
                 "Probe the pods of the DynamoGraphDeployments a recipe folder defines");
  sub.add_flag("--local", t.local, "Probe this machine instead of a cluster");
  sub.add_flag("--all-components", t.all_components,
               "Also probe the frontend, planner and epp pods, not only the workers");
}

void add_run_flags(CLI::App& sub, CommandLine& line) {
  sub.add_option("-c,--container", line.options.targets.container,
                 "The container to probe in each pod")
      ->default_str("main");
  sub.add_option("--parallel", line.options.run.parallel, "How many pods are probed at once")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  sub.add_option("--timeout", line.timeout,
                 "How long one pod's probe may take, e.g. 30s, 2m, 500ms")
      ->capture_default_str();
  sub.add_option("--transport", line.transport,
                 "How the execs reach the pods: proxy (one kubectl proxy for the run, the "
                 "plugin's own exec streams over it) or kubectl (one kubectl exec per pod); "
                 "$DYNAMO_ICHECK_TRANSPORT when set")
      ->check(one_of("transport"))
      ->default_str("proxy");
}

void add_output_flags(CLI::App& sub, CommandLine& line) {
  sub.add_option("-o,--output", line.format, "Output format: table, wide, json or yaml")
      ->check(one_of("output"))
      ->capture_default_str();
  sub.add_option("--color", line.color,
                 "Colour the statuses: auto (a terminal, and NO_COLOR unset), always or never")
      ->check(one_of("color"))
      ->capture_default_str();
  sub.add_flag("--no-headers", line.no_headers,
               "Print only the data rows of the tables: no headings, no verdict block");
}

// nixl and all run the same opt-in transfer test.
void add_transfer_flags(CLI::App& sub, CommandLine& line) {
  auto& o = line.options;
  sub.add_flag("--transfer", o.transfer,
               "Run the pairwise KV transfer test between prefill and decode pods (loads the "
               "fabric for seconds)");
  sub.add_option("--pair", o.pair, "Test only this pair, as PREFILL_POD,DECODE_POD");
  sub.add_option("--pairs", o.pairs,
                 "Which pairs --transfer tests: cover (every node once) or all (every prefill "
                 "node with every decode node)")
      ->check(one_of("pairs"))
      ->capture_default_str();
  sub.add_option("--test-tool", o.test_tool,
                 "Tool for --transfer: auto (the workers' own NIXL Python API first), "
                 "nixl-python, nixlbench, ucx_perftest or nixl_test")
      ->check(one_of("test-tool"))
      ->capture_default_str();
  sub.add_option("--test-image", o.test_image,
                 "Image with nixlbench or ucx_perftest, for the kubectl debug commands printed "
                 "when the pods' own image has neither");
  sub.add_option("--transfer-timeout", line.transfer_timeout,
                 "How long each side of one transfer test may take")
      ->capture_default_str();
  sub.add_option("--matrix", o.matrix,
                 "With --transfer: rails runs one transfer per (prefill NIC, decode NIC) of the "
                 "tested pair, each pinned to its two NICs (UCX_NET_DEVICES); nodes one per "
                 "(prefill node, decode node) pair; full both: the node pairs, then the first "
                 "pair's NICs in what is left of --matrix-budget (not every pair's NICs: that "
                 "grows as nodes^2 x NICs^2)")
      ->check(one_of("matrix"));
  sub.add_option("--matrix-budget", line.matrix_budget,
                 "How long all of --matrix's transfers together may take; cells left are skipped")
      ->capture_default_str();
}

void add_probe_command(CLI::App& sub, CommandLine& line) {
  add_target_flags(sub, line.options.targets);
  add_run_flags(sub, line);
  add_output_flags(sub, line);
}

}  // namespace

const std::map<std::string, std::vector<std::string>>& flag_choices() {
  static const std::map<std::string, std::vector<std::string>> choices = {
      {"output", {"table", "wide", "json", "yaml"}},
      {"color", {"auto", "always", "never"}},
      {"pairs", {"cover", "all"}},
      {"matrix", {"rails", "nodes", "full"}},
      {"test-tool", {"auto", "nixl-python", "nixlbench", "ucx_perftest", "nixl_test"}},
      {"transport", {"proxy", "kubectl"}},
  };
  return choices;
}

void add_commands(CLI::App& app, CommandLine& line) {
  auto& o = line.options;
  add_kube_flags(app, o.kube);
  auto* env =
      app.add_subcommand("env", "Transport settings in a recipe (and, --live, in the pods)");
  env->add_option("PATH", o.path, "Recipe folder or one manifest file")->required();
  env->add_flag("--recursive", o.recursive, "Also read the variant folders below PATH");
  env->add_flag("--live", o.live, "Compare with the environment of the running pods");
  add_run_flags(*env, line);
  add_output_flags(*env, line);
  auto* node = app.add_subcommand("node", "RDMA, GPUDirect, NVLink and UCX inside each worker pod");
  add_probe_command(*node, line);
  auto* nixl =
      app.add_subcommand("nixl", "NIXL install, plugins and test tools in each worker pod");
  add_probe_command(*nixl, line);
  add_transfer_flags(*nixl, line);
  auto* all = app.add_subcommand("all", "env + node + nixl on the deployment made from a recipe");
  all->add_option("RECIPE_DIR", o.path, "Recipe folder")->required();
  add_probe_command(*all, line);
  add_transfer_flags(*all, line);
  auto* logs =
      app.add_subcommand("logs", "Saved worker logs and events against the known log signatures");
  logs->add_option("PATH", o.path, "A saved log or events file, a folder of them, or - (stdin)")
      ->required();
  add_output_flags(*logs, line);
  app.add_subcommand("version", "Print the version, commit and the libraries it was built with");
  app.add_subcommand("options", "Print the Kubernetes options every command accepts");
}

std::string positional_name(const CLI::App& command) {
  const auto positionals =
      command.get_options([](const CLI::Option* o) { return o->get_positional(); });
  return positionals.empty() ? "" : positionals.front()->get_name();
}

}  // namespace icheck::plugin
