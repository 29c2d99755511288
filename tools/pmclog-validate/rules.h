// The validator's rules: stable ids, default severities, and why each severity was chosen.
// The table in rules.cpp is the single place a rule is defined.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace pmclog::validate {

enum class Severity : uint8_t { warning, error };
std::string_view severity_name(Severity s);  // "warning" / "error"

enum class Category : uint8_t { framing, types, contents, structure, container };
std::string_view category_name(Category c);

enum class Rule : uint8_t {
  // framing (format.md §3, §15)
  not_a_log,
  bad_magic,
  length_below_header,
  length_unaligned,
  length_below_minimum,
  length_above_maximum,
  callchain_misaligned,
  truncated,
  trailing_garbage,
  compressed_damaged,
  // types (format.md §6)
  unknown_type,
  type_never_written,
  mappingchange_l1,
  dropnotify,
  foreign_generation,
  // contents (format.md §5, §7-§10)
  unterminated_string,
  path_too_long,
  nonzero_pad,
  nonzero_unwritten,
  callchain_too_deep,
  callchain_deep_for_era,
  callchain_empty,
  multipart_damaged,
  multipart_after_none,
  multipart_unknown_part,
  multipart_ibs_length,
  cpu_out_of_range,
  nsec_out_of_range,
  event_unknown_to_libpmc,
  // structure
  first_not_initialize,
  duplicate_initialize,
  version_mismatch,
  record_after_closelog,
  missing_closelog,
  pmcid_never_allocated,
  pmcid_allocated_later,
  sample_after_exit,
  map_out_without_map_in,
  time_backwards,
  // the PMCL container of `pmc record` (format.md §18); ids match pmclog::container_problem_id()
  container_truncated,
  container_past_end,
  container_no_done,
  container_version,
  container_sysinfo_length,
  container_cpuid_length,
  container_pmcinfo_length,
  container_done_length,
  container_arch,
  container_unknown_info,
};
inline constexpr size_t kRuleCount = static_cast<size_t>(Rule::container_unknown_info) + 1;

// When a rule is on unless the user says otherwise.
enum class Default : uint8_t {
  on,
  pedantic,  // only with --pedantic (or --enable)
  max_cpu,   // only when --max-cpu is given
};

struct RuleInfo {
  Rule rule;
  std::string_view id;  // stable, e.g. "bad-magic"
  Severity severity;
  Category category;
  Default when;
  std::string_view description;  // one line: what the rule checks
  std::string_view why;          // why this severity (reasoning, citing docs/format.md)
};

const std::array<RuleInfo, kRuleCount>& rules();
inline const RuleInfo& info(Rule r) { return rules()[static_cast<size_t>(r)]; }
std::optional<Rule> parse_rule(std::string_view id);

}  // namespace pmclog::validate
