#include "outside/mask.hpp"

#include <doctest/doctest.h>

using icheck::outside::looks_secret;
using icheck::outside::mask_secrets;
using icheck::outside::shown_value;

TEST_CASE("names that look like credentials") {
  for (const char* name :
       {"HF_TOKEN", "NIXL_ETCD_PASSWORD", "aws_secret_access_key", "DB_PASSWD",
        "GOOGLE_APPLICATION_CREDENTIALS", "--token", "API_KEY", "PKEY_API_KEY", "SSH_PKEY"}) {
    CHECK(looks_secret(name));
  }
  // A partition key is a fabric setting the rows judge (row ucx-ib-pkey-msb-set), not a secret.
  for (const char* name : {"UCX_TLS", "NCCL_IB_HCA", "NIXL_PLUGIN_DIR", "--namespace",
                           "UCX_IB_PKEY", "NCCL_IB_PKEY"}) {
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
  CHECK(mask_secrets("a bearer of news") == "a bearer *** news");  // a false mask is harmless
}

TEST_CASE("shown_value masks by name first, then by value") {
  CHECK(shown_value("HF_TOKEN", "hf_abc") == "***");
  CHECK(shown_value("HF_TOKEN", "") == "");
  CHECK(shown_value("NIXL_ETCD_ENDPOINTS", "http://root:pw@etcd:2379") == "http://***@etcd:2379");
  CHECK(shown_value("UCX_TLS", "rc") == "rc");
}

TEST_CASE(
    "names ending in AUTH or PASS look like credentials, words that merely hold them do not") {
  for (const char* name : {"NIXL_ETCD_AUTH", "REDIS_PASS", "SMB_PASSWD", "AWS_CREDENTIALS",
                           "HTTP_AUTHORIZATION", "--pass", "auth"}) {
    CHECK(looks_secret(name));
  }
  for (const char* name :
       {"UCX_BYPASS", "AUTHOR", "NCCL_PASSTHROUGH_MODE", "UCX_IB_AUTHORITY_HOST"}) {
    CHECK_FALSE(looks_secret(name));
  }
  CHECK(shown_value("NIXL_ETCD_AUTH", "root:auth-secret") == "***");
  CHECK(shown_value("REDIS_PASS", "pass-secret") == "***");
}

TEST_CASE("URL userinfo is masked up to the last '@' of the authority") {
  CHECK(mask_secrets("http://user:pa@ss@host:2379/v3") == "http://***@host:2379/v3");
  CHECK(mask_secrets("http://u:p,w;x@a:1,http://v:q@b:2") == "http://***@a:1,http://***@b:2");
  CHECK(mask_secrets("etcd=http://root:a@b@etcd:2379 next") == "etcd=http://***@etcd:2379 next");
  CHECK(mask_secrets("http://etcd:2379/a@b/c@d") == "http://etcd:2379/a@b/c@d");
}

TEST_CASE("Basic credentials are masked like Bearer tokens") {
  CHECK(mask_secrets("Authorization: Basic dXNlcjpodW50ZXIy") == "Authorization: Basic ***");
  CHECK(mask_secrets("curl -H 'authorization: basic dXNlcjpw==' x") ==
        "curl -H 'authorization: basic ***' x");
  CHECK(mask_secrets("Basic ***") == "Basic ***");
  CHECK(mask_secrets("nonbasic word") == "nonbasic word");
}

TEST_CASE("the word after a credential-looking flag is masked") {
  CHECK(mask_secrets("--password hunter2 --token tok-1 -n dynamo") ==
        "--password *** --token *** -n dynamo");
  CHECK(mask_secrets("etcdctl --pass 'p w' get x") == "etcdctl --pass '***' get x");
  CHECK(mask_secrets("[\"--token\", \"tok-2\", \"--tp\", \"8\"]") ==
        "[\"--token\", \"***\", \"--tp\", \"8\"]");
  CHECK(mask_secrets("--token --verbose") == "--token --verbose");
  CHECK(mask_secrets("--tensor-parallel-size 8 --port 8000") ==
        "--tensor-parallel-size 8 --port 8000");
}

TEST_CASE("quoted credential values are masked inside their quotes") {
  CHECK(mask_secrets("password=\"hunter 2\" mode=rc") == "password=\"***\" mode=rc");
  CHECK(mask_secrets("x password='cut") == "x password='***");
  CHECK(mask_secrets("password=\"\"") == "password=\"\"");
}

TEST_CASE("PEM blocks keep their armour, lose their body") {
  const std::string pem = "key:\n-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkq\nhkiG9w0B\n"
                          "-----END PRIVATE KEY-----\ntail";
  CHECK(mask_secrets(pem) == "key:\n-----BEGIN PRIVATE KEY-----***-----END PRIVATE KEY-----\ntail");
  const std::string two = "-----BEGIN CERTIFICATE-----a-----END CERTIFICATE----- "
                          "-----BEGIN EC PRIVATE KEY-----b-----END EC PRIVATE KEY-----";
  CHECK(mask_secrets(two) == "-----BEGIN CERTIFICATE-----***-----END CERTIFICATE----- "
                             "-----BEGIN EC PRIVATE KEY-----***-----END EC PRIVATE KEY-----");
  CHECK(mask_secrets("-----BEGIN RSA PRIVATE KEY-----\nMIIcut") ==
        "-----BEGIN RSA PRIVATE KEY-----***");  // cut before END: masked to the end
  CHECK(mask_secrets("-----BEGIN X") == "-----BEGIN X");
}

TEST_CASE("masking twice changes nothing") {
  const std::string text = "http://a:b@c@h --password x Basic eA== token=\"y\" "
                           "-----BEGIN K-----z-----END K-----";
  const std::string once = mask_secrets(text);
  CHECK(once ==
        "http://***@h --password *** Basic *** token=\"***\" -----BEGIN K-----***-----END K-----");
  CHECK(mask_secrets(once) == once);
}

TEST_CASE("masking what was masked changes nothing, also where one mask completes another shape") {
  // fuzz_outside's find: `token=` masked first leaves a URL whose userinfo then reads as one.
  const char raw[] = "x://u:\xfa\xfftoken=\0\x05<t))@h:9 a";
  const std::string text(raw, sizeof raw - 1);
  const auto once = mask_secrets(text);
  CHECK(mask_secrets(once) == once);
  CHECK(once.find("token=") == std::string::npos);
  CHECK(once.find("@h:9 a") != std::string::npos);
}
