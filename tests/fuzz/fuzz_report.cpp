// Fuzz target: the report's address-space replay and aggregation (libpmcprofile): a log in,
// a profile out, with no ELF file to be found (an empty sysroot, no kallsyms). The options
// (keep_going, ibs, threads, cpus, a sample observer, a small reorder window) are drawn from the
// first byte. Properties:
// - no crash, whatever MAP_IN/MAP_OUT/PROCEXEC/FORK/EXIT sequence the log holds;
// - the session's sample count equals the number of CALLCHAIN and PCSAMPLE records a reader
//   decodes from the same bytes (going past damage alike when keep_going, else up to the
//   first error), resolved or not; its record count equals the records decoded;
// - with no filter every sample is either kept or counted as empty (no frame), and the
//   profile adds up: samples == kept == the sum of its nodes' self counts == the sum of its
//   per-event counts (== the samples an observer is handed, each with an address per frame).
#include <fstream>
#include <numeric>

#include "fuzz_support.h"
#include "pmcprofile/pmcprofile.h"

using namespace pmclog;
using fuzz::check;

namespace {

fuzz::ScratchCleanup cleanup;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t k = data[0];
  const std::span<const uint8_t> log(data + 1, size - 1);
  const std::filesystem::path dir = fuzz::scratch_dir();
  const std::string path = (dir / "in.pmclog").string();
  {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(log.data()), static_cast<std::streamsize>(log.size()));
  }
  std::filesystem::create_directories(dir / "sysroot");

  pmcprofile::Options opt;
  opt.locate.sysroot = (dir / "sysroot").string();
  opt.locate.kallsyms = false;
  opt.keep_going = k & 1;
  opt.ibs = k & 2;
  opt.keep_threads = k & 4;
  opt.keep_cpus = k & 8;
  opt.reorder_window = (k & 32) ? 2 : size_t{1} << 16;
  pmcprofile::Session s(opt);
  uint64_t observed = 0;
  bool aligned = true;
  const pmcprofile::InputReport rep =
      (k & 16) ? s.add_log(path,
                           [&](const pmcprofile::Sample& smp) {
                             ++observed;
                             aligned = aligned && smp.addresses.size() == smp.frames.size();
                           })
               : s.add_log(path);
  if (!rep.opened || rep.empty_input) return 0;
  s.symbolize();

  // What a reader decodes from the same opening, going past damage as the session does.
  auto opened = open_log(path);
  check(opened.ok(), "the log opens for the session but not for a reader");
  uint64_t records = 0, samples = 0, errors = 0;
  fuzz::each_record(
      *opened->reader,
      [&](const Record& r) {
        ++records;
        if (r.kind == Kind::callchain || r.kind == Kind::pcsample) ++samples;
      },
      [&](const Error&) {
        ++errors;
        return opt.keep_going;
      });
  check(rep.damaged == errors, "the session meets a different number of errors");
  check(rep.records == records, "the session replays a different number of records");
  check(rep.samples == samples, "the session's samples are not the log's sample records");
  check(rep.kept + rep.empty == rep.samples, "a sample neither kept nor empty");

  const pmcprofile::Profile& p = s.profiles().at(0);
  check(p.samples == rep.kept, "the profile's total is not the samples kept");
  check(std::accumulate(p.self.begin(), p.self.end(), uint64_t{0}) == p.samples,
        "the nodes' self counts do not add up to the total");
  check(std::accumulate(p.event_samples.begin(), p.event_samples.end(), uint64_t{0}) == p.samples,
        "the per-event counts do not add up to the total");
  if (k & 16) {
    check(observed == p.samples, "the observer misses samples");
    check(aligned, "a sample without an address per frame");
  }
  for (size_t n = 0; n < p.nodes.size(); ++n)
    check(p.is_root(static_cast<pmcprofile::NodeId>(n)) || p.nodes[n].parent < n,
          "a node whose parent comes after it");
  return 0;
}
