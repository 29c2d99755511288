#include "fault_injection.h"

#include <charconv>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "pmclog/endian_io.h"
#include "pmclog/kind.h"
#include "pmclog/layout.h"

namespace pmclog::write {

namespace {

struct KindName { FaultKind kind; const char* id; };
constexpr KindName kNames[] = {
    {FaultKind::truncate, "truncate"},
    {FaultKind::bad_magic, "bad-magic"},
    {FaultKind::bad_length, "bad-length"},
    {FaultKind::unknown_type, "unknown-type"},
    {FaultKind::unterminated_string, "unterminated-string"},
    {FaultKind::overlong_callchain, "overlong-callchain"},
    {FaultKind::time_backwards, "time-backwards"},
};

constexpr uint8_t kUnknownType = 200;  // defined by no generation (format.md §6)
constexpr uint8_t kBadMagic = 0xEF;

}  // namespace

std::string_view fault_id(FaultKind k) {
  for (const auto& n : kNames) {
    if (n.kind == k) return n.id;
  }
  return "?";
}

std::optional<FaultSpec> parse_fault(std::string_view s, std::string& why) {
  const size_t cut = s.find_first_of(":@");
  std::string_view name = s.substr(0, cut);
  std::optional<FaultKind> kind;
  for (const auto& n : kNames) {
    if (name == n.id) kind = n.kind;
  }
  if (name == "truncation" || name == "truncated") kind = FaultKind::truncate;
  if (name == "out-of-order" || name == "out-of-order-timestamps") kind = FaultKind::time_backwards;
  if (!kind) {
    why = "unknown fault kind '" + std::string(name) +
          "' (truncate, bad-magic, bad-length, unknown-type, unterminated-string, "
          "overlong-callchain, time-backwards)";
    return std::nullopt;
  }
  FaultSpec spec;
  spec.kind = *kind;
  if (cut == std::string_view::npos) {
    if (*kind != FaultKind::truncate) spec.rate = 0.001;
    return spec;
  }
  const std::string arg(s.substr(cut + 1));
  if (s[cut] == ':') {
    char* end = nullptr;
    const double r = std::strtod(arg.c_str(), &end);
    if (arg.empty() || *end != '\0' || !(r > 0 && r <= 1)) {
      why = "rate '" + arg + "' is not a number in (0, 1]";
      return std::nullopt;
    }
    spec.rate = r;
  } else {
    uint64_t off = 0;
    const int base = arg.rfind("0x", 0) == 0 ? 16 : 10;
    const char* b = arg.c_str() + (base == 16 ? 2 : 0);
    auto [p, ec] = std::from_chars(b, arg.c_str() + arg.size(), off, base);
    if (arg.empty() || ec != std::errc() || *p != '\0') {
      why = "offset '" + arg + "' is not a number";
      return std::nullopt;
    }
    spec.offset = off;
  }
  return spec;
}

FaultInjector::FaultInjector(const Abi& abi, std::vector<FaultSpec> specs, uint64_t seed)
    : abi_(abi), specs_(std::move(specs)), fired_(specs_.size()), rng_(mix(seed, 0xfa017)) {
  for (const FaultSpec& s : specs_) {
    threshold_.push_back(static_cast<uint64_t>(s.rate * 4294967296.0));
    if (s.kind == FaultKind::truncate && s.rate == 0 && !s.offset) hold_last_ = true;
  }
}

bool FaultInjector::eligible(FaultKind k, uint8_t type, uint32_t len) const {
  if (index_ == 0) return false;  // keep INITIALIZE: readers detect the ABI from it
  const auto kind = kind_of_type(abi_.generation, type);
  const Layout* l = kind ? layout_for(abi_, *kind) : nullptr;
  // Records whose loss a checker notices again later (samples of an unannounced pmc id,
  // unmapping of an unknown mapping, no CLOSELOG) are spared, so each fault gives exactly
  // one diagnostic; truncation alone also loses CLOSELOG.
  const bool consequential =
      kind && (*kind == Kind::initialize || *kind == Kind::pmcallocate ||
               *kind == Kind::pmcallocatedyn || *kind == Kind::map_in || *kind == Kind::closelog);
  switch (k) {
    case FaultKind::truncate: return true;
    case FaultKind::bad_magic:
    case FaultKind::unknown_type: return !consequential;
    case FaultKind::bad_length:
      return l && !consequential && !l->variable && len + 4 <= kMaxRecordLength;
    case FaultKind::unterminated_string: return l && !consequential && l->has(Field::path);
    case FaultKind::overlong_callchain: return l && kind == Kind::callchain;
    case FaultKind::time_backwards: return abi_.legacy() ? prev_sec_ > 0 : prev_tsc_ > 0;
  }
  return false;
}

void FaultInjector::note_time(const uint8_t* p) {
  if (abi_.legacy()) prev_sec_ = detail::load32(abi_.byte_order, p + 4);
  else prev_tsc_ = detail::load64_native(abi_.byte_order, p + 8);
}

void FaultInjector::apply(FaultKind k, const uint8_t* p, uint32_t len, std::vector<uint8_t>& out) {
  const ByteOrder o = abi_.byte_order;
  const size_t at = out.size();
  const uint32_t word = detail::load32(o, p);
  const uint8_t type = static_cast<uint8_t>(word >> 16);
  const auto kind = kind_of_type(abi_.generation, type);
  InjectedFault f{k, offset_, std::string(kind ? kind_id(*kind) : "unknown"), len, ""};
  switch (k) {
    case FaultKind::truncate:
      out.insert(out.end(), p, p + len / 2);
      f.expect = "truncated";
      stopped_ = true;
      break;
    case FaultKind::bad_magic:
      out.insert(out.end(), p, p + len);
      detail::store32(o, out.data() + at, (word & 0x00FFFFFFu) | uint32_t{kBadMagic} << 24);
      f.expect = "bad-magic";
      break;
    case FaultKind::unknown_type:
      out.insert(out.end(), p, p + len);
      detail::store32(o, out.data() + at, (word & 0xFF00FFFFu) | uint32_t{kUnknownType} << 16);
      f.expect = "unknown-type";
      break;
    case FaultKind::bad_length:
      out.insert(out.end(), p, p + len);
      out.insert(out.end(), 4, 0);
      f.length = len + 4;
      detail::store32(o, out.data() + at, (word & 0xFFFF0000u) | f.length);
      f.expect = "length-above-maximum";
      break;
    case FaultKind::unterminated_string: {
      out.insert(out.end(), p, p + len);
      const uint16_t path = layout_for(abi_, *kind)->find(Field::path)->offset;
      const void* nul = std::memchr(p + path, 0, len - path);
      const size_t from = nul ? static_cast<const uint8_t*>(nul) - p : len;
      std::memset(out.data() + at + from, 'X', len - from);
      f.expect = "unterminated-string";
      break;
    }
    case FaultKind::overlong_callchain: {
      const Layout* l = layout_for(abi_, Kind::callchain);
      const uint32_t a = abi_.slot_width();
      // L2 and L3 logs look alike (format.md §2.2), so a checker may apply L3's 128 to an L2
      // log: go past both limits there.
      const uint32_t limit = abi_.generation == Generation::L2 ? 128 : abi_.callchain_depth_max();
      const uint32_t n = (len - l->fixed_size) / a, want = limit + 1;
      out.insert(out.end(), p, p + len);
      for (uint32_t i = n; i < want; ++i) {
        if (n > 0) out.insert(out.end(), p + len - a, p + len);  // recursion of the last frame
        else out.insert(out.end(), a, 0);
      }
      f.length = l->fixed_size + std::max(n, want) * a;
      detail::store32(o, out.data() + at, (word & 0xFFFF0000u) | f.length);
      f.expect = "callchain-too-deep";
      break;
    }
    case FaultKind::time_backwards:
      out.insert(out.end(), p, p + len);
      if (abi_.legacy()) {
        detail::store32(o, out.data() + at + 4, prev_sec_ - 1);
        f.expect = "time-backwards";
      } else {
        // Modern logs are not in time order anyway (per-CPU buffers, format.md §3.4), so no
        // checker can flag this; it is offered for tools that sort by TSC.
        detail::store64_native(o, out.data() + at + 8, prev_tsc_ - 1);
      }
      break;
  }
  faults_.push_back(std::move(f));
}

void FaultInjector::one(const uint8_t* p, uint32_t len, std::vector<uint8_t>& out) {
  const uint8_t type = static_cast<uint8_t>(detail::load32(abi_.byte_order, p) >> 16);
  for (size_t i = 0; i < specs_.size(); ++i) {
    const FaultSpec& s = specs_[i];
    if (s.rate == 0 && !s.offset) continue;  // end-of-file truncation, handled by finish()
    if (!eligible(s.kind, type, len)) continue;
    bool fire = false;
    if (s.offset) fire = !fired_[i] && offset_ >= *s.offset;
    else fire = (rng_.next() >> 32) < threshold_[i];
    if (!fire) continue;
    fired_[i] = true;
    const size_t before = out.size();
    apply(s.kind, p, len, out);
    offset_ += out.size() - before;
    ++index_;
    note_time(p);
    return;
  }
  out.insert(out.end(), p, p + len);
  offset_ += len;
  ++index_;
  note_time(p);
}

void FaultInjector::process(std::span<const uint8_t> in, std::vector<uint8_t>& out) {
  size_t pos = 0;
  while (pos + 4 <= in.size() && !stopped_) {
    const uint32_t len = detail::load32(abi_.byte_order, in.data() + pos) & 0xFFFFu;
    if (len < abi_.header_size() || pos + len > in.size()) break;  // not ours: never happens
    if (hold_last_) {
      // Keep one record back: the last one is cut at the end (finish()).
      if (!held_.empty()) one(held_.data(), static_cast<uint32_t>(held_.size()), out);
      held_.assign(in.data() + pos, in.data() + pos + len);
    } else {
      one(in.data() + pos, len, out);
    }
    pos += len;
  }
}

void FaultInjector::finish(std::vector<uint8_t>& out) {
  if (!hold_last_ || held_.empty() || stopped_) return;
  if (index_ == 0) {  // the only record: keep it whole
    out.insert(out.end(), held_.begin(), held_.end());
    return;
  }
  apply(FaultKind::truncate, held_.data(), static_cast<uint32_t>(held_.size()), out);
}

std::optional<size_t> FaultInjector::unmet_offset() const {
  for (size_t i = 0; i < specs_.size(); ++i) {
    if (specs_[i].offset && !fired_[i]) return i;
  }
  return std::nullopt;
}

std::string FaultInjector::listing_json() const {
  std::string s = "[";
  for (size_t i = 0; i < faults_.size(); ++i) {
    const InjectedFault& f = faults_[i];
    s += fmt::format("{}\n  {{\"kind\":\"{}\",\"offset\":{},\"record\":\"{}\",\"length\":{},"
                     "\"expect\":{}}}",
                     i ? "," : "", fault_id(f.kind), f.offset, f.record, f.length,
                     f.expect.empty() ? std::string("null") : "\"" + f.expect + "\"");
  }
  s += faults_.empty() ? "]\n" : "\n]\n";
  return s;
}

}  // namespace pmclog::write
