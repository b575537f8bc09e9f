#pragma once
// The shapes a secret takes inside free text, one masker each; mask_secrets (mask.hpp) runs
// them in order. Each leaves an already masked value ("***") alone, so masking twice (at the
// source and again where the report is printed) changes nothing.

#include <string>
#include <string_view>

namespace icheck::outside::shapes {

// -----BEGIN X-----<body>-----END X----- -> -----BEGIN X-----***-----END X-----; a block cut
// before its END line is masked to the end of the text.
std::string mask_pem(std::string_view text);

// scheme://user:pa@ss@host -> scheme://***@host (up to the last '@' of the authority).
std::string mask_userinfo(std::string_view text);

// key=value and key="value" where the key looks like a credential: the value is masked.
std::string mask_pairs(std::string_view text);

// "--password X", "--token X": the word after a credential-looking flag is masked.
std::string mask_flag_words(std::string_view text);

// "Bearer <token>", "Basic <base64>" (an Authorization header, a curl line).
std::string mask_auth_schemes(std::string_view text);

}  // namespace icheck::outside::shapes
