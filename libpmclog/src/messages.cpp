#include "messages.h"

#include <cstdio>
#include <string>

namespace pmclog::detail {

namespace {
void set(Error& e, Errc c, uint64_t off, const std::string& what, uint64_t missing = 0) {
  e.code = c;
  e.offset = off;
  e.missing = missing;
  e.message = "record at offset " + std::to_string(off) + ": " + what;
}
}  // namespace

std::string hex32(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%x", v);
  return b;
}

void fail_truncated_header(Error& e, uint64_t off, size_t avail) {
  set(e, Errc::truncated, off,
      "truncated: only " + std::to_string(avail) + (avail == 1 ? " byte" : " bytes") +
          " left, a header word needs 4",
      4 - avail);
}

void fail_bad_magic(Error& e, uint64_t off, uint32_t word) {
  set(e, Errc::bad_magic, off,
      "bad magic " + hex32(word >> 24) + " in header word " + hex32(word) + " (expected 0xee)");
}

void fail_length_below_header(Error& e, uint64_t off, uint16_t len, size_t header) {
  set(e, Errc::length_below_header, off,
      "length " + std::to_string(len) + " is below the " + std::to_string(header) +
          "-byte header");
}

void fail_length_not_multiple(Error& e, uint64_t off, uint16_t len) {
  set(e, Errc::length_not_multiple_of_4, off,
      "length " + std::to_string(len) + " is not a multiple of 4");
}

void fail_truncated(Error& e, uint64_t off, uint16_t len, size_t avail) {
  set(e, Errc::truncated, off,
      "truncated: length " + std::to_string(len) + " but only " + std::to_string(avail) +
          " bytes left (" + std::to_string(len - avail) + " missing)",
      len - avail);
}

void fail_unknown_type(Error& e, uint64_t off, uint8_t type, Generation g) {
  set(e, Errc::unknown_type, off,
      "type " + std::to_string(type) + " is not defined in generation " +
          std::string(generation_name(g)));
}

void fail_fixed_size(Error& e, uint64_t off, uint16_t len, uint16_t size, Kind k) {
  const std::string name(kind_name(k));
  if (len < size) {
    set(e, Errc::length_below_minimum, off,
        "length " + std::to_string(len) + " is below the " + std::to_string(size) +
            "-byte minimum for " + name);
  } else {
    set(e, Errc::length_wrong_size, off,
        "length " + std::to_string(len) + " is not the " + std::to_string(size) +
            "-byte size of " + name);
  }
}

void fail_below_minimum(Error& e, uint64_t off, uint16_t len, uint16_t min, Kind k) {
  set(e, Errc::length_below_minimum, off,
      "length " + std::to_string(len) + " is below the " + std::to_string(min) +
          "-byte minimum for " + std::string(kind_name(k)));
}

void fail_unterminated(Error& e, uint64_t off, Kind k, uint16_t field_off, uint16_t len,
                       uint16_t spare) {
  set(e, Errc::unterminated_string, off,
      std::string(kind_name(k)) + " string at byte " + std::to_string(field_off) +
          " has no NUL terminator within the record's " + std::to_string(len) + " bytes" +
          (spare ? " before the last " + std::to_string(spare) +
                       " (the unfilled part of its 8-byte address slots)"
                 : ""));
}

void fail_callchain_misaligned(Error& e, uint64_t off, size_t payload, int width, int value) {
  set(e, Errc::callchain_misaligned, off,
      "CALLCHAIN has " + std::to_string(payload) + " bytes of frames, not a multiple of the " +
          std::to_string(width) + "-byte address size" +
          (value != width ? " (" + std::to_string(value) + "-byte addresses in " +
                                std::to_string(width) + "-byte slots)"
                          : std::string()));
}

void fail_callchain_depth(Error& e, uint64_t off, uint32_t n, const Abi& abi) {
  set(e, Errc::callchain_too_deep, off,
      "CALLCHAIN depth " + std::to_string(n) + " is above the limit of " +
          std::to_string(abi.callchain_depth_max()) + " for generation " +
          std::string(generation_name(abi.generation)));
}

}  // namespace pmclog::detail

namespace pmclog {

std::string_view errc_id(Errc e) {
  switch (e) {
    case Errc::none: return "none";
    case Errc::truncated: return "truncated";
    case Errc::bad_magic: return "bad-magic";
    case Errc::length_below_header: return "length-below-header";
    case Errc::length_not_multiple_of_4: return "length-not-multiple-of-4";
    case Errc::length_below_minimum: return "length-below-minimum";
    case Errc::length_wrong_size: return "length-wrong-size";
    case Errc::length_above_maximum: return "length-above-maximum";
    case Errc::unknown_type: return "unknown-type";
    case Errc::unterminated_string: return "unterminated-string";
    case Errc::callchain_too_deep: return "callchain-too-deep";
    case Errc::callchain_misaligned: return "callchain-misaligned";
    case Errc::multipart_damaged: return "multipart-damaged";
    case Errc::value_out_of_range: return "value-out-of-range";
    case Errc::string_too_long: return "string-too-long";
    case Errc::bad_abi: return "bad-abi";
    case Errc::compressed_damaged: return "compressed-damaged";
    case Errc::io: return "io";
  }
  return "unknown";
}

}  // namespace pmclog
