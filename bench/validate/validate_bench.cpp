// Benchmark for pmclog-validate. Not a test: it prints figures.
//
//   validate_bench [--size-mb N] [--runs N] [--keep] [FILE]
//
// Without FILE it writes a deterministic valid log of about N MiB (default 1024) of mixed
// records, mostly CALLCHAINs, with the library's encoder into a temporary file of its own
// (created with mkstemp, removed at the end unless --keep). A FILE is only read. Then, in the
// same run and over the same file, it measures (median of --runs, interleaved):
//   - the raw speed of summing the file's 32-bit words over a fresh read-only mapping;
//   - the speed of validate_file() (what the tool runs: open, map, detect, check every rule);
// and prints both rates and their ratio (target: validation >= 40% of the word sum).
// Memory: it validates the big file and one an eighth of its size in child processes and
// prints their peak RSS, both mapped (file pages are page cache, shown apart from anonymous
// memory) and streamed through a pipe-like reader (peak RSS is then all the checker's own).
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "config.h"
#include "pmclog/encode.h"
#include "pmclog/reader.h"
#include "scan.h"

using namespace pmclog;
using Clock = std::chrono::steady_clock;

namespace {

struct Lcg {
  uint64_t s = 0x1234567;
  uint32_t next() {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<uint32_t>(s >> 33);
  }
};

// Files this run created (mkstemps: never an existing file), removed on every way out
// unless --keep; nothing else is ever removed.
struct Created {
  std::vector<std::string> paths;
  bool keep = false;
  ~Created() {
    if (!keep)
      for (const auto& p : paths) ::unlink(p.c_str());
  }
};

// A new, empty file DIR/validate_bench_XXXXXX<suffix>, recorded in `created`; nullptr after
// printing why.
std::FILE* create_temp(const std::string& dir, const char* suffix, Created& created,
                       std::string& path) {
  path = dir + "/validate_bench_XXXXXX" + suffix;
  const int fd = ::mkstemps(path.data(), static_cast<int>(std::strlen(suffix)));
  if (fd < 0) {
    std::perror(path.c_str());
    return nullptr;
  }
  created.paths.push_back(path);
  std::FILE* f = ::fdopen(fd, "wb");
  if (!f) ::close(fd);
  return f;
}

// Writes a valid M9 LP64 little-endian log of about `bytes` bytes: a few PMCs, a pool of 64
// processes that fork, exec, map and exit, and CALLCHAINs of depth 4..28 for 97% of records.
// Takes and closes `f`; false after printing why.
bool generate(std::FILE* f, const std::string& path, uint64_t bytes) {
  const Abi abi = Abi::make(Generation::M9, 8, ByteOrder::little);
  if (!f) return false;
  std::vector<uint8_t> buf;
  uint64_t written = 0, tsc = 1000;
  bool ok = true;
  auto put = [&](RecordValue v) {
    v.tsc = tsc += 7;
    auto r = encode(v, abi, buf);
    if (!r.ok()) {
      std::fprintf(stderr, "encode: %s\n", r.error().message.c_str());
      ok = false;
    }
    if (buf.size() >= (4u << 20)) {
      if (std::fwrite(buf.data(), 1, buf.size(), f) != buf.size()) ok = false;
      written += buf.size();
      buf.clear();
    }
  };
  RecordValue init;
  init.kind = Kind::initialize;
  init[Field::version] = 0x09030000;
  init[Field::arch] = 0x98;
  init.text = "GenuineIntel-6-55-4";
  put(init);
  const uint32_t pmcs[4] = {0xFFF02700, 0xFFF02701, 0x00302702, 0x00402702};
  for (uint32_t id : pmcs) {
    RecordValue a;
    a.kind = Kind::pmcallocate;
    a[Field::pmcid] = id;
    a[Field::event] = 0x1000;
    a[Field::rate] = 100000;
    put(a);
  }
  Lcg rng;
  std::vector<uint32_t> pids;
  uint32_t next_pid = 100;
  auto spawn = [&](uint32_t parent) {
    const uint32_t pid = next_pid++;
    RecordValue fork;
    fork.kind = Kind::procfork;
    fork[Field::oldpid] = parent;
    fork[Field::newpid] = pid;
    put(fork);
    RecordValue m;
    m.kind = Kind::map_in;
    m[Field::pid] = pid;
    m[Field::start] = 0x800000000ull;
    m.text = "/lib/libc.so.7";
    put(m);
    return pid;
  };
  for (int i = 0; i < 64; ++i) pids.push_back(spawn(1));
  std::vector<uint64_t> pcs;
  uint64_t n = 0;
  while (ok && written + buf.size() < bytes) {
    ++n;
    const uint32_t r = rng.next();
    const uint32_t pid = pids[r % pids.size()];
    if (n % 1000 == 0) {  // a process exits and another takes its place
      RecordValue mo;
      mo.kind = Kind::map_out;
      mo[Field::pid] = pid;
      mo[Field::start] = 0x800000000ull;
      mo[Field::end] = 0x800200000ull;
      put(mo);
      RecordValue ex;
      ex.kind = Kind::sysexit;
      ex[Field::pid] = pid;
      put(ex);
      pids[r % pids.size()] = spawn(pids[(r >> 8) % pids.size()]);
      continue;
    }
    if (n % 37 == 0) {
      RecordValue c;
      c.kind = Kind::proccsw;
      c[Field::pmcid] = pmcs[0];
      c[Field::pid] = pid;
      c[Field::tid] = pid + 100000;
      c[Field::value] = r;
      put(c);
      continue;
    }
    RecordValue cc;
    cc.kind = Kind::callchain;
    cc[Field::pid] = pid;
    cc[Field::tid] = pid + 100000;
    cc[Field::pmcid] = pmcs[(r >> 4) & 3];
    cc[Field::cpuflags] = ((r >> 6) & 7u) << 16 | ((r >> 9) & 1u);
    pcs.resize(4 + (r >> 10) % 25);
    for (size_t k = 0; k < pcs.size(); ++k) pcs[k] = 0xffffffff80200000ull + (rng.next() & 0xFFFFF0);
    cc.pcs = pcs;
    put(cc);
  }
  RecordValue close;
  close.kind = Kind::closelog;
  put(close);
  if (std::fwrite(buf.data(), 1, buf.size(), f) != buf.size()) ok = false;
  if (std::fclose(f) != 0) ok = false;
  if (!ok) std::fprintf(stderr, "validate_bench: writing %s failed\n", path.c_str());
  return ok;
}

uint64_t file_size(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
}

// The baseline: map the file read-only and add up its 32-bit words.
double time_word_sum(const std::string& path, uint32_t& sum_out) {
  const auto t0 = Clock::now();
  const int fd = ::open(path.c_str(), O_RDONLY);
  const size_t size = file_size(path);
  void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (p == MAP_FAILED) {
    std::perror("mmap");
    std::exit(2);
  }
  const uint32_t* w = static_cast<const uint32_t*>(p);
  uint32_t sum = 0;
  for (size_t i = 0, n = size / 4; i < n; ++i) sum += w[i];
  ::munmap(p, size);
  ::close(fd);
  sum_out = sum;
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

double time_validate(const std::string& path, validate::FileResult& out) {
  const auto cfg = validate::Config::defaults(false, std::nullopt);
  const auto t0 = Clock::now();
  out = validate::validate_file(path, {}, cfg);
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// The same two loops over one mapping that is already populated: no page faults, so this
// compares the work per byte alone.
struct Hot {
  const uint8_t* p = nullptr;
  size_t size = 0;
};

double time_word_sum_hot(const Hot& h, uint32_t& sum_out) {
  const auto t0 = Clock::now();
  const uint32_t* w = reinterpret_cast<const uint32_t*>(h.p);
  uint32_t sum = 0;
  for (size_t i = 0, n = h.size / 4; i < n; ++i) sum += w[i];
  sum_out = sum;
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

double time_validate_hot(const Hot& h, const Abi& abi, validate::FileResult& out) {
  const auto cfg = validate::Config::defaults(false, std::nullopt);
  const auto t0 = Clock::now();
  LogReader rd = LogReader::over({h.p, h.size}, abi);
  out = validate::validate_reader("hot", rd, cfg);
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

long status_kb(const char* key) {
  std::ifstream in("/proc/self/status");
  std::string line;
  const size_t n = std::strlen(key);
  while (std::getline(in, line)) {
    if (line.compare(0, n, key) == 0) return std::strtol(line.c_str() + n + 1, nullptr, 10);
  }
  return -1;
}

struct Mem {
  long hwm_kb = -1, anon_kb = -1, file_kb = -1;
  uint64_t records = 0;
};

// Validates in a child process so that each figure is that run's own peak.
Mem measure_memory(const std::string& path, bool streamed) {
  int fds[2];
  if (::pipe(fds) != 0) std::exit(2);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    Mem m;
    const auto cfg = validate::Config::defaults(false, std::nullopt);
    if (streamed) {
      const int fd = ::open(path.c_str(), O_RDONLY);
      LogReader rd = LogReader::stream(fd_source(fd), Abi::make(Generation::M9, 8, ByteOrder::little));
      m.records = validate::validate_reader(path, rd, cfg).records;
    } else {
      m.records = validate::validate_file(path, {}, cfg).records;
    }
    m.hwm_kb = status_kb("VmHWM:");
    m.anon_kb = status_kb("RssAnon:");
    m.file_kb = status_kb("RssFile:");
    if (::write(fds[1], &m, sizeof m) != sizeof m) _exit(1);
    _exit(0);
  }
  ::close(fds[1]);
  Mem m;
  if (::read(fds[0], &m, sizeof m) != sizeof m) std::fprintf(stderr, "child failed\n");
  ::close(fds[0]);
  int st = 0;
  ::waitpid(pid, &st, 0);
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t size_mb = 1024;
  int runs = 5;
  bool keep = false;
  std::string path;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--size-mb" && i + 1 < argc) {
      size_mb = std::strtoull(argv[++i], nullptr, 10);
    } else if (a == "--runs" && i + 1 < argc) {
      runs = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--keep") {
      keep = true;
    } else if (a == "--help" || a == "-h") {
      std::printf("usage: validate_bench [--size-mb N] [--runs N] [--keep] [FILE]\n");
      return 0;
    } else {
      path = a;
    }
  }
  const bool generated = path.empty();
  std::string small;
  Created created;
  created.keep = keep;
  if (generated) {
    const char* tmp = std::getenv("TMPDIR");
    const std::string dir = tmp && *tmp ? tmp : "/tmp";
    std::FILE* big_f = create_temp(dir, ".pmclog", created, path);
    std::FILE* small_f = big_f ? create_temp(dir, "_small.pmclog", created, small) : nullptr;
    if (!small_f) {
      if (big_f) std::fclose(big_f);
      return 2;
    }
    std::printf("generating %s (%llu MiB) and %s (%llu MiB)...\n", path.c_str(),
                static_cast<unsigned long long>(size_mb), small.c_str(),
                static_cast<unsigned long long>(size_mb / 8));
    const bool big_ok = generate(big_f, path, size_mb << 20);
    if (!generate(small_f, small, (size_mb << 20) / 8) || !big_ok) {
      created.keep = false;
      return 2;
    }
  }
  const uint64_t size = file_size(path);
  const double mib = static_cast<double>(size) / (1 << 20);

  // Warm the page cache once so that both measurements read memory, not the disk.
  uint32_t sum = 0;
  time_word_sum(path, sum);

  std::vector<double> t_sum, t_val;
  validate::FileResult res;
  for (int r = 0; r < runs; ++r) {
    t_sum.push_back(time_word_sum(path, sum));
    t_val.push_back(time_validate(path, res));
  }
  const double sum_rate = mib / median(t_sum), val_rate = mib / median(t_val);
  std::printf("file: %s, %.1f MiB, %llu records, %llu errors, %llu warnings (sum %08x)\n",
              path.c_str(), mib, static_cast<unsigned long long>(res.records),
              static_cast<unsigned long long>(res.errors),
              static_cast<unsigned long long>(res.warnings), sum);
  std::printf("raw 32-bit word sum : %8.1f MiB/s  (median of %d: %.3f s)\n", sum_rate, runs,
              median(t_sum));
  std::printf("validate_file       : %8.1f MiB/s  (median of %d: %.3f s), %.1f M records/s\n",
              val_rate, runs, median(t_val),
              static_cast<double>(res.records) / median(t_val) / 1e6);
  std::printf("ratio validate/sum  : %8.1f %%  (target >= 40 %%)\n", 100.0 * val_rate / sum_rate);

  // Pre-faulted mapping: both loops without page-fault cost.
  {
    if (!res.abi) {
      std::fprintf(stderr, "validate_bench: %s: the ABI could not be detected\n", path.c_str());
      return 2;
    }
    const int fd = ::open(path.c_str(), O_RDONLY);
    void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    if (p == MAP_FAILED) {
      std::perror("mmap");
      return 2;
    }
    const Hot h{static_cast<const uint8_t*>(p), size};
    const Abi abi = *res.abi;
    std::vector<double> hs, hv;
    validate::FileResult hres;
    for (int r = 0; r < runs; ++r) {
      hs.push_back(time_word_sum_hot(h, sum));
      hv.push_back(time_validate_hot(h, abi, hres));
    }
    const double hs_rate = mib / median(hs), hv_rate = mib / median(hv);
    std::printf("\npre-faulted mapping (no page faults in either loop):\n");
    std::printf("raw 32-bit word sum : %8.1f MiB/s  (median of %d: %.3f s)\n", hs_rate, runs,
                median(hs));
    std::printf("validate_reader     : %8.1f MiB/s  (median of %d: %.3f s), %.1f M records/s\n",
                hv_rate, runs, median(hv), static_cast<double>(hres.records) / median(hv) / 1e6);
    std::printf("ratio validate/sum  : %8.1f %%\n", 100.0 * hv_rate / hs_rate);
    ::munmap(p, size);
    ::close(fd);
  }

  if (generated) {
    std::printf("\npeak memory (child processes):\n");
    for (const std::string& p : {small, path}) {
      const Mem mapped = measure_memory(p, false);
      const Mem streamed = measure_memory(p, true);
      std::printf("  %8.1f MiB, %9llu records: mapped VmHWM %7ld KiB (RssAnon %6ld KiB, "
                  "RssFile %7ld KiB page cache); streamed VmHWM %6ld KiB\n",
                  static_cast<double>(file_size(p)) / (1 << 20),
                  static_cast<unsigned long long>(mapped.records), mapped.hwm_kb,
                  mapped.anon_kb, mapped.file_kb, streamed.hwm_kb);
    }
  }
  return 0;  // `created` removes the generated logs unless --keep
}
