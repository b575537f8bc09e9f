#include "outside/mask.hpp"

#include <doctest/doctest.h>

using icheck::outside::looks_secret;
using icheck::outside::mask_secrets;
using icheck::outside::shown_value;

TEST_CASE("names that look like credentials") {
  for (const char* name : {"HF_TOKEN", "NIXL_ETCD_PASSWORD", "aws_secret_access_key", "DB_PASSWD",
                           "GOOGLE_APPLICATION_CREDENTIALS", "--token"}) {
    CHECK(looks_secret(name));
  }
  for (const char* name : {"UCX_TLS", "NCCL_IB_HCA", "NIXL_PLUGIN_DIR", "--namespace"}) {
    CHECK_FALSE(looks_secret(name));
  }
}

TEST_CASE("URL userinfo is masked, the rest of the URL kept") {
  CHECK(mask_secrets("http://user:pass@etcd:2379") == "http://***@etcd:2379");
  CHECK(mask_secrets("etcd=https://root:s3cr3t@10.0.0.1:2379/v3,http://plain:2379") ==
        "etcd=https://***@10.0.0.1:2379/v3,http://plain:2379");
  CHECK(mask_secrets("http://etcd:2379/path@x") == "http://etcd:2379/path@x");
  CHECK(mask_secrets("mailto:someone@example.com") == "mailto:someone@example.com");
}

TEST_CASE("credential-looking key=value pairs are masked") {
  CHECK(mask_secrets("http://s3/x?access_token=abc123&part=2") ==
        "http://s3/x?access_token=***&part=2");
  CHECK(mask_secrets("token=abc password=hunter2 mode=rc") == "token=*** password=*** mode=rc");
  CHECK(mask_secrets("kubectl get pods --token=eyJhbGci -n dynamo") ==
        "kubectl get pods --token=*** -n dynamo");
  CHECK(mask_secrets("UCX_TLS=rc_x,cuda_copy") == "UCX_TLS=rc_x,cuda_copy");
  CHECK(mask_secrets("HF_TOKEN=***") == "HF_TOKEN=***");
  CHECK(mask_secrets("api_key=") == "api_key=");
}

TEST_CASE("Bearer tokens are masked") {
  CHECK(mask_secrets("Authorization: Bearer eyJhbGciOi.x.y") == "Authorization: Bearer ***");
  CHECK(mask_secrets("bearer  abc def") == "bearer  *** def");
  CHECK(mask_secrets("a bearer of news") == "a bearer *** news"); // a false mask is harmless
}

TEST_CASE("shown_value masks by name first, then by value") {
  CHECK(shown_value("HF_TOKEN", "hf_abc") == "***");
  CHECK(shown_value("HF_TOKEN", "") == "");
  CHECK(shown_value("NIXL_ETCD_ENDPOINTS", "http://root:pw@etcd:2379") == "http://***@etcd:2379");
  CHECK(shown_value("UCX_TLS", "rc") == "rc");
}
