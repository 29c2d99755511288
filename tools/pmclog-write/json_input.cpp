#include "json_input.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <deque>
#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "pmclog/json.h"
#include "pmclog/encode.h"
#include "pmclog/json.h"
#include "pmclog/kind.h"
#include "pmclog/layout.h"
#include "pmclog/names.h"
#include "record_stream.h"
#include "tool_error.h"

namespace pmclog::write {

namespace {

// Lines of a file descriptor, read in large blocks. A returned view stays valid until the
// next call.
class LineReader {
 public:
  LineReader(int fd, std::string name) : fd_(fd), name_(std::move(name)), buf_(1 << 20) {}

  bool next(std::string_view& line) {
    for (;;) {
      if (const void* nl = std::memchr(buf_.data() + pos_, '\n', end_ - pos_)) {
        const size_t at = static_cast<const char*>(nl) - buf_.data();
        line = std::string_view(buf_.data() + pos_, at - pos_);
        pos_ = at + 1;
        return true;
      }
      if (eof_) {
        if (pos_ == end_) return false;
        line = std::string_view(buf_.data() + pos_, end_ - pos_);
        pos_ = end_;
        return true;
      }
      // Keep the partial line, make room (growing for very long lines), read more.
      std::memmove(buf_.data(), buf_.data() + pos_, end_ - pos_);
      end_ -= pos_;
      pos_ = 0;
      if (end_ == buf_.size()) buf_.resize(buf_.size() * 2);
      ssize_t r;
      do {
        r = ::read(fd_, buf_.data() + end_, buf_.size() - end_);
      } while (r < 0 && errno == EINTR);
      if (r < 0) throw ToolError(kExitUsageOrIo, "cannot read " + name_ + ": " + std::strerror(errno));
      if (r == 0) eof_ = true;
      end_ += static_cast<size_t>(r);
    }
  }

 private:
  int fd_;
  std::string name_;
  std::vector<char> buf_;
  size_t pos_ = 0, end_ = 0;
  bool eof_ = false;
};

bool blank(std::string_view s) {
  for (char c : s) {
    if (c != ' ' && c != '\t' && c != '\r') return false;
  }
  return true;
}

std::optional<Generation> generation_of_version(uint32_t version) {
  switch (version_major(version)) {
    case 1: return Generation::L1;
    case 3: return Generation::L3;  // L2 and L3 share 3.1.0 (FORMAT.md §1); L3 is the superset
    case 9: return Generation::M9;
    default: break;
  }
  if (version_major(version) >= 0x0A) return Generation::M10;
  return std::nullopt;
}

uint64_t number_of(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end()) return 0;
  if (it->is_number_unsigned()) return it->get<uint64_t>();
  if (it->is_string()) {
    const std::string s = it->get<std::string>();
    return std::strtoull(s.c_str(), nullptr, 0);
  }
  return 0;
}

// Settles the ABI from the options and a look at the first lines.
class AbiResolver {
 public:
  explicit AbiResolver(const JsonOptions& opt) : opt_(opt) {}

  // Feeds one line; returns true once everything is settled.
  bool feed(std::string_view line) {
    if (blank(line)) return settled();
    const auto j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!j.is_object()) return settled();
    if (!have_gen_) {
      std::optional<Generation> g;
      if (auto it = j.find("generation"); it != j.end() && it->is_string())
        g = parse_generation(it->get<std::string>());
      if (!g && j.value("type", "") == "initialize" && j.contains("version"))
        g = generation_of_version(static_cast<uint32_t>(number_of(j, "version")));
      gen_ = g ? *g : Generation::L3;  // the first record tells nothing: the usual default
      if (opt_.modern && !(gen_ == Generation::M9 || gen_ == Generation::M10))
        gen_ = Generation::M9;
      if (opt_.generation) gen_ = *opt_.generation;
      have_gen_ = true;
    }
    if (!have_order_) {
      if (auto it = j.find("byte_order"); it != j.end() && it->is_string()) {
        if (auto o = parse_byte_order(it->get<std::string>())) {
          order_ = *o;
          have_order_ = true;
        }
      }
    }
    if (!width_) {
      const uint64_t w = number_of(j, "address_width");
      if (w == 4 || w == 8) width_ = static_cast<uint8_t>(w);
    }
    if (!time_width_) {
      const uint64_t t = number_of(j, "time_width");
      if (t == 4 || t == 8) time_width_ = static_cast<uint8_t>(t);
    }
    if (!width_ && j.contains("length")) infer_width(line, j);
    return settled();
  }

  Abi abi() const {
    const Generation g = have_gen_ ? gen_
                                   : opt_.generation.value_or(opt_.modern ? Generation::M9
                                                                          : Generation::L3);
    const ByteOrder o = opt_.byte_order.value_or(have_order_ ? order_ : ByteOrder::little);
    const uint8_t w = opt_.address_width.value_or(width_ ? width_ : 8);
    Abi a{g, w, o, time_width_ ? time_width_ : default_time_width(w, o)};
    return a;
  }
  bool width_assumed() const { return !opt_.address_width && !width_ && width_mattered_; }

 private:
  bool settled() const {
    return have_gen_ && (opt_.address_width || width_);  // byte order has no evidence in JSON
  }

  void infer_width(std::string_view line, const nlohmann::json& j) {
    const uint64_t length = number_of(j, "length");
    const Generation g = gen_;
    const ByteOrder o = opt_.byte_order.value_or(have_order_ ? order_ : ByteOrder::little);
    if (j.value("type", "") == "initialize" && g >= Generation::M9) {
      // 104 bytes only with a 4-byte time_t (FORMAT.md §5).
      if (length == 104) time_width_ = 4;
      if (length == 112) time_width_ = 8;
    }
    Abi a8{g, 8, o, 8}, a4{g, 4, o, 4};
    JsonLineInfo info;
    auto rec = parse_json_record_info(line, a8, info);
    if (!rec.ok() || rec->value.kind == Kind::unknown) return;
    const Layout* l = layout_for(a8, rec->value.kind);
    bool uses_width = false;
    for (const FieldSpec& f : *l) uses_width |= f.type == FieldType::addr || f.type == FieldType::addrs;
    if (!uses_width) return;
    width_mattered_ = true;
    RecordValue v = rec->value;
    v.length = 0;
    const auto l8 = encoded_length(v, a8, EncodeOptions{false});
    const auto l4 = encoded_length(v, a4, EncodeOptions{false});
    const bool fits8 = l8.ok() && l8.value() == length, fits4 = l4.ok() && l4.value() == length;
    if (fits8 && !fits4) width_ = 8;
    if (fits4 && !fits8) width_ = 4;
  }

  const JsonOptions& opt_;
  // Plain values with "unset" states: GCC 12 warns falsely about std::optional<uint8_t> here.
  Generation gen_ = Generation::L3;
  ByteOrder order_ = ByteOrder::little;
  bool have_gen_ = false, have_order_ = false;
  uint8_t width_ = 0, time_width_ = 0;  // 0: not settled
  bool width_mattered_ = false;
};

constexpr size_t kLookaheadLines = 4096;

}  // namespace

uint8_t default_time_width(uint8_t address_width, ByteOrder order) {
  return address_width == 4 && order == ByteOrder::little ? 4 : 8;
}

void convert_jsonl(int fd, const std::string& name, const JsonOptions& opt,
                   const std::function<RecordStream&(const Abi&)>& open) {
  LineReader reader(fd, name);
  AbiResolver resolver(opt);
  std::deque<std::string> ahead;
  std::string_view line;
  bool more = true;
  while (ahead.size() < kLookaheadLines) {
    if (!(more = reader.next(line))) break;
    ahead.emplace_back(line);
    if (resolver.feed(line)) break;
  }
  // No record at all: refused before the output is opened, so no empty log is left behind.
  if (!more && std::all_of(ahead.begin(), ahead.end(), [](const std::string& l) { return blank(l); }))
    throw ToolError(kExitBadData, name + ": empty input: no INITIALIZE record (no JSON line)");
  const Abi abi = resolver.abi();
  if (resolver.width_assumed() && !opt.quiet)
    fmt::print(stderr, "pmclog-write: note: no record settles the address width; assuming "
                       "{}-bit (use --address-width)\n", abi.address_width * 8);
  RecordStream& stream = open(abi);
  const bool forced_gen = opt.generation.has_value();

  uint64_t lineno = 0, nrecords = 0;
  uint32_t prev_sec = 0, prev_nsec = 0;
  uint64_t prev_tsc = 0;
  JsonLineInfo info;
  auto fail = [&](const std::string& msg) -> void {
    throw ToolError(kExitBadData, fmt::format("{}:{}: {}", name, lineno, msg));
  };
  auto handle = [&](std::string_view text) {
    ++lineno;
    if (blank(text)) return;
    auto parsed = parse_json_record_info(text, abi, info);
    if (!parsed.ok()) fail(parsed.error().message);
    RecordValue& v = parsed->value;
    if (!info.generation.empty() && !forced_gen) {
      const auto g = parse_generation(info.generation);
      if (!g) fail("field 'generation': unknown generation \"" + info.generation + "\"");
      if (*g != abi.generation)
        fail(fmt::format("field 'generation': {} differs from the log's generation {}",
                         info.generation, generation_name(abi.generation)));
    }
    const auto given = [&](Field f) {
      return (info.present_scalars >> static_cast<int>(f) & 1) != 0;
    };
    if (nrecords == 0 && v.kind != Kind::initialize && !info.has_offset) {
      // Hand-written input without INITIALIZE: readers need one first (FORMAT.md §1.3).
      RecordValue init;
      init.kind = Kind::initialize;
      init[Field::version] = typical_pmc_version(abi.generation);
      if (!opt.quiet)
        fmt::print(stderr, "pmclog-write: note: the input starts without INITIALIZE; adding "
                           "one for {}\n", describe(abi));
      if (auto r = encode(init, abi, stream.pending()); !r.ok()) fail(r.error().message);
      stream.added();
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
    std::vector<uint8_t>& out = stream.pending();
    const size_t at = out.size();
    const auto len = encode(v, abi, out);
    if (!len.ok()) fail(len.error().message);
    if (!parsed->patches.empty() &&
        !apply_patches({out.data() + at, len.value()}, parsed->patches))
      fail(fmt::format("field 'unwritten': a patch falls outside the {}-byte record", len.value()));
    ++nrecords;
    stream.added();
  };
  for (const std::string& l : ahead) handle(l);
  ahead.clear();
  while (more && reader.next(line)) handle(line);
}

}  // namespace pmclog::write
