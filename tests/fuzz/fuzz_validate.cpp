// Fuzz target: the validator's checker (tools/pmclog-validate, linked as its library), with
// every rule on. Properties:
// - no crash; every diagnostic lies inside the input and names a rule that is on;
// - the validator reports damage (a framing rule, or one of the rules the decoder's errors
//   map to: unknown-type, foreign-generation, unterminated-string, callchain-too-deep) exactly
//   when the decoder finds an error in the same bytes;
// - it counts every record position: the decoder's records plus its damaged positions when
//   both go past damage alike, and never fewer records than the decoder decodes before its
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
    uint64_t decoder_errors = 0, before_first = 0;
    for (const fuzz::Event& e : events) {
      if (e.error) ++decoder_errors;
      else if (decoder_errors == 0) ++before_first;
    }

    LogReader rd = LogReader::over(bytes, c.abi);
    rd.discard(c.start);
    const validate::FileResult res = validate::validate_reader("fuzz", rd, cfg);
    check(!res.io_error, "an I/O error from memory");
    uint64_t damage = 0;
    for (const validate::Diagnostic& d : res.diagnostics) {
      check(d.offset <= size, "a diagnostic past the input");
      check(cfg.on(d.rule), "a diagnostic of a rule that is off");
      check(!d.message.empty(), "a diagnostic without a message");
      if (from_decoder(d.rule)) ++damage;
    }
    check(res.diagnostics.size() == res.errors + res.warnings, "diagnostics not all counted");
    check((damage == 0) == (decoder_errors == 0),
          "the validator's damage findings and the decoder's errors disagree");
    check(res.records >= before_first, "the validator counts fewer records than decode");
    check(res.bytes == size, "the validator did not reach the end");
  }
  return 0;
}
