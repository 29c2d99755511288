#include "scan.h"

#include <fmt/format.h>

#include <algorithm>

#include <cstring>
#include <string_view>

#include "checker.h"
#include "pmclog/decode.h"
#include "pmclog/endian_io.h"
#include "pmclog/kind.h"
#include "pmclog/layout.h"
#include "pmclog/open.h"

namespace pmclog::validate {

namespace {

// Enough bytes to see a damaged record (at most 65535) and the record after it.
constexpr size_t kLookahead = 2 * 65536 + 64;

uint32_t load32(const Abi& abi, const uint8_t* p) {
  return pmclog::detail::load32(abi.byte_order, p);  // byte order in one place (endian_io.h)
}

// The library's messages start with "record at offset N: "; our lines already show it.
std::string_view strip_offset(std::string_view m) {
  constexpr std::string_view kPrefix = "record at offset ";
  if (m.substr(0, kPrefix.size()) == kPrefix) {
    const size_t colon = m.find(": ");
    if (colon != std::string_view::npos) return m.substr(colon + 2);
  }
  return m;
}

struct Header {
  bool present = false;  // at least 4 bytes
  uint32_t word = 0;
  uint8_t type = 0;
  uint16_t length = 0;
  const Layout* layout = nullptr;
  // Magic, length and type all agree with what the kernel could write for this ABI.
  bool sound = false;
};

Header read_header(const Abi& abi, std::span<const uint8_t> b) {
  Header h;
  if (b.size() < 4) return h;
  h.present = true;
  h.word = load32(abi, b.data());
  h.type = static_cast<uint8_t>(h.word >> 16);
  h.length = static_cast<uint16_t>(h.word & 0xFFFF);
  h.layout = layout_for_type(abi, h.type);
  h.sound = (h.word >> 24) == kHeaderMagic && h.length >= abi.header_size() &&
            (h.length & 3u) == 0 && h.layout != nullptr &&
            (h.layout->variable ? h.length >= h.layout->min_length()
                                : h.length == h.layout->fixed_size);
  return h;
}

// Generations other than the log's in which the bytes form a valid record (format.md §6:
// type numbers and header sizes differ between eras).
std::string foreign_generations(const Abi& abi, std::span<const uint8_t> b) {
  std::string out;
  for (int g = 0; g < kGenerationCount; ++g) {
    Abi other = abi;
    other.generation = static_cast<Generation>(g);
    if (other.generation == abi.generation) continue;
    if (plausible_record(other, b.data(), b.size())) {
      if (!out.empty()) out += '/';
      out += generation_name(other.generation);
    }
  }
  return out;
}

Rule rule_for(Errc c) {
  switch (c) {
    case Errc::bad_magic: return Rule::bad_magic;
    case Errc::length_below_header: return Rule::length_below_header;
    case Errc::length_not_multiple_of_4: return Rule::length_unaligned;
    case Errc::length_below_minimum: return Rule::length_below_minimum;
    case Errc::length_wrong_size:
    case Errc::length_above_maximum: return Rule::length_above_maximum;
    case Errc::unknown_type: return Rule::unknown_type;
    case Errc::unterminated_string: return Rule::unterminated_string;
    case Errc::callchain_too_deep: return Rule::callchain_too_deep;
    case Errc::callchain_misaligned: return Rule::callchain_misaligned;
    case Errc::truncated: return Rule::truncated;
    default: return Rule::bad_magic;
  }
}

class Scanner {
 public:
  Scanner(LogReader& rd, const Config& cfg, FileResult& res)
      : rd_(rd), abi_(rd.abi()), cfg_(cfg), res_(res), sink_(cfg.max_diagnostics),
        checker_(abi_, cfg, sink_) {}

  void run() {
    Error e;
    const bool track = static_cast<bool>(cfg_.progress);
    for (;;) {
      // for_each decodes the common records inline; it returns at the end or at damage.
      const Step s = rd_.for_each(
          [&](const Record& r) {
            if (track && (index_ & 0x3FFF) == 0) [[unlikely]] cfg_.progress(r.offset);
            checker_.record(r, index_++);
          },
          e);
      if (s == Step::end) break;
      if (e.code == Errc::io) {
        res_.io_error = true;
        res_.io_message = e.message;
        break;
      }
      if (e.code == Errc::compressed_damaged) {  // no bytes after it: nothing to go on with
        tail(Rule::compressed_damaged, e.offset, e.message);
        break;
      }
      checker_.damaged();
      damage(e);
      ++index_;
    }
    res_.bytes = rd_.offset();
    res_.records = index_;
    checker_.finish(res_.bytes, index_, tail_damaged_);
    res_.errors = sink_.errors();
    res_.warnings = sink_.warnings();
    res_.not_shown = sink_.dropped();
    res_.diagnostics = sink_.take_sorted();
  }

 private:
  void report(Rule rule, uint64_t offset, std::string message) {
    if (!cfg_.on(rule)) return;
    sink_.add(Diagnostic{offset, index_, rule, info(rule).severity, std::move(message), 0});
  }

  bool at_eof() { return rd_.peek(1).empty(); }

  // Resynchronizes; returns a note about the skipped bytes, and whether the end was reached.
  std::string resync(bool& reached_end) {
    const SkippedRange sr = rd_.resync();
    reached_end = at_eof();
    if (reached_end) return fmt::format("; {} bytes skipped to the end of the log", sr.to - sr.from);
    return fmt::format("; {} bytes skipped to the next record at {:#x}", sr.to - sr.from, sr.to);
  }

  // One damaged record position: report it under the right rule and move past it.
  void damage(const Error& e) {
    const uint64_t at = rd_.offset();
    const std::span<const uint8_t> b = rd_.peek(kLookahead);
    const Header h = read_header(abi_, b);
    const std::string what(strip_offset(e.message));
    bool end = false;

    switch (e.code) {
      case Errc::truncated: {
        if (!h.present) {
          rd_.resync();
          tail(Rule::truncated, at,
               fmt::format("the log ends inside a record header: {} of the {} header bytes, "
                           "at least {} bytes missing",
                           b.size(), abi_.header_size(), abi_.header_size() - b.size()));
          return;
        }
        const std::string note = resync(end);
        if (end && h.sound) {
          tail(Rule::truncated, at,
               fmt::format("{} record of length {} runs past the end of the log: {} bytes "
                           "missing",
                           kind_name(h.layout->kind), h.length, h.length - b.size()));
        } else if (end) {
          tail(Rule::trailing_garbage, at,
               fmt::format("{} bytes after the last record do not form a record (header word "
                           "{:#010x}, length {} past the end)",
                           b.size(), h.word, h.length));
        } else if (h.layout == nullptr) {
          report(Rule::unknown_type, at,
                 fmt::format("type {} is not defined in generation {}{}", h.type,
                             generation_name(abi_.generation), note));
        } else if (!h.layout->variable) {
          report(Rule::length_above_maximum, at,
                 fmt::format("length {} is not the {}-byte size of {} (and runs past the end "
                             "of the log){}",
                             h.length, h.layout->fixed_size, kind_name(h.layout->kind), note));
        } else {
          report(Rule::truncated, at,
                 fmt::format("{} length {} runs past the end of the log, but records follow: "
                             "damaged length{}",
                             kind_name(h.layout->kind), h.length, note));
        }
        return;
      }
      case Errc::bad_magic:
      case Errc::length_below_header:
      case Errc::length_not_multiple_of_4: {
        const std::string note = resync(end);
        if (end) {
          tail(Rule::trailing_garbage, at,
               fmt::format("{} bytes after the last record do not form a record ({})",
                           rd_.offset() - at, what));
        } else {
          report(rule_for(e.code), at, what + note);
        }
        return;
      }
      default: break;
    }

    // The record fits and its header is readable, but its type or body is wrong. Skip by its
    // length when a record (or the end) follows there; otherwise resynchronize.
    const bool next_ok = h.present && h.length <= b.size() &&
                         (h.length == b.size() ||
                          plausible_record(abi_, b.data() + h.length, b.size() - h.length));
    // Another generation is the diagnosis only when the header (type, length) does not fit
    // this one. A record whose header fits is judged by this generation's layout: an M10
    // PROCEXEC without its NUL is unterminated-string, even though the M9 layout, reading the
    // path one address earlier, would find a NUL in the second address.
    if (!h.sound && next_ok) {
      const std::string gens = foreign_generations(abi_, b.first(h.length));
      if (!gens.empty()) {
        report(Rule::foreign_generation, at,
               fmt::format("a record of generation {} in a {} log ({})", gens,
                           generation_name(abi_.generation), what));
        rd_.skip();
        return;
      }
    }
    std::string note;
    if (!(next_ok && rd_.skip())) note = resync(end);
    report(rule_for(e.code), at, what + note);
  }

  void tail(Rule rule, uint64_t at, std::string message) {
    tail_damaged_ = true;
    report(rule, at, std::move(message));
  }

  LogReader& rd_;
  Abi abi_;
  const Config& cfg_;
  FileResult& res_;
  DiagnosticSink sink_;
  Checker checker_;
  uint64_t index_ = 0;
  bool tail_damaged_ = false;
};

}  // namespace

FileResult validate_reader(std::string name, LogReader& reader, const Config& cfg) {
  FileResult res;
  res.name = std::move(name);
  res.abi = reader.abi();
  Scanner(reader, cfg, res).run();
  return res;
}

namespace {

// The container's problems (format.md §18) as diagnostics, before the records' ones.
void add_container_issues(FileResult& res, const std::vector<ContainerIssue>& issues,
                          const Config& cfg) {
  std::vector<Diagnostic> found;
  for (const ContainerIssue& i : issues) {
    const auto rule = parse_rule(container_problem_id(i.problem));
    if (!rule || !cfg.on(*rule)) continue;
    const Severity sev = info(*rule).severity;
    (sev == Severity::error ? res.errors : res.warnings) += 1;
    found.push_back(Diagnostic{i.offset, 0, *rule, sev, i.message, 0});
  }
  res.diagnostics.insert(res.diagnostics.begin(), found.begin(), found.end());
}

}  // namespace

FileResult validate_file(const std::string& name, const AbiHint& hint, const Config& cfg) {
  std::vector<ContainerIssue> issues;
  auto opened = open_log(name, hint, &issues);
  const bool fatal = std::any_of(issues.begin(), issues.end(), [](const ContainerIssue& i) {
    return container_problem_fatal(i.problem);
  });
  if (!opened.ok() && fatal) {
    // The container stopped the opening: that is its finding, not "not a log".
    FileResult res;
    res.name = name;
    add_container_issues(res, issues, cfg);
    return res;
  }
  if (!opened.ok()) {
    const Error& e = opened.error();
    FileResult res;
    res.name = name;
    std::string msg = e.message;  // without the display name the library put in front
    const std::string prefix = input_display_name(name) + ": ";
    if (msg.rfind(prefix, 0) == 0) msg.erase(0, prefix.size());
    if (e.code == Errc::bad_abi || e.code == Errc::compressed_damaged) {
      // Readable, but no generation or byte order fits, or the compressed data is damaged
      // before the first records: a finding, not an I/O error.
      const Rule rule = e.code == Errc::bad_abi ? Rule::not_a_log : Rule::compressed_damaged;
      if (cfg.on(rule)) {
        res.errors = 1;
        const uint64_t at = e.code == Errc::bad_abi ? 0 : e.offset;
        res.diagnostics.push_back(Diagnostic{at, 0, rule, info(rule).severity, msg, 0});
      }
    } else {
      res.io_error = true;
      res.io_message = name + ": " + msg;  // the report shows the name (report_text.cpp)
    }
    add_container_issues(res, issues, cfg);
    return res;
  }
  OpenLog& log = opened.value();
  FileResult res = validate_reader(name, *log.reader, cfg);
  res.abi_evidence = log.detection.evidence;
  add_container_issues(res, log.detection.container_issues, cfg);
  return res;
}

}  // namespace pmclog::validate
