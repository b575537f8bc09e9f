#include "help_pages.hpp"

#include <map>

namespace icheck::plugin {
namespace {

const std::string k = "kubectl dynamo-icheck ";
const std::string recipe = "recipes/llama-3-70b/vllm/disagg-multi-node";

const std::map<std::string, CommandPage>& pages() {
  static const std::map<std::string, CommandPage> all = {
      {"",
       {"Each check says ok, warn, fail or skipped with a one-line detail; one verdict names the "
        "first layer that blocks the fast transport and the pods where it does, with the next "
        "command to run. Read-only: it only gets and lists pods and runs read-only commands "
        "through kubectl exec.",
        {{"# Every worker pod of one deployment", k + "node --deployment llama-70b-disagg"},
         {"# NIXL in the same pods, then a real prefill-to-decode transfer",
          k + "nixl --deployment llama-70b-disagg --transfer"},
         {"# A recipe's transport settings, before deploying it", k + "env " + recipe}},
        "[command] [options]",
        true}},
      {"env",
       {"Reads the DynamoGraphDeployments of a recipe folder (or one manifest file) and judges "
        "their transport settings: UCX and NIXL variables, RDMA resources, IPC_LOCK, the KV "
        "backend flags of each worker. With --live, compares them with the environment of the "
        "running pods.",
        {{"# One recipe mode", k + "env " + recipe},
         {"# Every variant below a model's folder", k + "env recipes/llama-3-70b/vllm --recursive"},
         {"# The recipe against the pods made from it", k + "env " + recipe + " --live"}},
        "PATH [options]",
        true}},
      {"node",
       {"Runs one read-only script in each worker pod (one kubectl exec) and judges the fabric, "
        "RDMA access, GPUDirect RDMA, NVLink and UCX as the pod sees them. With no target flag, "
        "every Dynamo worker pod in the namespace.",
        {{"# Every worker pod of one deployment", k + "node --deployment llama-70b-disagg"},
         {"# Every namespace, one row per check, failures only", k + "node -A -o wide | grep fail"},
         {"# This machine, no cluster", k + "node --local"}},
        "[--pod NAME | -l SELECTOR | --deployment DGD | --recipe DIR | --local] [options]",
        true}},
      {"nixl",
       {"Finds the NIXL install in each worker pod: the library, its backend plugins, the UCX it "
        "loads and the test tools in the image, and prints the next command that settles what it "
        "could not. It also reads each worker's own KV-transfer metrics twice, from inside the "
        "pod: "
        "failures that grew, KV that never reaches a decode worker, traffic at line rate. "
        "--transfer moves real data from prefill to decode pods through the pods' own NIXL.",
        {{"# NIXL in every worker pod of one deployment", k + "nixl --deployment llama-70b-disagg"},
         {"# And a transfer between each prefill and decode node",
          k + "nixl --deployment llama-70b-disagg --transfer"},
         {"# One chosen pair, as JSON",
          k + "nixl --transfer --pair PREFILL_POD,DECODE_POD -o json"}},
        "[--pod NAME | -l SELECTOR | --deployment DGD | --recipe DIR | --local] [--transfer] "
        "[options]",
        true}},
      {"all",
       {"env on the recipe, then node and nixl on the pods of the deployments it defines, in one "
        "report and one verdict.",
        {{"# A recipe and the pods made from it", k + "all " + recipe},
         {"# With the transfer test, as JSON",
          k + "all recipes/deepseek-r1/vllm/disagg --transfer -o json"}},
        "RECIPE_DIR [options]",
        true}},
      {"logs",
       {"Judges saved worker logs (kubectl logs output, support bundles, CI artifacts) and saved "
        "events lists (kubectl get events -o json) against the same log signatures node, nixl "
        "and all apply to the running pods: each known failure line in its layer, with its time "
        "and the line itself. No known signature is no finding, never an ok.",
        {{"# One saved log", k + "logs decode-0.log"},
         {"# Every file of a support bundle, as JSON", k + "logs ./bundle -o json"},
         {"# Straight from kubectl", "kubectl logs POD -c main --previous | " + k + "logs -"}},
        "FILE|DIR|- [options]",
        true}},
      {"version", {"", {{"# The version, commit and libraries", k + "version"}}, "", false}},
      {"options", {"", {{"", k + "options"}}, "", false}},
  };
  return all;
}

}  // namespace

CommandPage command_page(const std::string& command) {
  const auto found = pages().find(command);
  return found == pages().end() ? CommandPage{"", {}, "[options]", false} : found->second;
}

std::vector<std::pair<std::string, std::string>> exit_codes() {
  return {
      {"0", "confirmed or surface-ok: every required check is ok"},
      {"1", "unconfirmed: nothing failed, but a required check is warn or skipped"},
      {"2", "blocked: a check failed; the verdict names the first blocking layer"},
      {"3", "error: could not check (arguments, kubeconfig, cluster, recipe)"},
      {"128+N", "interrupted by signal N (130 Ctrl-C, 143 SIGTERM); what was gathered is printed"},
  };
}

}  // namespace icheck::plugin
