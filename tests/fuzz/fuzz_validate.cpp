// Fuzz target: the validator's checker (tools/pmclog-validate, linked as its library), with
// every rule on. Properties:
// - no crash; every diagnostic lies inside the input, is counted, and names a rule that is on;
// - the validator's damage findings (the framing rules, and those the decoder's errors map
//   to: unknown-type, foreign-generation, unterminated-string, callchain-too-deep) agree with
//   the decoder: none before the decoder's first error, and one at its offset; none at all
//   when the decoder finds no error. The one framing rule the checker applies to records the
//   decoder accepts, length-above-maximum for a path record longer than its NUL-terminated
//   path needs (the kernel's length; readers accept the longer record), is
//   left out of the comparison;
// - it reaches the end, and counts at least the records the decoder decodes before its
//   first error.
#include "fuzz_support.h"
#include "rules.h"
#include "scan.h"

using namespace pmclog;
using fuzz::check;

namespace {

bool from_decoder(validate::Rule r) {
  using validate::Rule;
  if (validate::info(r).category == validate::Category::framing) return r != Rule::not_a_log;
  return r == Rule::unknown_type || r == Rule::foreign_generation ||
         r == Rule::unterminated_string || r == Rule::callchain_too_deep;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> bytes(data, size);
  validate::Config cfg;
  cfg.enabled.set();
  cfg.max_cpu = 3;
  for (const fuzz::Chosen& c : fuzz::abis_for(bytes)) {
    LogReader dec = LogReader::over(bytes, c.abi);
    dec.discard(c.start);
    const auto events = fuzz::walk(dec, size);
    uint64_t decoder_errors = 0, before_first = 0, first_error = UINT64_MAX;
    for (const fuzz::Event& e : events) {
      if (e.error && decoder_errors++ == 0) first_error = e.offset;
      if (!e.error && decoder_errors == 0) ++before_first;
    }

    LogReader rd = LogReader::over(bytes, c.abi);
    rd.discard(c.start);
    const validate::FileResult res = validate::validate_reader("fuzz", rd, cfg);
    check(!res.io_error, "an I/O error from memory");
    bool at_first = false;
    for (const validate::Diagnostic& d : res.diagnostics) {
      check(d.offset <= size, "a diagnostic past the input");
      check(cfg.on(d.rule), "a diagnostic of a rule that is off");
      check(!d.message.empty(), "a diagnostic without a message");
      if (!from_decoder(d.rule) || d.offset > first_error) continue;
      if (d.offset == first_error) {
        at_first = true;
        continue;
      }
      const bool path_length = d.rule == validate::Rule::length_above_maximum &&
                               d.message.find(": the path \"") != std::string::npos;
      check(path_length, "the validator finds damage where the decoder decodes a record");
    }
    check(decoder_errors == 0 || at_first, "the validator misses the decoder's first error");
    check(res.diagnostics.size() == res.errors + res.warnings, "diagnostics not all counted");
    check(res.records >= before_first, "the validator counts fewer records than decode");
    check(res.bytes == size, "the validator did not reach the end");
  }
  return 0;
}
