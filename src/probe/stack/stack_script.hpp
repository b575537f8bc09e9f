#pragma once
// The stack-versions probe: a POSIX sh fragment placed before the node script's final "done"
// marker (probe/nixl/nixl_script.hpp insert_before_done), read-only and bounded: names only
// (dist-info folders, library files, pkg-config Version lines), no Python, one bounded
// `fi_info --version` where the image has it. Sections:
//   stack_versions   "dist PATH" per dist-info folder of a KV library or framework (nixl,
//                    nixl_cuXX, vllm, sglang, tensorrt_llm, ai_dynamo, torch, mooncake,
//                    nvidia_nccl_cuXX, nvidia_cuda_runtime), "lib PATH" per libnccl/libcudart
//                    file, "pc PATH Version: V" per UCX pkg-config file, "cuda LINE" from
//                    /usr/local/cuda/version.json, "kernel RELEASE"
//   stack_env        the container's whole environment, "BYTES NAME=VALUE" records
//   stack_fi_info    `fi_info --version` (libfabric's release); rc=absent without fi_info

#include <string_view>

namespace icheck::probe {

std::string_view stack_probe_script();

}  // namespace icheck::probe
