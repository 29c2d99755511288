#include "rules.h"

namespace pmclog::validate {

namespace {

using S = Severity;
using C = Category;
using D = Default;

// Principle: a rule is an error only when no real kernel could have written the file that
// way; anything a real kernel can produce (stale buffers, per-CPU flush order, wall-clock
// steps, records its writer lost or dropped) is a warning. And what FreeBSD writes in normal
// operation is no finding at all by default: such rules are pedantic, so that --strict
// passes every log a working FreeBSD system writes.
constexpr std::array<RuleInfo, kRuleCount> kRules{{
    {Rule::not_a_log, "not-a-log", S::error, C::framing, D::on,
     "the first bytes are no pmclog record header of any generation or byte order",
     "every kernel log starts with an INITIALIZE header word (format.md §2.2)"},
    {Rule::bad_magic, "bad-magic", S::error, C::framing, D::on,
     "a record header's top byte is not 0xEE",
     "the kernel writes the magic into every header (format.md §3.1)"},
    {Rule::length_below_header, "length-below-header", S::error, C::framing, D::on,
     "a record length is zero or smaller than the 12/16-byte header",
     "the kernel's length always covers the header it writes (format.md §3.1)"},
    {Rule::length_unaligned, "length-unaligned", S::error, C::framing, D::on,
     "a record length is not a multiple of 4",
     "the writer rounds every length up to 4 (format.md §3.1)"},
    {Rule::length_below_minimum, "length-below-minimum", S::error, C::framing, D::on,
     "a record length is below the fixed size of its type",
     "the kernel reserves at least sizeof(struct) for every record (format.md §7, §8)"},
    {Rule::length_above_maximum, "length-above-maximum", S::error, C::framing, D::on,
     "a record is longer than its type allows (fixed size, or the path's rounded length)",
     "fixed records have exactly their size and path records end 0-3 bytes after the NUL "
     "(format.md §3.1)"},
    {Rule::callchain_misaligned, "callchain-misaligned", S::error, C::framing, D::on,
     "a CALLCHAIN's frames are not a whole number of addresses",
     "the kernel's length is offsetof(pc) + n * address size (format.md §7, §8)"},
    {Rule::truncated, "truncated", S::error, C::framing, D::on,
     "the last record runs past the end of the file (says how many bytes are missing)",
     "the kernel writes whole records; a cut file lost data (format.md §12: libpmc hides this)"},
    {Rule::trailing_garbage, "trailing-garbage", S::error, C::framing, D::on,
     "bytes after the last record that do not form a record",
     "the kernel appends only whole records to the log"},
    {Rule::compressed_damaged, "compressed-damaged", S::error, C::framing, D::on,
     "gzip, zstd, xz or bzip2 data that fails its checks or ends early; nothing after it is read",
     "the compressor wrote whole, checked data: the log's bytes from there on are lost"},
    {Rule::unknown_type, "unknown-type", S::error, C::types, D::on,
     "a record type the log's generation does not define",
     "a kernel writes only the types of its own enum (format.md §6)"},
    {Rule::type_never_written, "type-never-written", S::error, C::types, D::on,
     "a type the generation defines but its kernels never write (PCSAMPLE, MAPPINGCHANGE in "
     "L2/L3)",
     "the writer functions have no caller in L2/L3 kernels, and libpmc rejects MAPPINGCHANGE "
     "there (format.md §6, §7)"},
    {Rule::mappingchange_l1, "mappingchange-l1", S::warning, C::types, D::on,
     "a MAPPINGCHANGE record in an L1 log",
     "the 7-CURRENT kernel never calls its writer, but 6.x kernels are unverified (format.md §7)"},
    {Rule::dropnotify, "dropnotify", S::warning, C::types, D::on,
     "a DROPNOTIFY record",
     "no caller in the kernels read, but FreeBSD main is UNVERIFIED (format.md §3.4), so only a "
     "warning"},
    {Rule::foreign_generation, "foreign-generation", S::error, C::types, D::on,
     "a record that is invalid in the log's generation but valid in another one",
     "one kernel writes one generation; a mix means logs were spliced together"},
    {Rule::unterminated_string, "unterminated-string", S::error, C::contents, D::on,
     "a path string with no NUL terminator inside its record",
     "the kernel's length is strlen + 1 rounded up, so the NUL is always inside (format.md §3.1)"},
    {Rule::path_too_long, "path-too-long", S::error, C::contents, D::on,
     "a path longer than PATH_MAX (1024 bytes with its NUL)",
     "kernel paths come from MAXPATHLEN buffers (format.md §10)"},
    {Rule::nonzero_pad, "nonzero-pad", S::error, C::contents, D::on,
     "a pad word the kernel writes as zero holds other bytes (in M10 MAP_IN only the 3 bytes "
     "after pl_pageshift)",
     "these words are explicit zero stores in the writer (format.md §5); "
     "main's MAP_IN pad begins with a page-shift byte a kernel may set (format.md §16)"},
    {Rule::nonzero_unwritten, "nonzero-unwritten", S::warning, C::contents, D::pedantic,
     "nonzero bytes where the kernel never stores anything (path padding, spare/pad words)",
     "the kernel leaves stale buffer bytes there (format.md §5), so real logs have them: "
     "--pedantic only"},
    {Rule::callchain_too_deep, "callchain-too-deep", S::error, C::contents, D::on,
     "a CALLCHAIN deeper than the generation's PMC_CALLCHAIN_DEPTH_MAX (L2 32, L3 128, M 512)",
     "the kernel's capture arrays have that size (format.md §10)"},
    {Rule::callchain_deep_for_era, "callchain-deep-for-era", S::warning, C::contents,
     D::pedantic, "an L3 CALLCHAIN deeper than 32 frames",
     "only kernels from 10.2 on allow it, and L3 logs do not say their release (format.md §10): "
     "normal for those, so --pedantic only"},
    {Rule::callchain_empty, "callchain-empty", S::warning, C::contents, D::on,
     "a CALLCHAIN with no frames",
     "kernels record the interrupted PC first, but that is not checked in every era: warning"},
    {Rule::multipart_damaged, "multipart-damaged", S::error, C::contents, D::on,
     "a multipart CALLCHAIN (cpuflags 0x02) whose part header does not fit: fewer slots than "
     "the header, or a part longer than the record",
     "the IBS writer sizes the record from the parts it writes (format.md §17); the record's "
     "other fields and the next record are still read"},
    {Rule::multipart_after_none, "multipart-after-none", S::warning, C::contents, D::on,
     "a multipart part header with nonzero bytes after its first NONE entry",
     "the writer fills the header with its parts and zeros; stray bytes there hint at a chain "
     "that overwrote the header (format.md §17), but readers stop at NONE: warning"},
    {Rule::multipart_unknown_part, "multipart-unknown-part", S::warning, C::contents, D::on,
     "a multipart part of a type other than CALLCHAIN, IBS_FETCH, IBS_OP or LBR",
     "newer kernels may add part types; its slots are kept raw and skipped by its length"},
    {Rule::multipart_ibs_length, "multipart-ibs-length", S::warning, C::contents, D::on,
     "an IBS_FETCH part that is not 4 values or an IBS_OP part that is not 8 values (a value "
     "is two slots on 32-bit producers)",
     "upstream's IBS driver writes 4 and 8; the AMD tree has variants (fetch 5, op 7 plus "
     "DATA4), so only a warning"},
    {Rule::cpu_out_of_range, "cpu-out-of-range", S::error, C::contents, D::max_cpu,
     "a CPU number (CALLCHAIN cpuflags, system-mode pmc id) above --max-cpu",
     "the user says the producing machine has no such CPU"},
    {Rule::nsec_out_of_range, "nsec-out-of-range", S::error, C::contents, D::on,
     "a legacy header nanosecond field at or above 2^28",
     "the writer masks tv_nsec with 0xFFFFFFF (format.md §3.2)"},
    {Rule::event_unknown_to_libpmc, "event-unknown-to-libpmc", S::warning, C::contents, D::on,
     "a PMCALLOCATE event code that the era's libpmc does not name for the log's cputype "
     "(FreeBSD's pmcstat stops there)",
     "the kernel logs whatever event was allocated, but libpmc aborts parsing at a code it "
     "cannot name, so every FreeBSD tool loses the rest of the log (format.md §12.1); "
     "pmclog's table is incomplete (pmclog/event_names.h), so a warning"},
    {Rule::first_not_initialize, "first-not-initialize", S::error, C::structure, D::on,
     "the first record is not INITIALIZE (or the log is empty)",
     "the kernel writes INITIALIZE when the log is configured, before anything else "
     "(format.md §2.2)"},
    {Rule::duplicate_initialize, "duplicate-initialize", S::error, C::structure, D::on,
     "more than one INITIALIZE record",
     "one configured log gets one INITIALIZE; two mean concatenated logs"},
    {Rule::version_mismatch, "version-mismatch", S::error, C::structure, D::on,
     "the INITIALIZE version's major does not match the records' generation",
     "each generation's kernels carry one major (L1 1, L2/L3 3, M 9 or >= 10) (format.md §2)"},
    {Rule::record_after_closelog, "record-after-closelog", S::warning, C::structure,
     D::pedantic, "records after CLOSELOG in a legacy log (not checked in M, where it is normal)",
     "the last L3 kernels (12-CURRENT 2018) already flushed per-CPU buffers, so other CPUs' "
     "records follow CLOSELOG there as in M (format.md §3.4): normal, so --pedantic only"},
    {Rule::missing_closelog, "missing-closelog", S::warning, C::structure, D::pedantic,
     "the log has no CLOSELOG record",
     "pmcstat -O closes a log without writing one: no real FreeBSD log seen ends with CLOSELOG "
     "(format.md §3.4), so its absence is normal and --pedantic only"},
    {Rule::pmcid_never_allocated, "pmcid-never-allocated", S::warning, C::structure, D::on,
     "a sample's pmc id is never allocated by a PMCALLOCATE/PMCALLOCATEDYN in the file",
     "a working system logs every pmc's allocation before the pmc samples, but the writer's "
     "lost-record bug can swallow it and a record reserved when no free buffer is left is "
     "dropped (format.md §3.4); the samples cannot be attributed to an event: on by default, "
     "as a warning"},
    {Rule::pmcid_allocated_later, "pmcid-allocated-later", S::warning, C::structure, D::on,
     "a sample's pmc id is allocated only later in the file",
     "per-CPU buffers are flushed out of order (format.md §3.4), but a kernel hands "
     "PMCALLOCATE's buffer to the writer at once (format.md §11), before the pmc can sample: "
     "not normal, so on by default, and a warning"},
    {Rule::sample_after_exit, "sample-after-exit", S::warning, C::structure, D::pedantic,
     "a process is sampled after its SYSEXIT/PROCEXIT",
     "per-CPU buffers are flushed out of order (format.md §3.4) and pids are reused: FreeBSD "
     "writes this in normal operation, so --pedantic only"},
    {Rule::map_out_without_map_in, "map-out-without-map-in", S::warning, C::structure,
     D::pedantic, "a MAP_OUT with no earlier MAP_IN of the same pid and start",
     "munmap of part of a mapping, mappings made before logging began and records the writer "
     "lost (format.md §11) do this in normal operation, so --pedantic only"},
    {Rule::time_backwards, "time-backwards", S::warning, C::structure, D::pedantic,
     "a legacy header timestamp earlier than the previous record's",
     "getnanotime() is wall-clock time, which can be stepped back (format.md §3.2), and the "
     "last L3 kernels flushed per-CPU buffers out of order (format.md §3.4): normal, so "
     "--pedantic only; the 28-bit nanosecond wrap is taken into account"},
    // The container's reserved fields and the bytes after each string's NUL come from
    // uninitialised memory in the recorder (format.md §18): no rule looks at them.
    {Rule::container_truncated, "container-truncated", S::error, C::container, D::on,
     "the PMCL file header or an info header is cut by the end of the file",
     "pmc record writes the whole container before the log stream (format.md §18)"},
    {Rule::container_past_end, "container-past-end", S::error, C::container, D::on,
     "a PMCL info's payload length runs past the end of the file",
     "the recorder writes every payload it announces (format.md §18); the reader cannot go on"},
    {Rule::container_no_done, "container-no-done", S::error, C::container, D::on,
     "the file ends in the PMCL info list, with no DONE info before the log stream",
     "the recorder ends the list with DONE before the kernel's stream (format.md §18)"},
    {Rule::container_version, "container-version", S::error, C::container, D::on,
     "a PMCL container version other than 0",
     "the reader rejects any version above 0 (format.md §18): the layout after it is unknown"},
    {Rule::container_sysinfo_length, "container-sysinfo-length", S::error, C::container, D::on,
     "a SYSINFO info whose length is not 192",
     "three 64-byte strings; the reader rejects any other length (format.md §18)"},
    {Rule::container_cpuid_length, "container-cpuid-length", S::error, C::container, D::on,
     "a CPUID info whose length is not a multiple of 16",
     "each leaf is eax, ebx, ecx, edx: 16 bytes (format.md §18)"},
    {Rule::container_pmcinfo_length, "container-pmcinfo-length", S::error, C::container, D::on,
     "a PMCINFO info shorter than its 8-byte rate",
     "the payload starts with a u64 rate (format.md §18)"},
    {Rule::container_done_length, "container-done-length", S::error, C::container, D::on,
     "a DONE info with a payload",
     "DONE has length 0 (format.md §18); the stream is assumed to start after its payload"},
    {Rule::container_arch, "container-arch", S::warning, C::container, D::on,
     "a PMCL arch code that is not 0..5 (other, amd64, arm64, ppc64, riscv64, arm)",
     "a newer recorder may add architectures; only the address width evidence is lost"},
    {Rule::container_unknown_info, "container-unknown-info", S::warning, C::container, D::on,
     "a PMCL info type other than DONE, SYSINFO, PMCINFO, CPUID (skipped by its length)",
     "its length still frames it, so a newer recorder's info is no damage"},
}};

}  // namespace

// info(r) indexes the table by the enum, so the order must match it.
constexpr bool table_in_enum_order() {
  for (size_t i = 0; i < kRules.size(); ++i) {
    if (static_cast<size_t>(kRules[i].rule) != i) return false;
  }
  return true;
}
static_assert(table_in_enum_order());

const std::array<RuleInfo, kRuleCount>& rules() { return kRules; }

std::optional<Rule> parse_rule(std::string_view id) {
  for (const RuleInfo& r : kRules) {
    if (r.id == id) return r.rule;
  }
  return std::nullopt;
}

std::string_view severity_name(Severity s) { return s == Severity::error ? "error" : "warning"; }

std::string_view category_name(Category c) {
  switch (c) {
    case Category::framing: return "framing";
    case Category::types: return "types";
    case Category::contents: return "contents";
    case Category::structure: return "structure";
    case Category::container: return "container";
  }
  return "?";
}

}  // namespace pmclog::validate
