#include "json_input.h"

#include <algorithm>
#include <deque>
#include <set>
#include <string_view>

#include <fmt/format.h>

#include "line_reader.h"
#include "pmclog/container.h"
#include "pmclog/encode.h"
#include "pmclog/json.h"
#include "pmclog/kind.h"
#include "pmclog/layout.h"
#include "pmclog/names.h"
#include "pmclog/open.h"
#include "diagnostics.h"
#include "record_stream.h"
#include "tool_error.h"

namespace pmclog::write {

namespace {

bool blank(std::string_view s) {
  for (char c : s) {
    if (c != ' ' && c != '\t' && c != '\r') return false;
  }
  return true;
}

std::optional<Generation> generation_of_version(uint32_t version) {
  switch (version_major(version)) {
    case 1: return Generation::L1;
    case 3: return Generation::L3;  // L2 and L3 share 3.1.0 (format.md §2); L3 is the superset
    case 9: return Generation::M9;
    default: break;
  }
  if (version_major(version) >= 0x0A) return Generation::M10;
  return std::nullopt;
}

// Binary input is refused with a hint rather than reported as "invalid JSON" on line 1.
void refuse_non_text(std::string_view head, const std::string& name) {
  const auto* b = reinterpret_cast<const uint8_t*>(head.data());
  // A log starts with a header word whose magic byte 0xEE is byte 3 (little-endian) or
  // byte 0 (big-endian) (format.md §2.2); no JSON text starts like that.
  if (head.size() >= 4 && (b[0] == kHeaderMagic || (b[3] == kHeaderMagic && b[0] % 4 == 0) ||
                           has_container_magic({b, 4})))
    throw tools::Failure(tools::Exit::bad_data, name + ": this is a pmclog file, not JSON Lines (use "
                                         "pmclog-dump --format=jsonl)");
  const std::span<const uint8_t> bytes(b, head.size());
  if (auto what = foreign_format(bytes))
    throw tools::Failure(tools::Exit::bad_data, name + ": this is " + *what + ", not JSON Lines");
  const Compression c = sniff_compression(bytes);
  if (c != Compression::none)
    throw tools::Failure(tools::Exit::bad_data, name + ": this is " + compression_name(c) +
                                      "-compressed, not JSON Lines; decompress it first");
}

// Settles the ABI from the options and a look at the first lines.
class AbiResolver {
 public:
  explicit AbiResolver(const JsonOptions& opt) : opt_(opt) {}

  // Feeds one line (its members `h`); returns true once everything is settled.
  bool feed(std::string_view line, const JsonLineHead& h) {
    if (!have_gen_) {
      std::optional<Generation> g;
      if (!h.generation.empty()) g = parse_generation(h.generation);
      if (!g && h.type == "initialize" && h.has_version)
        g = generation_of_version(static_cast<uint32_t>(h.version));
      gen_ = g ? *g : Generation::L3;  // the first record tells nothing: the usual default
      if (opt_.modern && !(gen_ == Generation::M9 || gen_ == Generation::M10))
        gen_ = Generation::M9;
      if (opt_.generation) gen_ = *opt_.generation;
      have_gen_ = true;
    }
    if (!have_order_ && !h.byte_order.empty()) {
      if (auto o = parse_byte_order(h.byte_order)) {
        order_ = *o;
        have_order_ = true;
      }
    }
    if (!width_ && (h.address_width == 4 || h.address_width == 8)) {
      width_ = static_cast<uint8_t>(h.address_width);
      // The same line says whether the addresses fill their slots (absent: they do).
      if (h.address_slot == 4 || h.address_slot == 8) slot_ = static_cast<uint8_t>(h.address_slot);
    }
    if (!time_width_ && (h.time_width == 4 || h.time_width == 8))
      time_width_ = static_cast<uint8_t>(h.time_width);
    if (!width_ && h.has_length) infer_width(line, h);
    return settled();
  }

  Abi abi() const {
    const Generation g = have_gen_ ? gen_
                                   : opt_.generation.value_or(opt_.modern ? Generation::M9
                                                                          : Generation::L3);
    const ByteOrder o = opt_.byte_order.value_or(have_order_ ? order_ : ByteOrder::little);
    const uint8_t w = opt_.address_width.value_or(width_ ? width_ : 8);
    const uint8_t slot = opt_.address_slot.value_or(opt_.address_width ? w : (slot_ ? slot_ : w));
    Abi a{g, w, o, time_width_ ? time_width_ : default_time_width(slot, o)};
    if (slot != w) a.address_slot = slot;
    return a;
  }
  // The byte order of a pmcl-header line (the container's is the log's, format.md §18).
  void container_byte_order(std::string_view line) {
    if (have_order_) return;
    auto c = parse_container_json(line, ByteOrder::little);
    if (c.ok() && c->header && c->has_byte_order) {
      order_ = c->head.byte_order;
      have_order_ = true;
    }
  }
  bool width_assumed() const { return !opt_.address_width && !width_ && width_mattered_; }

 private:
  bool settled() const {
    return have_gen_ && (opt_.address_width || width_);  // byte order has no evidence in JSON
  }

  // The width under which the stated length is the kernel's length for the contents. The
  // line is read under both widths: a strict reader refuses a length the contents contradict.
  void infer_width(std::string_view line, const JsonLineHead& h) {
    const Generation g = gen_;
    const ByteOrder o = opt_.byte_order.value_or(have_order_ ? order_ : ByteOrder::little);
    if (h.type == "initialize" && g >= Generation::M9) {
      // 104 bytes only with a 4-byte time_t (format.md §8.1).
      if (h.length == 104) time_width_ = 4;
      if (h.length == 112) time_width_ = 8;
    }
    const auto fits = [&](uint8_t w) {
      const Abi a{g, w, o, w};
      JsonLineInfo info;
      auto rec = parse_json_record_info(line, a, info);
      if (!rec.ok() || rec->value.kind == Kind::unknown) return false;
      bool uses_width = false;
      for (const FieldSpec& f : *layout_for(a, rec->value.kind))
        uses_width |= f.type == FieldType::addr || f.type == FieldType::addrs;
      if (!uses_width) return false;
      width_mattered_ = true;
      RecordValue v = rec->value;
      v.length = 0;
      const auto l = encoded_length(v, a, EncodeOptions{false});
      return l.ok() && l.value() == h.length;
    };
    const bool fits8 = fits(8), fits4 = fits(4);
    if (fits8 && !fits4) width_ = 8;
    if (fits4 && !fits8) width_ = 4;
  }

  const JsonOptions& opt_;
  // Plain values with "unset" states: GCC 12 warns falsely about std::optional<uint8_t> here.
  Generation gen_ = Generation::L3;
  ByteOrder order_ = ByteOrder::little;
  bool have_gen_ = false, have_order_ = false;
  uint8_t width_ = 0, time_width_ = 0, slot_ = 0;  // 0: not settled
  bool width_mattered_ = false;
};

constexpr size_t kLookaheadLines = 4096;

}  // namespace

uint8_t default_time_width(uint8_t address_width, ByteOrder order) {
  return address_width == 4 && order == ByteOrder::little ? 4 : 8;
}

namespace {

// Which lines are written when a dump of several logs is the input: the file `opt.file`
// names, else the only one there is (lines without a "file" member belong to none).
class FileFilter {
 public:
  FileFilter(const JsonOptions& opt, LineReader& reader, const std::string& name)
      : opt_(opt), reader_(reader), name_(name) {}

  bool selecting() const { return opt_.file.has_value(); }
  bool wanted(bool has_file, std::string_view file) {
    if (has_file) seen_.emplace(file);
    if (!selecting()) {
      if (has_file && seen_.size() > 1) refuse_mixed();
      return true;
    }
    const bool hit = has_file && file == *opt_.file;
    matched_ |= hit;
    return hit;
  }
  // After the last line: a --file that matched nothing is an error.
  void finish() const {
    if (!selecting() || matched_) return;
    throw tools::Failure(tools::Exit::usage,
                    seen_.empty()
                        ? fmt::format("--file {}: no line of {} has a \"file\" member", *opt_.file, name_)
                        : fmt::format("--file {}: no line of {} is of that file (files: {})",
                                      *opt_.file, name_, listing()));
  }

 private:
  // The rest of the input is only peeked at, to name every file in the message.
  [[noreturn]] void refuse_mixed() {
    const uint64_t at = reader_.line_number();
    std::string_view line;
    while (seen_.size() <= kListed && reader_.next(line)) {
      if (blank(line)) continue;
      auto h = peek_json_line(PaddedLine{line});
      if (h.ok() && h->has_file) seen_.insert(h->file);
    }
    throw tools::Failure(tools::Exit::bad_data,
                    fmt::format("{}:{}: input holds records of {}{} files ({}); choose one with "
                                "--file NAME",
                                name_, at, seen_.size() > kListed ? "more than " : "",
                                std::min(seen_.size(), kListed), listing()));
  }
  std::string listing() const {
    std::string s;
    size_t n = 0;
    for (const std::string& f : seen_) {
      if (n++ == kListed) break;
      if (!s.empty()) s += ", ";
      s += display_name(f);
    }
    return s;
  }
  static std::string display_name(const std::string& f) {
    std::string s;
    for (char c : f) s += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? '?' : c;
    return s;
  }
  static constexpr size_t kListed = 8;

  const JsonOptions& opt_;
  LineReader& reader_;
  const std::string& name_;
  std::set<std::string, std::less<>> seen_;
  bool matched_ = false;
};

}  // namespace

void convert_jsonl(ByteSource& src, const std::string& name, const JsonOptions& opt,
                   const std::function<RecordStream&(const Abi&)>& open) {
  LineReader reader(src, name);
  reader.set_compressed(opt.compressed);
  refuse_non_text(reader.head(kSniffBytes), name);
  AbiResolver resolver(opt);
  FileFilter files(opt, reader, name);
  // Lines read before the ABI is settled, with their numbers (and whether they are written).
  struct Ahead {
    uint64_t lineno;
    std::string text;
  };
  std::deque<Ahead> ahead;
  std::string_view line;
  bool more = true, any = false;
  while (ahead.size() < kLookaheadLines) {
    if (!(more = reader.next(line))) break;
    ahead.push_back({reader.line_number(), std::string(line)});
    if (blank(line)) continue;
    any = true;
    if (is_container_json_line(line)) {  // the container tells the byte order, no more
      resolver.container_byte_order(line);
      continue;
    }
    auto h = peek_json_line(PaddedLine{line});
    if (!h.ok()) continue;  // reported with its line number below
    // Only the chosen file's lines tell its ABI (files of one dump may differ).
    if (files.selecting() && !(h->has_file && h->file == *opt.file)) continue;
    if (resolver.feed(line, *h)) break;
  }
  // No record at all: refused before the output is opened, so no empty log is left behind.
  if (!more && !any)
    throw tools::Failure(tools::Exit::bad_data, name + ": empty input: no INITIALIZE record (no JSON line)");
  const Abi abi = resolver.abi();
  if (resolver.width_assumed() && !opt.quiet)
    tools::diag().note(fmt::format("no record settles the address width; assuming {}-bit (use "
                                   "--address-width)", abi.address_width * 8));
  RecordStream* stream = nullptr;
  const auto output = [&]() -> RecordStream& {
    if (!stream) stream = &open(abi);
    return *stream;
  };
  // Without --file the output is opened now, as before; with it, at the first chosen line.
  if (!files.selecting()) output();
  const bool forced_gen = opt.generation.has_value();

  uint64_t lineno = 0, nrecords = 0;
  uint32_t prev_sec = 0, prev_nsec = 0;
  uint64_t prev_tsc = 0;
  JsonLineInfo info;
  auto fail = [&](const std::string& msg) -> void {
    throw tools::Failure(tools::Exit::bad_data, fmt::format("{}:{}: {}", name, lineno, msg));
  };
  // Two logs in one stream (two dumps concatenated): said as such, not as a wrong type code
  // of the second log's first line. Only on the error path: good lines are not peeked twice.
  const auto refuse_second_log = [&](Generation second) {
    fail(fmt::format("input holds records of more than one log (an INITIALIZE of generation {} "
                     "after records of {}); write one log at a time, or dump the logs together "
                     "(pmclog-dump --format=jsonl A B) and choose one with --file NAME",
                     generation_name(second), generation_name(abi.generation)));
  };
  const auto another_log = [&](std::string_view text) {
    auto h = peek_json_line(text);
    if (!h.ok()) return;
    if (!files.selecting() && h->has_file) files.wanted(true, h->file);  // a second "file"
    if (nrecords == 0 || h->type != "initialize") return;
    std::optional<Generation> g;
    if (!h->generation.empty()) g = parse_generation(h->generation);
    if (!g && h->has_version) g = generation_of_version(static_cast<uint32_t>(h->version));
    if (g && *g != abi.generation) refuse_second_log(*g);
  };
  // The PMCL container (docs/jsonl.md): its lines come first, header then infos, DONE last;
  // written in the log's byte order.
  enum class Box { none, open, done } box = Box::none;
  const auto container_line = [&](std::string_view text) {
    auto c = parse_container_json(text, abi.byte_order);
    if (!c.ok()) fail(c.error().message);
    if (!files.wanted(c->has_file, c->file)) return;  // another file's container
    if (nrecords > 0)
      fail("a " + std::string(c->header ? "pmcl-header" : "pmcl-info") +
           " line after the first record: the PMCL container goes in front of the log");
    std::vector<uint8_t> out;
    if (c->header) {
      if (box != Box::none) fail("a second pmcl-header line: a log has one PMCL container");
      c->head.byte_order = abi.byte_order;
      encode_container_header(c->head, out);
      box = Box::open;
    } else {
      if (box == Box::none) fail("a pmcl-info line before the pmcl-header line");
      if (box == Box::done) fail("a pmcl-info line after the DONE info: the log starts there");
      if (auto r = encode_container_info(c->info, abi.byte_order, out); !r.ok())
        fail(r.error().message);
      if (c->info.type == static_cast<uint8_t>(InfoType::done)) box = Box::done;
    }
    output().write_raw(out);
  };
  auto handle = [&](std::string_view text, uint64_t number, bool padded) {
    lineno = number;
    if (blank(text)) return;
    const bool container = is_container_json_line(text);
    if (container) return container_line(text);
    if (files.selecting()) {
      auto h = padded ? peek_json_line(PaddedLine{text}) : peek_json_line(text);
      if (!h.ok()) fail(h.error().message);
      if (!files.wanted(h->has_file, h->file)) return;
    }
    if (box == Box::open) {  // the infos ended without DONE: a reader needs it
      std::vector<uint8_t> done;
      encode_container_info(make_done(), abi.byte_order, done);
      output().write_raw(done);
      box = Box::done;
      if (!opt.quiet)
        tools::diag().note("the PMCL container has no DONE info; adding one");
    }
    auto parsed = padded ? parse_json_record_info(PaddedLine{text}, abi, info)
                         : parse_json_record_info(text, abi, info);
    if (!parsed.ok()) {
      another_log(text);
      fail(parsed.error().message);
    }
    if (!files.selecting()) files.wanted(info.has_file, info.file);
    RecordStream& out_stream = output();
    RecordValue& v = parsed->value;
    if (!info.generation.empty() && !forced_gen) {
      const auto g = parse_generation(info.generation);
      if (!g) fail("field 'generation': unknown generation \"" + info.generation + "\"");
      if (*g != abi.generation && v.kind == Kind::initialize && nrecords > 0)
        refuse_second_log(*g);
      if (*g != abi.generation)
        fail(fmt::format("field 'generation': {} differs from the log's generation {}",
                         info.generation, generation_name(abi.generation)));
    }
    const auto given = [&](Field f) {
      return (info.present_scalars >> static_cast<int>(f) & 1) != 0;
    };
    if (nrecords == 0 && v.kind != Kind::initialize && !info.has_offset) {
      // Hand-written input without INITIALIZE: readers need one first (format.md §2.2).
      RecordValue init;
      init.kind = Kind::initialize;
      init[Field::version] = typical_pmc_version(abi.generation);
      if (!opt.quiet)
        tools::diag().note("the input starts without INITIALIZE; adding one for " + describe(abi));
      if (auto r = encode(init, abi, out_stream.pending()); !r.ok()) fail(r.error().message);
      out_stream.added();
      ++nrecords;
    }
    if (v.kind == Kind::initialize && !given(Field::version))
      v[Field::version] = typical_pmc_version(abi.generation);
    // Header times that were left out only need to increase (docs/jsonl.md).
    if (abi.legacy()) {
      if (!info.has_ts_sec && !info.has_ts_nsec) {
        v.ts_sec = prev_sec;
        v.ts_nsec = prev_nsec + 1;
        if (v.ts_nsec > 0xFFFFFFFu) {
          v.ts_sec += 1;
          v.ts_nsec = 0;
        }
      }
      prev_sec = v.ts_sec;
      prev_nsec = v.ts_nsec;
    } else {
      if (!info.has_tsc) v.tsc = prev_tsc + 1;
      prev_tsc = v.tsc;
    }
    std::vector<uint8_t>& out = out_stream.pending();
    const size_t at = out.size();
    const auto len = encode(v, abi, out);
    if (!len.ok()) fail(len.error().message);
    if (!parsed->patches.empty() &&
        !apply_patches({out.data() + at, len.value()}, parsed->patches))
      fail(fmt::format("field 'unwritten': a patch falls outside the {}-byte record", len.value()));
    ++nrecords;
    out_stream.added();
  };
  for (const Ahead& a : ahead) handle(a.text, a.lineno, false);
  ahead.clear();
  while (more && reader.next(line)) handle(line, reader.line_number(), true);
  files.finish();
}

}  // namespace pmclog::write
