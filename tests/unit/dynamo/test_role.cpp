#include "dynamo/engine_flags.hpp"
#include "dynamo/role.hpp"

#include <doctest/doctest.h>

using namespace icheck::dynamo;

TEST_CASE("role names: one spelling each, unknown prints empty") {
  CHECK(role_name(Role::prefill) == "prefill");
  CHECK(role_name(Role::decode) == "decode");
  CHECK(role_name(Role::worker) == "worker");
  CHECK(role_name(Role::frontend) == "frontend");
  CHECK(role_name(Role::planner) == "planner");
  CHECK(role_name(Role::epp) == "epp");
  CHECK(role_name(Role::unknown).empty());
  CHECK(role_label(Role::unknown) == "unknown");
  CHECK(is_worker(Role::worker));
  CHECK(is_worker(Role::prefill));
  CHECK_FALSE(is_worker(Role::epp));
  CHECK(is_split(Role::decode));
  CHECK_FALSE(is_split(Role::worker));
}

TEST_CASE("classify_role: type, sub-type, flags, backend launch, name, in that order") {
  CHECK(classify_role({"prefill", "decode", "", {}, {}}) == Role::prefill);
  CHECK(classify_role({"Decode", "", "", {}, {}}) == Role::decode);
  CHECK(classify_role({"frontend", "", "PrefillRouter", {}, {}}) == Role::frontend);
  CHECK(classify_role({"router", "", "prefill", {}, {}}) == Role::prefill);  // falls through
  CHECK(classify_role({"worker", "prefill", "", {}, {}}) == Role::prefill);
  CHECK(classify_role({"worker", "", "", {"--disaggregation-mode=Decode"}, {}}) == Role::decode);
  // The flag decides before the name: a service named "prefill" that runs decode is decode.
  CHECK(classify_role({"worker",
                       "",
                       "prefill",
                       {"python3 -m dynamo.sglang --disaggregation-mode decode"},
                       {}}) == Role::decode);
  CHECK(classify_role({"worker", "", "VllmPrefillWorker", {"python3", "-m", "dynamo.vllm"}, {}}) ==
        Role::worker);
  CHECK(classify_role({"worker", "", "VllmDecodeWorker", {}, {}}) == Role::decode);
  CHECK(classify_role({"worker", "", "", {}, {}}) == Role::worker);
  CHECK(classify_role({"", "", "", {}, {}}) == Role::unknown);
}

TEST_CASE("an unknown component type decides nothing: the flags inside a sh -c script do") {
  const std::vector<std::string> script{
      "sh", "-c",
      "ulimit -l unlimited && exec python3 -m dynamo.sglang --disaggregation-mode "
      "prefill --disaggregation-transfer-backend nixl"};
  const auto read = read_role({"main", "", "SglangWorkerB", script, {}});
  CHECK(read.role == Role::prefill);
  CHECK(read.by == "the engine's role flag --disaggregation-mode 'prefill'");
  CHECK(read.not_understood == "component type 'main'");
  // The role variable and the name are evidence too.
  CHECK(classify_role({"main", "", "w", {}, {{"DYN_VLLM_DISAGGREGATION_MODE", "decode"}}}) ==
        Role::decode);
  CHECK(classify_role({"main", "", "VllmDecodeWorker", {}, {}}) == Role::decode);
  // A backend started without a role flag is aggregated only under the worker type.
  const std::vector<std::string> no_flag{"sh", "-c", "exec python3 -m dynamo.sglang --tp 8"};
  const auto unknown = read_role({"main", "", "SglangWorkerA", no_flag, {}});
  CHECK(unknown.role == Role::unknown);
  CHECK(unknown.by.empty());
  CHECK(unknown.not_understood == "component type 'main'");
  const auto worker = read_role({"worker", "", "SglangWorkerA", no_flag, {}});
  CHECK(worker.role == Role::worker);
  CHECK(worker.not_understood.empty());
  CHECK(is_known_component_type("Worker"));
  CHECK(is_known_component_type(""));
  CHECK_FALSE(is_known_component_type("main"));
}

TEST_CASE("a role flag's value outside the vocabulary leaves the role unknown, said as seen") {
  const auto encode = read_role(
      {"worker", "", "prefill", {"python3 -m dynamo.trtllm --disaggregation-mode encode"}, {}});
  CHECK(encode.role == Role::unknown);  // not "worker", not "prefill" from the name
  CHECK(encode.not_understood == "--disaggregation-mode 'encode'");
  // The aggregated spellings: Dynamo's agg, SGLang's null, TRT-LLM's prefill_and_decode.
  for (const char* agg : {"agg", "null", "Prefill_And_Decode"}) {
    CAPTURE(agg);
    const auto read = read_role(
        {"worker", "", "", {"python3", "-m", "dynamo.vllm", "--disaggregation-mode", agg}, {}});
    CHECK(read.role == Role::worker);
    CHECK(read.not_understood.empty());
  }
}

TEST_CASE("multinode part from Grove clique names") {
  CHECK(multinode_part("vllm-dsr1-0-prefill-ldr") == MultinodePart::leader);
  CHECK(multinode_part("vllm-dsr1-0-prefill-wkr-0") == MultinodePart::worker);
  CHECK(multinode_part("vllm-dsr1-0-decode-7f9c") == MultinodePart::single);
}

TEST_CASE("multinode group and part name: the leader and its workers share the group") {
  CHECK(multinode_group("vllm-dsr1-0-prefill-ldr") == "vllm-dsr1-0-prefill");
  CHECK(multinode_group("vllm-dsr1-0-prefill-wkr") == "vllm-dsr1-0-prefill");
  CHECK(multinode_group("vllm-dsr1-0-prefill-ldr-0") == "vllm-dsr1-0-prefill");
  CHECK(multinode_group("vllm-dsr1-0-prefill-wkr-2") == "vllm-dsr1-0-prefill");
  CHECK(multinode_group("vllm-dsr1-0-decode-7f9c").empty());
  CHECK(multinode_part_name(MultinodePart::leader) == "leader");
  CHECK(multinode_part_name(MultinodePart::worker) == "worker");
  CHECK(multinode_part_name(MultinodePart::single).empty());
}
