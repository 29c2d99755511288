#include "pmclog/encode.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "pmclog/endian_io.h"
#include "pmclog/layout.h"

namespace pmclog {

namespace {

Error encode_error(Errc c, const RecordValue& r, const std::string& what) {
  Error e;
  e.code = c;
  e.message = std::string("cannot encode ") + std::string(kind_name(r.kind)) + ": " + what;
  return e;
}

uint16_t round4(size_t n) { return static_cast<uint16_t>((n + 3) & ~size_t{3}); }

// Checks that every value fits its field; returns an empty Error when all do.
Error check_values(const RecordValue& r, const Layout& l, const Abi& abi, const EncodeOptions& opt) {
  for (const FieldSpec& f : l) {
    const uint64_t v = is_scalar(f.id) ? r[f.id] : 0;  // text and pcs live elsewhere
    const std::string name(field_name(f.id));
    switch (f.type) {
      case FieldType::u32:
        if (v > 0xFFFFFFFFu)
          return encode_error(Errc::value_out_of_range, r, name + " does not fit in 32 bits");
        break;
      case FieldType::u8:
        if (v > 0xFF) return encode_error(Errc::value_out_of_range, r, name + " does not fit in 8 bits");
        break;
      case FieldType::addr:
      case FieldType::native:
        if (f.size == 4 && v > 0xFFFFFFFFu)
          return encode_error(Errc::value_out_of_range, r,
                              name + " does not fit in 4 bytes for this ABI");
        break;
      case FieldType::chars:
        if (r.text.size() > f.size)
          return encode_error(Errc::string_too_long, r,
                              name + " is " + std::to_string(r.text.size()) +
                                  " bytes, the field holds " + std::to_string(f.size));
        [[fallthrough]];
      case FieldType::path:
        if (r.text.find('\0') != std::string::npos)
          return encode_error(Errc::value_out_of_range, r, name + " contains a NUL byte");
        if (f.type == FieldType::path && opt.check_limits && r.text.size() + 1 > kPathMax)
          return encode_error(Errc::string_too_long, r,
                              name + " is " + std::to_string(r.text.size()) +
                                  " bytes, above PATH_MAX (" + std::to_string(kPathMax) +
                                  " with its NUL)");
        break;
      case FieldType::addrs:
        if (opt.check_limits && r.pcs.size() > abi.callchain_depth_max())
          return encode_error(Errc::callchain_too_deep, r,
                              std::to_string(r.pcs.size()) + " frames, above the limit of " +
                                  std::to_string(abi.callchain_depth_max()) +
                                  " for generation " +
                                  std::string(generation_name(abi.generation)));
        if (abi.address_width == 4 &&
            std::any_of(r.pcs.begin(), r.pcs.end(), [](uint64_t pc) { return pc > 0xFFFFFFFFu; }))
          return encode_error(Errc::value_out_of_range, r,
                              "a frame address does not fit in 4 bytes for this ABI");
        break;
      case FieldType::u64_words:
      case FieldType::pad:
      case FieldType::unwritten: break;
    }
  }
  return {};
}

}  // namespace

Result<uint16_t> encoded_length(const RecordValue& r, const Abi& abi, const EncodeOptions& opt) {
  size_t natural = 0;
  if (r.kind == Kind::unknown) {
    natural = abi.header_size() + r.payload.size();
  } else {
    const Layout* l = layout_for(abi, r.kind);
    if (l == nullptr)
      return encode_error(Errc::unknown_type, r,
                          "generation " + std::string(generation_name(abi.generation)) +
                              " has no such record");
    if (Error e = check_values(r, *l, abi, opt)) return e;
    natural = l->fixed_size;
    if (l->variable) {
      natural = l->ends_with_path() ? round4(natural + r.text.size() + 1)
                                    : natural + r.pcs.size() * abi.slot_width();
    }
  }
  size_t len = natural;
  if (r.length != 0) {
    if (r.length < natural || (r.length & 3u))
      return encode_error(Errc::length_below_minimum, r,
                          "length " + std::to_string(r.length) + " cannot hold the fields (" +
                              std::to_string(natural) + " bytes) or is not a multiple of 4");
    if (r.kind != Kind::unknown && !layout_for(abi, r.kind)->variable && r.length != natural)
      return encode_error(Errc::length_wrong_size, r,
                          "length " + std::to_string(r.length) + " is not the record's size " +
                              std::to_string(natural));
    len = r.length;
  }
  if (len & 3u)
    return encode_error(Errc::length_not_multiple_of_4, r,
                        "length " + std::to_string(len) + " is not a multiple of 4");
  if (len > kMaxRecordLength)
    return encode_error(Errc::length_above_maximum, r,
                        "length " + std::to_string(len) + " is above the maximum of " +
                            std::to_string(kMaxRecordLength));
  return static_cast<uint16_t>(len);
}

Result<uint16_t> encode(const RecordValue& r, const Abi& abi, std::vector<uint8_t>& out,
                        const EncodeOptions& opt) {
  const auto len = encoded_length(r, abi, opt);
  if (!len.ok()) return len;
  const ByteOrder o = abi.byte_order;
  const size_t start = out.size();
  out.resize(start + len.value(), 0);  // zeros where the kernel leaves stale bytes (format.md §5)
  uint8_t* p = out.data() + start;
  uint8_t type = r.type;
  const Layout* l = nullptr;
  if (r.kind != Kind::unknown) {
    l = layout_for(abi, r.kind);
    type = l->type;
  }
  detail::store32(o, p, detail::make_header_word(type, len.value()));
  if (abi.legacy()) {
    detail::store32(o, p + 4, r.ts_sec);
    detail::store32(o, p + 8, r.ts_nsec);
  } else {
    detail::store64_native(o, p + 8, r.tsc);
  }
  if (l == nullptr) {
    if (!r.payload.empty()) std::memcpy(p + abi.header_size(), r.payload.data(), r.payload.size());
    return len;
  }
  for (const FieldSpec& f : *l) {
    uint8_t* q = p + f.offset;
    const uint64_t v = is_scalar(f.id) ? r[f.id] : 0;
    switch (f.type) {
      case FieldType::u32: detail::store32(o, q, static_cast<uint32_t>(v)); break;
      case FieldType::u64_words: detail::store64_words(o, q, v); break;
      case FieldType::u8: q[0] = static_cast<uint8_t>(v); break;  // the pad bytes stay 0
      case FieldType::addr:
        if (f.size == 4) detail::store32(o, q, static_cast<uint32_t>(v));
        else detail::store64_words(o, q, v);
        break;
      case FieldType::native:
        if (f.size == 4) detail::store32(o, q, static_cast<uint32_t>(v));
        else detail::store64_native(o, q, v);
        break;
      case FieldType::pad:
      case FieldType::unwritten: break;
      case FieldType::chars:
      case FieldType::path: std::memcpy(q, r.text.data(), r.text.size()); break;
      case FieldType::addrs:
        // Packed values; with narrow addresses the rest of the slots is the record's
        // unwritten tail (format.md §19).
        for (uint64_t pc : r.pcs) {
          if (abi.address_width == 4) detail::store32(o, q, static_cast<uint32_t>(pc));
          else detail::store64_words(o, q, pc);
          q += abi.address_width;
        }
        break;
    }
  }
  return len;
}

std::vector<BytePatch> unwritten_bytes(const Record& r, const Abi& abi) {
  std::vector<BytePatch> patches;
  std::vector<uint8_t> again;
  const auto len = encode(to_value(r, abi), abi, again, EncodeOptions{false});
  if (!len.ok() || again.size() != r.raw.size()) {
    patches.emplace_back(0, std::vector<uint8_t>(r.raw.begin(), r.raw.end()));
    return patches;
  }
  size_t i = 0;
  while (i < again.size()) {
    if (again[i] == r.raw[i]) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < again.size() && again[j] != r.raw[j]) ++j;
    patches.emplace_back(static_cast<uint16_t>(i),
                         std::vector<uint8_t>(r.raw.begin() + static_cast<long>(i),
                                              r.raw.begin() + static_cast<long>(j)));
    i = j;
  }
  return patches;
}

bool apply_patches(std::span<uint8_t> record, const std::vector<BytePatch>& patches) {
  for (const auto& [at, bytes] : patches) {
    if (size_t{at} + bytes.size() > record.size()) return false;
  }
  for (const auto& [at, bytes] : patches) std::memcpy(record.data() + at, bytes.data(), bytes.size());
  return true;
}

}  // namespace pmclog
