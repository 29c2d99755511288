// Whether this test program is built under AddressSanitizer (CI's second build), for the
// few tests whose bounds or counts must allow for its shadow memory and slower runs.
#pragma once

namespace pmclog_test {

#if defined(__SANITIZE_ADDRESS__)  // g++
inline constexpr bool kSanitized = true;
#elif defined(__has_feature)  // clang
#if __has_feature(address_sanitizer)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
#else
inline constexpr bool kSanitized = false;
#endif

}  // namespace pmclog_test
