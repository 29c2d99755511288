// ABI detection from the bytes, following format.md §2.2. Every decision is reported with
// the evidence it rests on, so that a user can check it and override it.
#include "pmclog/detect.h"

#include <cstring>
#include <string>

#include "pmclog/endian_io.h"
#include "messages.h"
#include "pmclog/kind.h"
#include "pmclog/layout.h"

namespace pmclog {

namespace {

constexpr size_t kMaxScannedRecords = 200000;

Error abi_error(const std::string& what) {
  Error e;
  e.code = Errc::bad_abi;
  e.message = what;
  return e;
}

std::string at(uint64_t off) { return " at offset " + std::to_string(off); }

constexpr size_t kMaxResyncBytes = 64 * 1024;

// Walks records by their length only (framing needs no address width). Calls f(offset,
// type, length, pointer) until f returns false or the data ends. Past a broken header it
// goes on, as the readers' resync does, at the next offset where a plausible header is
// followed by another or by the end: damage in a log's first records would otherwise leave
// the detection with only the records before it, and a guess where the rest had evidence.
template <class F>
void walk(std::span<const uint8_t> d, ByteOrder o, size_t header, F&& f) {
  const auto length_at = [&](size_t pos) -> uint16_t {  // 0: no plausible header there
    if (pos + 4 > d.size()) return 0;
    const uint32_t w = detail::load32(o, d.data() + pos);
    const uint16_t len = w & 0xFFFF;
    if ((w >> 24) != kHeaderMagic || len < header || (len & 3u) || pos + len > d.size()) return 0;
    return len;
  };
  size_t pos = 0;
  for (size_t n = 0; n < kMaxScannedRecords && pos + 4 <= d.size(); ++n) {
    uint16_t len = length_at(pos);
    if (len == 0) {
      const size_t from = pos;
      for (++pos; pos + 4 <= d.size() && pos - from < kMaxResyncBytes; ++pos) {
        len = length_at(pos);
        if (len != 0 && (pos + len == d.size() || length_at(pos + len) != 0)) break;
      }
      if (pos + 4 > d.size() || pos - from >= kMaxResyncBytes) return;
    }
    if (!f(pos, static_cast<uint8_t>(detail::load32(o, d.data() + pos) >> 16), len, d.data() + pos))
      return;
    pos += len;
  }
}

struct WidthVotes {
  int four = 0, eight = 0;
  std::string first4, first8;  // the first piece of evidence for each
  // Weak evidence (a callchain with an odd number of 4-byte frames) counts only when no
  // record of fixed size or path layout settles it: a damaged callchain looks the same.
  int weak4 = 0;
  std::string first_weak4;
  void vote(int w, const std::string& why) {
    if (w == 4) {
      if (four++ == 0) first4 = why;
    } else {
      if (eight++ == 0) first8 = why;
    }
  }
  void vote_weak4(const std::string& why) {
    if (weak4++ == 0) first_weak4 = why;
  }
};

// In path records the NUL must sit in the record's last 4 bytes (the length is offsetof(path)
// + strlen + 1, rounded up); only the right address width puts it there. With addresses
// narrower than their slots the length counts the whole slots but the path follows the
// values, so the NUL sits that many unwritten bytes earlier (format.md §19).
bool path_fits(const uint8_t* p, uint16_t len, const Layout* l) {
  if (l == nullptr || !l->variable) return false;
  const uint16_t off = l->fields[l->nfields - 1].offset;
  const uint16_t unfilled = static_cast<uint16_t>(l->fixed_size - off);
  if (off >= len || len < unfilled + off) return false;
  const void* nul = std::memchr(p + off, 0, len - off);
  if (nul == nullptr) return false;
  const size_t at = static_cast<size_t>(static_cast<const uint8_t*>(nul) - p);
  const size_t end = len - unfilled;  // where the written part ends
  return at < end && at + 4 >= end;
}

// Which of 4-byte values in 8-byte slots and 8-byte values the records of a log with 8-byte
// slots show (format.md §19).
struct ValueVotes {
  int narrow = 0, wide = 0;
  std::string first_narrow, first_wide;
  void vote(bool n, const std::string& why) {
    if (n) {
      if (narrow++ == 0) first_narrow = why;
    } else {
      if (wide++ == 0) first_wide = why;
    }
  }
};

// powerpc cputypes (0x300-0x3ff, format.md §9.4). Every powerpc kernel before the one that
// selects EMIT64 on __powerpc64__ (in the M10 era) writes 4-byte addresses, so such a CPU in a
// log with 8-byte slots means powerpc64's narrow addresses.
bool powerpc_cputype(uint32_t cputype) { return cputype >= 0x300 && cputype < 0x400; }

}  // namespace

namespace {
Result<Detection> detect_stream(std::span<const uint8_t> d, const AbiHint& hint,
                                const Container* container);
}  // namespace

Result<Detection> detect_abi(std::span<const uint8_t> d, const AbiHint& hint, bool whole) {
  ContainerParse cp = parse_container(d, whole);
  if (!cp.container) return detect_stream(d, hint, nullptr);
  if (const ContainerIssue* f = cp.first_fatal()) {
    Error e = abi_error(f->message);
    e.offset = f->offset;
    return e;
  }
  const Container& c = *cp.container;
  auto det = detect_stream(d.subspan(std::min<uint64_t>(c.size, d.size())), hint, &c);
  if (!det.ok()) {
    Error e = det.error();
    e.message += " (in the pmclog stream after the PMCL container, at offset " +
                 std::to_string(c.size) + ")";
    e.offset += c.size;
    return e;
  }
  Detection out = std::move(det).value();
  out.stream_offset = c.size;
  // Offsets in the evidence count from the stream; say where it starts.
  out.evidence.insert(out.evidence.begin(),
                      "container: PMCL version " + std::to_string(c.version) + ", arch " +
                          std::string(container_arch_name(c.arch).value_or("unknown")) + " (code " +
                          std::to_string(c.arch) + "), " + std::to_string(c.infos.size()) +
                          " info header(s); the pmclog stream starts at offset " +
                          std::to_string(c.size) + " (record offsets in the evidence below "
                          "count from there)");
  out.container = std::move(cp.container);
  out.container_issues = std::move(cp.issues);
  return out;
}

namespace {

Result<Detection> detect_stream(std::span<const uint8_t> d, const AbiHint& hint,
                                const Container* container) {
  Detection det;
  Abi& abi = det.abi;

  // 1. Byte order: 0xEE is the top byte of the header word (format.md §2.2).
  if (hint.byte_order) {
    abi.byte_order = *hint.byte_order;
    det.evidence.push_back("byte order: " + std::string(byte_order_name(abi.byte_order)) +
                           "-endian (given)");
  } else if (container) {
    abi.byte_order = container->byte_order;
    det.evidence.push_back(
        "byte order: " + std::string(byte_order_name(abi.byte_order)) +
        "-endian (the PMCL container's magic 0x504d434c, a native u32, reads as bytes " +
        (abi.byte_order == ByteOrder::little ? "4c 43 4d 50" : "50 4d 43 4c") + " at offset 0)");
  } else if (d.size() < 4) {
    abi.byte_order = ByteOrder::little;
    det.evidence.push_back("byte order: little-endian (assumed: the log has no header word)");
  } else if (d[3] == kHeaderMagic) {
    abi.byte_order = ByteOrder::little;
    det.evidence.push_back("byte order: little-endian (0xee is byte 3 of the first header word)");
  } else if (d[0] == kHeaderMagic) {
    abi.byte_order = ByteOrder::big;
    det.evidence.push_back("byte order: big-endian (0xee is byte 0 of the first header word)");
  } else {
    return abi_error("cannot detect the byte order: the first header word " +
                     detail::hex32(detail::load32(ByteOrder::big, d.data())) +
                     " has magic 0xee neither at byte 0 nor at byte 3");
  }
  const ByteOrder o = abi.byte_order;

  // 2. Generation, from the first record (INITIALIZE) and the types that follow.
  uint32_t first_word = d.size() >= 4 ? detail::load32(o, d.data()) : 0;
  const uint8_t type0 = static_cast<uint8_t>(first_word >> 16);
  const uint16_t len0 = first_word & 0xFFFF;
  const bool legacy_init = type0 == 2 && len0 == 20;
  const bool modern_init = type0 == 3 && (len0 == 112 || len0 == 104);
  uint32_t version = 0;
  if ((legacy_init || modern_init) && d.size() >= size_t{len0})
    version = detail::load32(o, d.data() + (legacy_init ? 12 : 16));

  if (hint.generation) {
    abi.generation = *hint.generation;
    det.evidence.push_back("generation: " + std::string(generation_name(abi.generation)) +
                           " (given)");
  } else if (modern_init || (hint.modern && !legacy_init)) {
    abi.generation = version_major(version) >= 0x0A ? Generation::M10 : Generation::M9;
    std::string why = modern_init ? "modern INITIALIZE (type 3, length " + std::to_string(len0) +
                                        "), version " + detail::hex32(version)
                                  : std::string("modern (given)");
    why += abi.generation == Generation::M10 ? ": major >= 0x0A, two-address PROCEXEC"
                                             : ": major < 0x0A, one-address PROCEXEC";
    if (!modern_init) why += "; no modern INITIALIZE first, version unknown";
    det.evidence.push_back("generation: " + std::string(generation_name(abi.generation)) + " (" +
                           why + ")");
    if (!modern_init) det.generation_assumed = true;
  } else if (legacy_init) {
    uint64_t pcsample = UINT64_MAX, dyn = UINT64_MAX, l2 = UINT64_MAX;
    walk(d, o, 12, [&](size_t pos, uint8_t type, uint16_t, const uint8_t*) {
      if (type == 4 && pcsample == UINT64_MAX) pcsample = pos;
      if (type >= 14 && type <= 16 && l2 == UINT64_MAX) l2 = pos;
      if (type == 17 && dyn == UINT64_MAX) dyn = pos;
      return dyn == UINT64_MAX;
    });
    const std::string v = "legacy INITIALIZE, version " + detail::hex32(version);
    if (version_major(version) == 1) {
      abi.generation = Generation::L1;
      det.evidence.push_back("generation: L1 (" + v + ", major 1)");
    } else if (dyn != UINT64_MAX) {
      abi.generation = Generation::L3;
      det.evidence.push_back("generation: L3 (" + v + "; PMCALLOCATEDYN" + at(dyn) + ")");
    } else if (pcsample != UINT64_MAX && l2 == UINT64_MAX) {
      abi.generation = Generation::L1;
      det.evidence.push_back("generation: L1 (" + v + "; PCSAMPLE" + at(pcsample) +
                             " and no MAP_IN/MAP_OUT/CALLCHAIN)");
    } else {
      abi.generation = Generation::L3;
      det.generation_assumed = true;
      det.evidence.push_back("generation: L3 (" + v +
                             "; no PMCALLOCATEDYN seen, and L2 cannot be told from L3 without "
                             "one: assumed L3, the more permissive; use --generation L2 to "
                             "force it)");
    }
  } else if (d.size() < 4) {
    abi.generation = Generation::L3;
    det.generation_assumed = true;
    det.empty = true;
    det.empty_bytes = static_cast<uint8_t>(d.size());
    det.evidence.push_back("generation: L3 (assumed: the log is empty)");
  } else {
    return abi_error("cannot detect the generation: the first record (header word " +
                     detail::hex32(first_word) +
                     ") is not an INITIALIZE (legacy: type 2, length 20; modern: type 3, "
                     "length 104 or 112); give the generation explicitly");
  }

  // 3. Address width, from records whose size depends on it (format.md §2.2 step 5), then, with 8-byte
  // slots, whether the values fill them (format.md §19).
  abi.time_width = 8;
  const std::optional<uint8_t> given_slot =
      hint.address_slot ? hint.address_slot
                        : (hint.address_width ? hint.address_width : std::optional<uint8_t>{});
  ValueVotes values;
  if (given_slot) {
    abi.address_width = *given_slot;
    det.evidence.push_back(hint.address_width
                               ? "address width: " + std::to_string(abi.address_width) +
                                     " bytes (given)"
                               : "address slots: " + std::to_string(abi.address_width) +
                                     " bytes (given; the records decide how wide the values are)");
  }
  {
    WidthVotes votes;
    const bool legacy = abi.legacy();
    Abi a4 = abi, a8 = abi, an = Abi::make_narrow(abi.generation, o);
    a4.address_width = 4;
    a8.address_width = 8;
    a4.address_slot = a8.address_slot = 0;
    walk(d, o, abi.header_size(), [&](size_t pos, uint8_t type, uint16_t len, const uint8_t* p) {
      const auto k = kind_of_type(abi.generation, type);
      if (!k) return true;
      // Built only for a record that votes: most (CALLCHAINs) do not, and building it for
      // each of up to 200,000 records was a quarter of --stats on a 10 MiB log.
      const auto where = [&] {
        return std::string(kind_name(*k)) + " of " + std::to_string(len) + " bytes" + at(pos);
      };
      switch (*k) {
        case Kind::initialize:
          if (!legacy && len == 104) votes.vote(4, where() + " (i386)");
          break;
        case Kind::map_out:
          if (len == (legacy ? 24 : 32)) votes.vote(4, where());
          if (len == (legacy ? 32 : 40)) votes.vote(8, where());
          break;
        case Kind::pcsample:
          if (len == 28) votes.vote(4, where());
          if (len == 32) votes.vote(8, where());
          break;
        case Kind::callchain: {
          if (votes.four + votes.eight > 0) break;  // weak votes count only without others
          const Layout* l = layout_for(a4, *k);
          if (l && len >= l->fixed_size && (len - l->fixed_size) % 8 == 4)
            votes.vote_weak4(where() + " (odd number of 4-byte frames)");
          break;
        }
        case Kind::map_in:
        case Kind::procexec:
        case Kind::mappingchange: {
          const bool f4 = path_fits(p, len, layout_for(a4, *k));
          const bool f8 = path_fits(p, len, layout_for(a8, *k));
          const bool fn = path_fits(p, len, layout_for(an, *k));
          const auto why = [&] { return where() + " (the path's NUL ends the record)"; };
          const auto narrow_why = [&] {
            return where() + " (the path follows a 4-byte address and its NUL ends the record "
                             "but for the rest of the slot)";
          };
          if (f4 + f8 + fn == 1) {
            const std::string w = fn ? narrow_why() : why();
            votes.vote(f4 ? 4 : 8, w);
            if (!f4) values.vote(fn, w);
          } else if (f8 && fn && !f4) {
            votes.vote(8, why());  // slots settled; the value width not (stale bytes are zero)
          }
          break;
        }
        default: break;
      }
      return votes.four + votes.eight < 64;  // plenty of evidence
    });
    if (votes.four == 0 && votes.eight == 0 && votes.weak4 > 0) {
      votes.four = votes.weak4;
      votes.first4 = votes.first_weak4;
    }
    auto arch_width = container ? container_arch_width(container->arch) : std::nullopt;
    if (given_slot) {
      // the slot width is settled; only the value width below may still use the records
    } else if (arch_width) {
      // Records of fixed size outvoting the arch (a 32-bit log recorded on a 64-bit machine,
      // or a wrong arch code) win; the arch is then only mentioned.
      const int agree = *arch_width == 4 ? votes.four : votes.eight;
      const int disagree = *arch_width == 4 ? votes.eight : votes.four;
      if (disagree > agree) arch_width.reset();
    }
    if (given_slot) {
    } else if (arch_width) {
      // The recorder's architecture decides; the records are a second opinion.
      abi.address_width = *arch_width;
      const int agree = abi.address_width == 4 ? votes.four : votes.eight;
      const int disagree = abi.address_width == 4 ? votes.eight : votes.four;
      std::string why = "the PMCL container's arch " +
                        std::string(*container_arch_name(container->arch)) + " (code " +
                        std::to_string(container->arch) + " at offset 6)";
      if (agree > 0) why += "; " + std::to_string(agree) + " record(s) agree";
      if (disagree > 0)
        why += "; " + std::to_string(disagree) + " record(s) suggest otherwise, first " +
               (abi.address_width == 4 ? votes.first8 : votes.first4);
      det.evidence.push_back("address width: " + std::to_string(abi.address_width) + " bytes (" +
                             why + ")");
    } else if (votes.four == 0 && votes.eight == 0) {
      abi.address_width = 8;
      det.width_assumed = true;
      det.evidence.push_back(
          "address width: 8 bytes (assumed: no MAP_OUT, path or other width-revealing record "
          "in the scanned data; use --address-width to set it)");
    } else {
      abi.address_width = votes.four > votes.eight ? 4 : 8;
      std::string why = abi.address_width == 4 ? votes.first4 : votes.first8;
      const int agree = abi.address_width == 4 ? votes.four : votes.eight;
      const int disagree = abi.address_width == 4 ? votes.eight : votes.four;
      if (agree > 1) why += "; " + std::to_string(agree - 1) + " more record(s) agree";
      if (disagree > 0) why += "; " + std::to_string(disagree) + " record(s) suggest otherwise";
      det.evidence.push_back("address width: " + std::to_string(abi.address_width) + " bytes (" +
                             why + ")");
    }
    if (container && !given_slot && !arch_width && !det.evidence.empty())
      det.evidence.back() += "; the PMCL container's arch " +
                             std::string(container_arch_name(container->arch).value_or("unknown")) +
                             " (code " + std::to_string(container->arch) + ") " +
                             (container_arch_width(container->arch) ? "is outvoted by the records"
                                                                     : "tells no width");
  }
  if (abi.address_width != 4 && abi.address_width != 8)
    return abi_error("address width " + std::to_string(abi.address_width) + " is not 4 or 8");

  // 3b. With 8-byte slots: 4-byte values (powerpc64 before main, mips n64 in 9.x) or 8.
  if (hint.address_width && hint.address_slot) {
    abi.address_width = *hint.address_width;
    abi.address_slot = *hint.address_slot;
    if (!valid_address_form(abi))
      return abi_error(std::to_string(abi.address_width) + "-byte addresses in " +
                       std::to_string(abi.slot_width()) +
                       "-byte slots: no kernel writes them (4 or 8 in as wide slots, or 4 in 8)");
    if (abi.narrow())
      det.evidence.push_back("address values: " + std::to_string(abi.address_width) +
                             " bytes in " + std::to_string(abi.slot_width()) + "-byte slots (given)");
  } else if (hint.address_width) {
    // --address-width alone: as wide as the slots
  } else if (abi.address_width == 8) {
    const uint32_t cputype =
        (legacy_init || modern_init) && d.size() >= size_t{len0}
            ? detail::load32(o, d.data() + (legacy_init ? 16 : 20))
            : 0;
    const bool ppc = (legacy_init || modern_init) && powerpc_cputype(cputype) &&
                     abi.generation != Generation::M10;
    std::string why;
    if (values.narrow > values.wide) {
      why = values.first_narrow;
      if (values.narrow > 1) why += "; " + std::to_string(values.narrow - 1) + " more record(s) agree";
      if (values.wide > 0)
        why += "; " + std::to_string(values.wide) + " record(s) suggest 8-byte values";
    } else if (values.wide == 0 && ppc) {
      why = "INITIALIZE cputype " + detail::hex32(cputype) + " at offset " +
            std::to_string(legacy_init ? 16 : 20) +
            " is a powerpc CPU, whose kernels before the M10 generation write 4-byte addresses";
    }
    if (!why.empty()) {
      abi.address_width = 4;
      abi.address_slot = 8;
      det.evidence.push_back("address values: 4 bytes in 8-byte slots (" + why + ")");
    } else if (values.narrow > 0) {
      det.evidence.push_back("address values: 8 bytes (" + values.first_wide + "; " +
                             std::to_string(values.narrow) +
                             " record(s) suggest 4-byte values in 8-byte slots)");
    }
  }

  // With values narrower than their slots, the width line above was about the slots.
  if (abi.narrow())
    for (std::string& e : det.evidence)
      if (e.starts_with("address width: ")) e.replace(0, 14, "address slots:");

  // time_t width of the modern INITIALIZE timespec (format.md §8.1): 104-byte INITIALIZE means i386.
  if (hint.time_width) {
    abi.time_width = *hint.time_width;
  } else if (!abi.legacy() && type0 == 3 && len0 == 104) {
    abi.time_width = 4;
  } else if (!abi.legacy() && type0 == 3 && len0 == 112) {
    abi.time_width = 8;
  } else {
    abi.time_width = abi.long_width();
  }
  if (!abi.legacy() && abi.time_width != abi.long_width())
    det.evidence.push_back("time_t: " + std::to_string(abi.time_width) +
                           " bytes (INITIALIZE length " + std::to_string(len0) + ")");
  return det;
}

}  // namespace

}  // namespace pmclog
