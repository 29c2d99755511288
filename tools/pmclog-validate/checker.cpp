#include "checker.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstring>

#include "pmclog/endian_io.h"
#include "pmclog/event_names.h"
#include "pmclog/layout.h"
#include "pmclog/legacy_clock.h"
#include "pmclog/names.h"
#include "pmclog/parts.h"
#include "pmclog/text.h"

namespace pmclog::validate {

namespace {

constexpr uint32_t kNsecMask = pmclog::kLegacyNsecMask;  // 28 bits of tv_nsec (format.md §3.2)
constexpr uint32_t kNsecWrap = kNsecMask + 1;
constexpr uint32_t kPmcIdInvalid = 0xFFFFFFFFu;  // PROCEXEC without a PMC (format.md §7)

uint32_t load32(const Abi& abi, const uint8_t* p) {
  return pmclog::detail::load32(abi.byte_order, p);  // byte order in one place (endian_io.h)
}

// The largest true nanosecond value a masked legacy field can stand for: the kernel stores
// tv_nsec mod 2^28 and tv_nsec < 10^9.
uint32_t max_true_nsec(uint32_t stored) {
  if (stored >= kNsecWrap) return stored;
  return stored + ((999999999u - stored) / kNsecWrap) * kNsecWrap;
}

// The PMC_VERSION major a generation's kernels write (format.md §2).
bool version_fits(Generation g, uint32_t major) {
  switch (g) {
    case Generation::L1: return major == 0x01;
    case Generation::L2:
    case Generation::L3: return major == 0x03;
    case Generation::M9: return major == 0x09;
    case Generation::M10: return major >= 0x0A;
  }
  return false;
}

}  // namespace

Checker::Checker(const Abi& abi, const Config& cfg, DiagnosticSink& sink)
    : abi_(abi), cfg_(cfg), sink_(sink) {
  // Precompute, per kind, the words that must be zero; the per-record check is then a few
  // loads (format.md §5: pad words are stored as 0, unwritten words and path padding hold
  // stale bytes).
  for (int k = 0; k < kKindCount; ++k) {
    const Layout* l = layout_for(abi_, static_cast<Kind>(k));
    if (!l) continue;
    ZeroWords& z = zero_words_[static_cast<size_t>(k)];
    if (!abi_.legacy()) z.unwritten[z.nunwritten++] = 4;  // modern pl_spare
    for (const FieldSpec& f : *l) {
      if (f.type == FieldType::pad && z.npad < z.pad.size()) z.pad[z.npad++] = f.offset;
      // A byte field's word (M10 MAP_IN's pl_pageshift, format.md §16): its other three
      // bytes are pad.
      if (f.type == FieldType::u8 && z.npad < z.pad.size()) z.pageshift_pad = z.pad[z.npad++] = f.offset;
      if (f.type == FieldType::unwritten && z.nunwritten < z.unwritten.size())
        z.unwritten[z.nunwritten++] = f.offset;
      if (f.type == FieldType::path) {
        z.path_offset = f.offset;
        z.path_unfilled = static_cast<uint16_t>(l->fixed_size - f.offset);
      }
    }
    // The narrow-address check of CALLCHAIN's unfilled slot bytes (check_zero_words).
    const bool narrow_slots = static_cast<Kind>(k) == Kind::callchain && abi_.narrow();
    z.any = z.npad != 0 || z.nunwritten != 0 || z.path_offset != 0 || narrow_slots;
  }
  check_zeros_ = cfg_.on(Rule::nonzero_pad) || cfg_.on(Rule::nonzero_unwritten) ||
                 cfg_.on(Rule::length_above_maximum) || cfg_.on(Rule::path_too_long);
}

void Checker::report(Rule rule, uint64_t offset, uint64_t index, std::string message) {
  if (!cfg_.on(rule)) return;
  sink_.add(Diagnostic{offset, index, rule, info(rule).severity, std::move(message), 0});
}

void Checker::record(const Record& r, uint64_t index) {
  if (!seen_any_ && r.kind != Kind::initialize) {
    report(Rule::first_not_initialize, r.offset, index,
           fmt::format("the first record is {}, not INITIALIZE", kind_name(r.kind)));
  }
  seen_any_ = true;
  if (abi_.legacy()) {
    check_legacy_time(r, index);
    if (seen_closelog_ && !reported_after_close_) {
      reported_after_close_ = true;
      report(Rule::record_after_closelog, r.offset, index,
             fmt::format("{} record after CLOSELOG", kind_name(r.kind)));
    }
  }
  if (check_zeros_) {
    const size_t k = static_cast<size_t>(r.kind);
    if (k < zero_words_.size() && zero_words_[k].any) check_zero_words(r, index);
  }
  if (cfg_.max_cpu) check_pmcid_cpu(r, index);

  switch (r.kind) {
    case Kind::callchain: callchain(r, index); break;
    case Kind::initialize: initialize(r, index); break;
    case Kind::closelog: seen_closelog_ = true; break;
    case Kind::dropnotify:
      report(Rule::dropnotify, r.offset, index,
             "DROPNOTIFY record: the kernel says it dropped records here");
      break;
    case Kind::mappingchange:
      if (abi_.generation == Generation::L1) {
        report(Rule::mappingchange_l1, r.offset, index,
               "MAPPINGCHANGE record: no L1 kernel read for this project writes it");
      } else {
        report(Rule::type_never_written, r.offset, index,
               fmt::format("MAPPINGCHANGE (type {}) is not written by {} kernels", r.header.type,
                           generation_name(abi_.generation)));
      }
      break;
    case Kind::pcsample:
      if (abi_.generation != Generation::L1) {
        report(Rule::type_never_written, r.offset, index,
               fmt::format("PCSAMPLE (type {}) is not written after generation L1",
                           r.header.type));
      }
      sample(static_cast<uint32_t>(r[Field::pid]), static_cast<uint32_t>(r[Field::pmcid]), r,
             index);
      break;
    case Kind::pmcallocate:
      check_event_name(r, index);
      allocate(static_cast<uint32_t>(r[Field::pmcid]), r, index);
      break;
    case Kind::pmcallocatedyn:
      // libpmc takes this record's name as it is, with no lookup (format.md §12.1, §13).
      if (!r.text.empty()) soft_names_[static_cast<uint32_t>(r[Field::event])] = r.text;
      allocate(static_cast<uint32_t>(r[Field::pmcid]), r, index);
      break;
    case Kind::sysexit:
    case Kind::procexit: process_exited(static_cast<uint32_t>(r[Field::pid]), r.offset); break;
    case Kind::procfork: process_alive(static_cast<uint32_t>(r[Field::newpid])); break;
    case Kind::procexec:
    case Kind::proc_create:
    case Kind::thr_create: process_alive(static_cast<uint32_t>(r[Field::pid])); break;
    case Kind::map_in:
      maps_[static_cast<uint32_t>(r[Field::pid])].insert(r[Field::start]);
      break;
    case Kind::map_out: {
      auto* m = maps_.find(static_cast<uint32_t>(r[Field::pid]));
      if (!m || m->erase(r[Field::start]) == 0) {
        report(Rule::map_out_without_map_in, r.offset, index,
               fmt::format("MAP_OUT of pid {} at {:#x} has no earlier MAP_IN of that start",
                           static_cast<int32_t>(r[Field::pid]), r[Field::start]));
      }
      break;
    }
    default: break;
  }
}

void Checker::callchain(const Record& r, uint64_t index) {
  const uint32_t n = r.pcs.size();
  if (n == 0) {
    report(Rule::callchain_empty, r.offset, index, "CALLCHAIN with no frames");
  } else if (n > 32 && abi_.generation == Generation::L3 && cfg_.on(Rule::callchain_deep_for_era)) {
    report(Rule::callchain_deep_for_era, r.offset, index,
           fmt::format("CALLCHAIN depth {} is above 32, the limit of L3 kernels before 10.2", n));
  }
  if (pmclog::is_multipart(r)) multipart(r, index);
  if (cfg_.max_cpu && r.cpu() > *cfg_.max_cpu) {
    report(Rule::cpu_out_of_range, r.offset, index,
           fmt::format("CALLCHAIN cpu {} is above --max-cpu {}", r.cpu(), *cfg_.max_cpu));
  }
  sample(static_cast<uint32_t>(r[Field::pid]), static_cast<uint32_t>(r[Field::pmcid]), r, index);
}

// Multipart callchains (format.md §17): the part header against the record.
void Checker::multipart(const Record& r, uint64_t index) {
  const pmclog::Parts ps = pmclog::parts(r, abi_);
  if (ps.error()) report(Rule::multipart_damaged, r.offset, index, ps.error().message);
  if (ps.nonzero_after_none()) {
    const auto& h = ps.header();
    report(Rule::multipart_after_none, r.offset, index,
           fmt::format("multipart part header {:02x} has nonzero bytes after its NONE entry",
                       fmt::join(h, " ")));
  }
  const uint32_t per = pmclog::slots_per_u64(abi_.address_width);
  for (const pmclog::Part& p : ps.parts()) {
    if (!p.known()) {
      report(Rule::multipart_unknown_part, r.offset, index,
             fmt::format("multipart part type {} ({} slots from slot {}) is unknown; kept raw",
                         p.type, p.len, p.first));
      continue;
    }
    const uint32_t want = p.kind() == pmclog::PartType::ibs_fetch ? 4
                          : p.kind() == pmclog::PartType::ibs_op  ? 8
                                                                  : 0;
    if (want != 0 && p.len != want * per) {
      report(Rule::multipart_ibs_length, r.offset, index,
             fmt::format("multipart {} part is {} slots, not {} ({} 64-bit values of {} slot{})",
                         pmclog::part_type_name(p.type), p.len, want * per, want, per,
                         per == 1 ? "" : "s"));
    }
  }
}

void Checker::sample(uint32_t pid, uint32_t pmcid, const Record& r, uint64_t index) {
  uint64_t& cached = allocated_cache_[cache_slot(pmcid)];
  if (cached != uint64_t{pmcid} + 1) {
    PmcState& s = pmcs_[pmcid];
    if (s.allocated) {
      cached = uint64_t{pmcid} + 1;
    } else if (!s.pending) {
      s.pending = true;
      s.first_use = r.offset;
      s.first_use_index = index;
    }
  }
  if (exited_count_ != 0) {
    uint64_t& quiet = quiet_pids_[pid_slot(pid)];
    if (quiet == uint64_t{pid} + 1) return;
    PidState* p = pids_.find(pid);
    if (p && p->exited && !p->reported) {
      p->reported = true;
      report(Rule::sample_after_exit, r.offset, index,
             fmt::format("pid {} is sampled after its exit at offset {:#x}",
                         static_cast<int32_t>(pid), p->exit_offset));
    }
    quiet = uint64_t{pid} + 1;  // not exited, or its exit reported: nothing until the next exit
  }
}

void Checker::allocate(uint32_t pmcid, const Record& r, uint64_t index) {
  (void)index;
  PmcState& s = pmcs_[pmcid];
  if (s.pending) {
    s.pending = false;
    report(Rule::pmcid_allocated_later, s.first_use, s.first_use_index,
           fmt::format("pmc id {:#x} is used by a sample here but allocated only later, at "
                       "offset {:#x}",
                       pmcid, r.offset));
  }
  s.allocated = true;
}

// libpmc resolves a PMCALLOCATE's event code through its tables and aborts the whole parse
// when that fails (format.md §12.1); the dump keeps decoding, so this is only a warning.
void Checker::check_event_name(const Record& r, uint64_t index) {
  const uint32_t code = static_cast<uint32_t>(r[Field::event]);
  const auto flags = static_cast<uint32_t>(r[Field::flags]);
  // An EV_PMU index is named by the recording system's pmu-events table (format.md §12.2):
  // without it there is nothing to check, only a note on what the number is.
  if (is_pmu_index(flags, abi_.generation)) {
    const AllocationEvent e = allocation_event(
        code, flags, {abi_.generation, cputype_, cpuid_, &soft_names_, cfg_.pmu_events, cfg_.pmu_missing});
    if (!e.name.empty()) return;
    if (!cfg_.pmu_events) {
      if (cfg_.notes) cfg_.notes->insert(e.note);
      return;
    }
    if (cfg_.on(Rule::event_unknown_to_libpmc))
      report(Rule::event_unknown_to_libpmc, r.offset, index,
             "PMCALLOCATE " + e.note + ": FreeBSD's pmcstat cannot name it either");
    return;
  }
  if (!cfg_.on(Rule::event_unknown_to_libpmc)) return;
  if (event_name(code, cputype_, abi_.generation, &soft_names_)) return;
  const std::string_view cpu = cputype_ == kNoCputype ? std::string_view("no INITIALIZE")
                                                      : cputype_name(cputype_, abi_.generation);
  report(Rule::event_unknown_to_libpmc, r.offset, index,
         fmt::format("PMCALLOCATE event code {:#x} is not named by the {} event table for "
                     "cputype {:#x} ({}): FreeBSD's pmcstat stops here, and no FreeBSD tool "
                     "reads the rest of the log",
                     code, generation_name(abi_.generation), cputype_,
                     cpu.empty() ? std::string_view("unknown") : cpu));
}

void Checker::process_exited(uint32_t pid, uint64_t offset) {
  PidState& p = pids_[pid];
  if (!p.exited) ++exited_count_;
  if (uint64_t& quiet = quiet_pids_[pid_slot(pid)]; quiet == uint64_t{pid} + 1) quiet = 0;
  p.exited = true;
  p.reported = false;
  p.exit_offset = offset;
  if (auto* m = maps_.find(pid)) m->clear();  // its mappings are gone with it
}

void Checker::process_alive(uint32_t pid) {
  if (exited_count_ == 0) return;
  PidState* p = pids_.find(pid);
  if (p && p->exited) {
    p->exited = false;
    --exited_count_;
  }
}

void Checker::initialize(const Record& r, uint64_t index) {
  if (seen_initialize_) {
    report(Rule::duplicate_initialize, r.offset, index,
           "a second INITIALIZE record (logs concatenated?)");
  }
  seen_initialize_ = true;
  cputype_ = static_cast<uint32_t>(r[Field::arch]);
  if (r.has(Field::cpuid)) cpuid_ = std::string(r.text);
  const uint32_t version = static_cast<uint32_t>(r[Field::version]);
  if (!version_fits(abi_.generation, version_major(version))) {
    report(Rule::version_mismatch, r.offset, index,
           fmt::format("INITIALIZE version {:#010x} (major {:#x}) does not match the records' "
                       "generation {}",
                       version, version_major(version), generation_name(abi_.generation)));
  }
}

void Checker::check_legacy_time(const Record& r, uint64_t index) {
  const uint32_t sec = r.header.ts_sec, nsec = r.header.ts_nsec;
  // The common case, inline: nanoseconds in range and a time at or after the last record's
  // as stored (forwards whatever the masked-off bits were; max_true_nsec(nsec) >= nsec).
  if (nsec <= kNsecMask && have_time_ &&
      (sec > prev_sec_ || (sec == prev_sec_ && nsec >= prev_nsec_))) [[likely]] {
    prev_sec_ = sec;
    prev_nsec_ = nsec;
    return;
  }
  check_legacy_time_slow(r, index);
}

void Checker::check_legacy_time_slow(const Record& r, uint64_t index) {
  const uint32_t sec = r.header.ts_sec, nsec = r.header.ts_nsec;
  if (nsec > kNsecMask) {
    report(Rule::nsec_out_of_range, r.offset, index,
           fmt::format("header nanoseconds {:#x} are at or above 2^28; the kernel masks them "
                       "with 0xfffffff",
                       nsec));
  }
  if (have_time_) {
    // Backwards only when no choice of the masked-off bits makes it forwards.
    const bool back = sec < prev_sec_ || (sec == prev_sec_ && prev_nsec_ > max_true_nsec(nsec));
    if (back) {
      report(Rule::time_backwards, r.offset, index,
             fmt::format("timestamp {}.{:09} is before the previous record's {}.{:09}", sec,
                         nsec, prev_sec_, prev_nsec_));
    }
  }
  have_time_ = true;
  prev_sec_ = sec;
  prev_nsec_ = nsec;
}

void Checker::check_zero_words(const Record& r, uint64_t index) {
  const size_t k = static_cast<size_t>(r.kind);
  if (k >= zero_words_.size()) return;
  const ZeroWords& z = zero_words_[k];
  const uint8_t* p = r.raw.data();
  const size_t len = r.raw.size();
  for (uint8_t i = 0; i < z.npad; ++i) {
    if (z.pad[i] == z.pageshift_pad && z.pad[i] + 4u <= len) {
      const uint8_t* w = p + z.pad[i];
      if ((w[1] | w[2] | w[3]) != 0) {
        report(Rule::nonzero_pad, r.offset, index,
               fmt::format("{} pad bytes {}-{} after pl_pageshift are {:02x} {:02x} {:02x}; the "
                           "kernel writes 0 there",
                           kind_name(r.kind), z.pad[i] + 1, z.pad[i] + 3, w[1], w[2], w[3]));
      }
    } else if (z.pad[i] + 4u <= len && load32(abi_, p + z.pad[i]) != 0) {
      report(Rule::nonzero_pad, r.offset, index,
             fmt::format("{} pad word at byte {} is {:#x}; the kernel writes 0 there",
                         kind_name(r.kind), z.pad[i], load32(abi_, p + z.pad[i])));
    }
  }
  if (cfg_.on(Rule::nonzero_unwritten)) {
    for (uint8_t i = 0; i < z.nunwritten; ++i) {
      if (z.unwritten[i] + 4u <= len && load32(abi_, p + z.unwritten[i]) != 0) {
        report(Rule::nonzero_unwritten, r.offset, index,
               fmt::format("{} unwritten word at byte {} holds {:#x} (stale buffer bytes)",
                           kind_name(r.kind), z.unwritten[i], load32(abi_, p + z.unwritten[i])));
      }
    }
  }
  if (r.kind == Kind::callchain && abi_.narrow() && cfg_.on(Rule::nonzero_unwritten) &&
      !r.pcs.empty()) {
    // Narrow addresses: the frames are packed and the rest of their slots ends the record.
    const size_t from = r.layout->fixed_size + size_t{r.pcs.size()} * abi_.address_width;
    for (size_t i = from; i < len; ++i) {
      if (p[i] != 0) {
        report(Rule::nonzero_unwritten, r.offset, index,
               fmt::format("{} unwritten slot byte {} is {:#04x} (4-byte addresses in 8-byte "
                           "slots leave the record's last {} bytes stale)",
                           kind_name(r.kind), i, p[i], len - from));
        break;
      }
    }
  }
  if (z.path_offset != 0) {
    const size_t nul = z.path_offset + r.text.size();  // the decoder found the NUL here
    if (r.text.size() + 1 > kPathMax) {
      report(Rule::path_too_long, r.offset, index,
             fmt::format("{} path of {} bytes is longer than PATH_MAX ({} with the NUL)",
                         kind_name(r.kind), r.text.size(), kPathMax));
    }
    const size_t kernel_len = (nul + 1 + z.path_unfilled + 3) & ~size_t{3};
    if (len > kernel_len) {
      report(Rule::length_above_maximum, r.offset, index,
             fmt::format("{} length {} is above {}: the path \"{}\" ends at byte {}",
                         kind_name(r.kind), len, kernel_len,
                         escaped(r.text.substr(0, 64)), nul));
    } else if (cfg_.on(Rule::nonzero_unwritten)) {
      for (size_t i = nul + 1; i < len; ++i) {
        if (p[i] != 0) {
          report(Rule::nonzero_unwritten, r.offset, index,
                 fmt::format("{} path padding at byte {} is {:#04x} (stale buffer bytes)",
                             kind_name(r.kind), i, p[i]));
          break;
        }
      }
    }
  }
}

void Checker::check_pmcid_cpu(const Record& r, uint64_t index) {
  if (!r.has(Field::pmcid)) return;
  const uint32_t id = static_cast<uint32_t>(r[Field::pmcid]);
  if (id == kPmcIdInvalid) return;
  const PmcIdParts parts = split_pmcid(id, abi_.generation);
  if (!parts.any_cpu && parts.cpu > *cfg_.max_cpu) {
    report(Rule::cpu_out_of_range, r.offset, index,
           fmt::format("pmc id {:#x} names cpu {}, above --max-cpu {}", id, parts.cpu,
                       *cfg_.max_cpu));
  }
}

void Checker::finish(uint64_t end, uint64_t records, bool tail_damaged) {
  if (records == 0) {
    report(Rule::first_not_initialize, 0, 0,
           "the log is empty; a kernel writes INITIALIZE when the log is configured");
  }
  if (records > 0 && !seen_closelog_ && !tail_damaged) {
    report(Rule::missing_closelog, end, records, "the log ends without a CLOSELOG record");
  }
  pmcs_.for_each([&](uint32_t id, PmcState& s) {
    if (s.pending && !s.allocated) {
      report(Rule::pmcid_never_allocated, s.first_use, s.first_use_index,
             fmt::format("pmc id {:#x} is used by samples but never allocated by a "
                         "PMCALLOCATE or PMCALLOCATEDYN record",
                         id));
    }
  });
}

}  // namespace pmclog::validate
