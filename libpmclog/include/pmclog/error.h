// Errors are values that carry the byte offset of the record they concern, so that a
// message can say where the damage is. Nothing in the codec throws on bad data.
//
// How to use them: test a Result with ok() (or `if (r)`), then take value(); an Error's
// message is a whole sentence to print as it is, `code` and errc_id() are for programs,
// `offset` is a byte offset in the input. Errc values and errc_id() strings are stable
// within a minor version; messages may be reworded at any time.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace pmclog {

enum class Errc : uint8_t {
  none,
  truncated,               // record runs past the end of the data
  bad_magic,               // header top byte is not 0xEE
  length_below_header,     // length 0..header size
  length_not_multiple_of_4,
  length_below_minimum,    // below the type's fixed part
  length_wrong_size,       // fixed-size record whose length is not its size
  length_above_maximum,
  unknown_type,            // type the generation does not define
  unterminated_string,     // path with no NUL inside the record
  callchain_too_deep,      // more frames than the generation's depth limit
  callchain_misaligned,    // callchain payload not a whole number of addresses
  multipart_damaged,       // a multipart callchain's part header does not fit its record
  value_out_of_range,      // encoder: value does not fit its field
  string_too_long,         // encoder: string does not fit its field
  bad_abi,                 // detection could not settle the ABI, or an invalid override
  compressed_damaged,      // gzip/zstd/xz/bzip2 data that fails its checks or ends early:
                           // bad data, as a damaged record is, not a failed read
  io,                      // reading or writing failed
};

// Stable identifier, e.g. "truncated", "bad-magic".
std::string_view errc_id(Errc e);

struct Error {
  Errc code = Errc::none;
  uint64_t offset = 0;   // byte offset of the record (or of the data) in the file
  uint64_t missing = 0;  // for truncated: how many bytes the record lacks
  std::string message;   // full sentence naming the offset, the value and the bound

  explicit operator bool() const { return code != Errc::none; }
};

// A value or an Error, in the style of simdjson's result (std::expected is not in clang-14).
template <class T>
class Result {
 public:
  Result(T v) : v_(std::move(v)) {}                // NOLINT: implicit by design
  Result(Error e) : v_(std::move(e)) {}            // NOLINT
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

}  // namespace pmclog
