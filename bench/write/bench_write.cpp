// bench-write [DIR] [--runs N] [--size BYTES] [--json]
// Measures, in the same run and on the same filesystem (DIR, default $TMPDIR or /tmp; every
// file goes to a new folder made there with mkdtemp, removed at the end):
//   1. `cat` copying a 1 GiB file, and `pmclog-write synth -s 1GiB` to a file: medians of N
//      runs each, and synth's speed as a fraction of cat's (the goal is >= 25%). Both write
//      through the shell's `>`: given the file as -o, synth would also fsync it before the
//      rename (durable before visible), a disk's cost that cat's copy does not pay;
//   2. `pmclog-write IN.jsonl -o OUT`: median MB/s of JSON input (the goal is >= 100 MB/s).
// Runs are interleaved (cat, synth, cat, synth...) so that both see the same machine load.
// --json adds the medians as one JSON object on the last line (bench/run reads it).
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "pmclog/json.h"
#include "pmclog/open.h"
#include "pmclog/reader.h"

namespace fs = std::filesystem;

namespace {

fs::path g_work;  // the scratch folder, removed on every way out

[[noreturn]] void fail(int rc) {
  if (!g_work.empty()) fs::remove_all(g_work);
  std::exit(rc);
}

double seconds_of(const std::string& cmd) {
  const auto t0 = std::chrono::steady_clock::now();
  const int rc = std::system(cmd.c_str());
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (rc != 0) {
    std::fprintf(stderr, "bench-write: command failed (%d): %s\n", rc, cmd.c_str());
    fail(2);
  }
  return s;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string q(const fs::path& p) {
  std::string s = "'";  // appends: GCC 12 warns falsely on "literal" + std::string&&
  for (char c : p.string()) {
    if (c == '\'') s += "'\\''";  // a quote inside the path: close, escaped quote, reopen
    else s += c;
  }
  s += '\'';
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  const char* tmp = std::getenv("TMPDIR");
  fs::path dir = tmp && *tmp ? tmp : "/tmp";
  int runs = 3;
  uint64_t size = 1ull << 30;
  bool json = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--runs" && i + 1 < argc) runs = std::atoi(argv[++i]);
    else if (a == "--size" && i + 1 < argc) size = std::strtoull(argv[++i], nullptr, 0);
    else if (a == "--json") json = true;
    else if (a.empty() || a[0] == '-') {
      std::fprintf(stderr, "usage: bench-write [DIR] [--runs N] [--size BYTES] [--json]\n");
      return a == "-h" || a == "--help" ? 0 : 2;
    } else {
      dir = a;
    }
  }
  // A fresh folder of our own (mkdtemp never reuses one), so that removing it at the end
  // removes nothing we did not create.
  std::string tmpl = (dir / "bench-write.XXXXXX").string();
  if (::mkdtemp(tmpl.data()) == nullptr) {
    std::perror(tmpl.c_str());
    return 2;
  }
  const fs::path work = tmpl;
  g_work = work;
  const std::string w = PMCLOG_WRITE_BIN;
  const std::string sz = std::to_string(size);
  const double mib = static_cast<double>(size) / (1 << 20);

  // The file cat copies: a synthetic log of the same size (any bytes would do).
  seconds_of(w + " synth -q -s " + sz + " --seed 99 -o " + q(work / "src.pmclog"));
  const double src_mib = static_cast<double>(fs::file_size(work / "src.pmclog")) / (1 << 20);

  std::vector<double> cat_s, synth_s;
  for (int r = 0; r < runs; ++r) {
    cat_s.push_back(seconds_of(std::string("cat ") + q(work / "src.pmclog") + " > " + q(work / "copy")));
    fs::remove(work / "copy");
    synth_s.push_back(seconds_of(w + " synth -q -s " + sz + " -o - > " + q(work / "synth.pmclog")));
    fs::remove(work / "synth.pmclog");
  }
  const double cat_rate = src_mib / median(cat_s), synth_rate = mib / median(synth_s);
  std::printf("synth vs cat, %s, %d runs each, medians:\n", work.string().c_str(), runs);
  std::printf("  cat   %.0f MiB in %.3f s = %.0f MiB/s\n", src_mib, median(cat_s), cat_rate);
  std::printf("  synth %.0f MiB in %.3f s = %.0f MiB/s\n", mib, median(synth_s), synth_rate);
  std::printf("  synth / cat = %.0f%% (target >= 25%%)\n", 100 * synth_rate / cat_rate);
  fs::remove(work / "src.pmclog");

  // JSON Lines input: the library's append_json of a synthetic log (what pmclog-dump prints).
  const uint64_t json_log = std::min<uint64_t>(size / 8, 128ull << 20);
  seconds_of(w + " synth -q -s " + std::to_string(json_log) + " --seed 5 -o " +
             q(work / "j.pmclog"));
  {
    auto opened = pmclog::open_log((work / "j.pmclog").string());
    if (!opened.ok()) {
      std::fprintf(stderr, "bench-write: %s\n", opened.error().message.c_str());
      fail(2);
    }
    std::ofstream out(work / "in.jsonl", std::ios::binary);
    pmclog::Record r;
    pmclog::Error err;
    std::string line;
    while (opened->reader->next(r, err) == pmclog::Step::record) {
      line.clear();
      pmclog::append_json(r, opened->detection.abi, line);
      line += '\n';
      out << line;
    }
  }
  const double json_mb = static_cast<double>(fs::file_size(work / "in.jsonl")) / 1e6;
  std::vector<double> json_s;
  for (int r = 0; r < runs; ++r) {
    json_s.push_back(seconds_of(w + " -q " + q(work / "in.jsonl") + " -o " + q(work / "out.pmclog")));
  }
  const bool same = std::system((std::string("cmp -s ") + q(work / "j.pmclog") + " " + q(work / "out.pmclog")).c_str()) == 0;
  std::printf("jsonl -> bytes, %d runs, median:\n", runs);
  std::printf("  %.0f MB of JSON in %.3f s = %.0f MB/s of JSON input (target >= 100 MB/s)%s\n",
              json_mb, median(json_s), json_mb / median(json_s),
              same ? "" : "  [OUTPUT DIFFERS FROM THE SOURCE LOG]");
  if (json)
    std::printf("{\"mib\":%.1f,\"cat_mib_s\":%.1f,\"synth_mib_s\":%.1f,\"json_mb\":%.1f,"
                "\"json_mb_s\":%.1f,\"same\":%s,\"runs\":%d}\n",
                mib, cat_rate, synth_rate, json_mb, json_mb / median(json_s), same ? "true" : "false",
                runs);
  fs::remove_all(work);
  return 0;
}
