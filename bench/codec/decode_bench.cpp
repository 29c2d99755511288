// Decode speed against the memory-bound baseline: iterating and fully
// decoding every record of a mixed log (mostly callchains of depth 8..32) versus a plain
// loop summing the same mapped bytes as 32-bit words, both in the same run; then the peak
// memory of streaming the same log through a pipe.
//
// "Full decode" is every check the decoder makes (framing, sizes, strings, depth) and every
// value it yields: header, scalar fields, text, and the frames as a checked view. Reading
// every frame through that view is measured apart, beside a hand-written walk with no
// checks at all that reads the same frames: a loop over each record's frames, whose length
// varies from record to record, costs about one branch miss per record whoever runs it.
// A reader shaped like FreeBSD's libpmc, the usual point of comparison, is measured in the
// same run.
//
//   pmclog-bench-decode [--file PATH | --generate PATH] [--size-mib N] [--runs N] [--json]
//                       [--generation L2|L3|M9|M10] [--width 4|8] [--byte-order little|big]
//   pmclog-bench-decode --file PATH --reader libpmc|decode
//
// --file benchmarks an existing log read-only (never written, never removed); its ABI is
// detected, the ABI options override the detection. --generate writes the synthetic log to
// a new file (refusing one that exists) and leaves it there for later --file runs. With
// neither, the synthetic log goes to a fresh temporary file, removed at the end
// (PMCLOG_BENCH_KEEP=1 keeps it). A benchmark must never destroy its input.
//
// Prints rates (MB/s), the ratio, and peak RSS of the streaming reader; --json adds the
// medians as one JSON object on the last line (bench/run reads it). --reader makes one pass
// of that reader only and prints the record count.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "pmclog/pmclog.h"

using namespace pmclog;
using Clock = std::chrono::steady_clock;

namespace {

// A deterministic mixed log: 1 in 64 records is not a callchain.
std::vector<uint8_t> make_log(const Abi& abi, size_t target) {
  std::vector<uint8_t> out;
  out.reserve(target + 65536);
  std::mt19937_64 rng(42);
  RecordValue init;
  init.kind = Kind::initialize;
  init[Field::version] = 0x03010000;
  init[Field::arch] = 0x91;
  encode(init, abi, out);
  uint32_t t = 0;
  while (out.size() < target) {
    RecordValue r;
    r.ts_sec = 1700000000 + (t >> 10);
    r.ts_nsec = (t * 997u) & 0xFFFFFFF;
    ++t;
    switch (rng() % 64) {
      case 0:
        r.kind = Kind::map_in;
        r[Field::pid] = 100 + rng() % 50;
        r[Field::start] = (abi.address_width == 4 ? 0x28000000 : 0x800000000) + (rng() % 4096) * 0x1000;
        r.text = "/usr/lib/libexample" + std::to_string(rng() % 100) + ".so.1";
        break;
      case 1:
        r.kind = Kind::proccsw;
        r[Field::pmcid] = 0xff020700;
        r[Field::pid] = 100 + rng() % 50;
        r[Field::value] = rng() >> 20;
        break;
      default: {
        r.kind = Kind::callchain;
        r[Field::pid] = 100 + rng() % 50;
        r[Field::pmcid] = 0xff020700;
        r[Field::cpuflags] = ((rng() % 8) << 16) | (rng() & 1);
        const int depth = 8 + static_cast<int>(rng() % 25);
        for (int i = 0; i < depth; ++i) r.pcs.push_back(0x400000 + (rng() % 0x100000));
        break;
      }
    }
    if (!encode(r, abi, out).ok()) std::abort();
  }
  return out;
}

__attribute__((noinline)) uint64_t word_sum(std::span<const uint8_t> d) {
  uint64_t s = 0;
  const size_t n = d.size() / 4;
  for (size_t i = 0; i < n; ++i) {
    uint32_t w;
    std::memcpy(&w, d.data() + i * 4, 4);
    s += w;
  }
  return s;
}

// What the consumer reads of each record: the header, every scalar field of the layouts in
// this log (CALLCHAIN: pid, pmcid, cpuflags; MAP_IN: pid, start; PROCCSW: pmcid, pid,
// value), the text and the frame count. Reading a field outside the record's layout is
// allowed (it holds an earlier value), so one expression serves every kind.
inline uint64_t fields(const Record& r) {
  return r.header.ts_sec + r.header.ts_nsec + r[Field::pid] + r[Field::pmcid] + r[Field::cpuflags] +
         r[Field::start] + r[Field::value] + r.text.size() + r.pcs.size();
}

// Decoding with LogReader::for_each, the library's way to read a whole log.
__attribute__((noinline)) uint64_t decode_all(std::span<const uint8_t> d, const Abi& abi, uint64_t& records) {
  LogReader rd = LogReader::over(d, abi);
  Error e;
  uint64_t s = 0, n = 0;
  if (rd.for_each([&](const Record& r) { ++n; s += fields(r); }, e) != Step::end)
    std::fprintf(stderr, "unexpected error: %s\n", e.message.c_str());
  records = n;
  return s;
}

// The same with a loop over next(): one out-of-line call per record.
__attribute__((noinline)) uint64_t decode_all_next(std::span<const uint8_t> d, const Abi& abi) {
  LogReader rd = LogReader::over(d, abi);
  Record r;
  Error e;
  uint64_t s = 0;
  while (rd.next(r, e) == Step::record) s += fields(r);
  if (e) std::fprintf(stderr, "unexpected error: %s\n", e.message.c_str());
  return s;
}

// Decoding, and reading every frame of every callchain as well.
__attribute__((noinline)) uint64_t decode_all_frames(std::span<const uint8_t> d, const Abi& abi) {
  LogReader rd = LogReader::over(d, abi);
  Error e;
  uint64_t s = 0;
  if (rd.for_each([&](const Record& r) {
        s += fields(r);
        r.pcs.for_each([&](uint64_t pc) { s += pc; });
      }, e) != Step::end)
    std::fprintf(stderr, "unexpected error: %s\n", e.message.c_str());
  return s;
}

// The lines kAhead bytes on, asked for at every record as the library does (fast_decode.h):
// without it, on machines whose prefetcher does not follow a walk whose next address comes
// from the data, every reader here waits on memory at every record.
inline void read_ahead(const uint8_t* p, const uint8_t* e) {
  constexpr ptrdiff_t kAhead = detail::kPrefetchAhead, kSpan = detail::kPrefetchSpan;
  detail::prefetch_span(e - p >= kAhead + kSpan ? p + kAhead : detail::kPrefetchIdle.data());
}

// Decoding, and copying every callchain's frames out into an array (what libpmc's reader
// does, so the like-for-like comparison with libpmc_style below).
__attribute__((noinline)) uint64_t decode_all_copy(std::span<const uint8_t> d, const Abi& abi) {
  LogReader rd = LogReader::over(d, abi);
  Error e;
  uint64_t s = 0;
  static uint64_t frames[512];
  if (rd.for_each([&](const Record& r) {
        s += fields(r);
        r.pcs.copy_to(frames);
      }, e) != Step::end)
    std::fprintf(stderr, "unexpected error: %s\n", e.message.c_str());
  return s + frames[0];
}

// Not the library: the least any reader of every frame must do, for comparison. Walks the
// records by their length word and sums the same fields and frames, with no check at all
// beyond staying inside the bytes; any generation, width and byte order, through the
// library's loads (endian_io.h) so that a big-endian walk pays the same byte swaps.
template <ByteOrder O, int W>
__attribute__((noinline)) uint64_t unchecked_frames(std::span<const uint8_t> d, uint8_t callchain_type,
                                                    uint16_t pcs_offset) {
  const uint8_t* p = d.data();
  const uint8_t* const e = p + d.size();
  uint64_t s = 0;
  while (e - p >= 24) {
    read_ahead(p, e);
    const uint32_t w = detail::load32<O>(p);
    const uint32_t len = w & 0xFFFF;
    if (len < 12 || len > static_cast<size_t>(e - p)) break;
    // The header's time and the first field words (past a shorter record's end: no checks,
    // this is only a floor).
    for (int i = 1; i < 6; ++i) s += detail::load32<O>(p + 4 * i);
    if (((w >> 16) & 0xFF) == callchain_type) {
      for (uint32_t o = pcs_offset; o + W <= len; o += W) s += detail::load_addr<O, W>(p + o);
    }
    p += len;
  }
  return s;
}

uint64_t unchecked_walk(std::span<const uint8_t> d, const Abi& abi) {
  const Layout* cc = layout_for(abi, Kind::callchain);
  const uint16_t pcs = cc->find(Field::pcs)->offset;
  const bool le = abi.byte_order == ByteOrder::little;
  if (abi.address_width == 4)
    return le ? unchecked_frames<ByteOrder::little, 4>(d, cc->type, pcs)
              : unchecked_frames<ByteOrder::big, 4>(d, cc->type, pcs);
  return le ? unchecked_frames<ByteOrder::little, 8>(d, cc->type, pcs)
            : unchecked_frames<ByteOrder::big, 8>(d, cc->type, pcs);
}

// Not the library: a reader shaped like FreeBSD's libpmc (pmclog_read over memory fed with
// pmclog_feed), the reference point of the target, rebuilt here from its documented
// behaviour: each record is copied whole into a saved buffer, its fields are read word by
// word into an event struct, a CALLCHAIN's frames are copied into a fixed array and the
// rest of the array is cleared (32 entries in the legacy era, 512 in the modern one), a path
// is copied out with a bounded copy. No depth or length checks beyond libpmc's own. libpmc
// reads only logs of its host's byte order, so this runs for little-endian logs; field
// offsets come from the layout table. With the same read-ahead as the library, so that
// the comparison is of decoding, not of the machine's prefetcher.
struct LibpmcOffsets {
  uint8_t cc, map_in, csw;           // type numbers
  uint16_t cc_pid, cc_pmcid, cc_cpuflags, cc_pcs;
  uint16_t mi_pid, mi_start, mi_path;
  uint16_t csw_pmcid, csw_value, csw_pid;
  uint32_t depth_array;              // PMC_CALLCHAIN_DEPTH_MAX of the era
};

LibpmcOffsets libpmc_offsets(const Abi& abi) {
  auto off = [&](Kind k, Field f) { return layout_for(abi, k)->find(f)->offset; };
  LibpmcOffsets o{};
  o.cc = layout_for(abi, Kind::callchain)->type;
  o.map_in = layout_for(abi, Kind::map_in)->type;
  o.csw = layout_for(abi, Kind::proccsw)->type;
  o.cc_pid = off(Kind::callchain, Field::pid);
  o.cc_pmcid = off(Kind::callchain, Field::pmcid);
  o.cc_cpuflags = off(Kind::callchain, Field::cpuflags);
  o.cc_pcs = off(Kind::callchain, Field::pcs);
  o.mi_pid = off(Kind::map_in, Field::pid);
  o.mi_start = off(Kind::map_in, Field::start);
  o.mi_path = off(Kind::map_in, Field::path);
  o.csw_pmcid = off(Kind::proccsw, Field::pmcid);
  o.csw_value = off(Kind::proccsw, Field::value);
  o.csw_pid = off(Kind::proccsw, Field::pid);
  o.depth_array = abi.legacy() ? 32 : 512;
  return o;
}

struct LibpmcEvent {
  uint32_t type, ts_sec, ts_nsec;
  uint32_t pid, pmcid, cpuflags, npc;
  uint64_t start, value;
  uint64_t pc[512];
  char path[1024];
  uint32_t pathlen;
};

template <int W>
__attribute__((noinline)) uint64_t libpmc_style(std::span<const uint8_t> d, const LibpmcOffsets& o,
                                                uint64_t* records = nullptr) {
  alignas(8) static uint32_t saved[65536 / 4];
  static LibpmcEvent ev;
  const uint8_t* p = d.data();
  const uint8_t* const e = p + d.size();
  uint64_t s = 0;
  while (e - p >= 4) {
    read_ahead(p, e);
    uint32_t h;
    std::memcpy(&h, p, 4);
    const uint32_t len = h & 0xFFFF;
    if (len == 0 || len > static_cast<size_t>(e - p)) break;
    std::memcpy(saved, p, len);
    p += len;
    const uint32_t* le = saved;
    if ((le[0] >> 24) != kHeaderMagic) break;
    ev.ts_sec = le[1];
    ev.ts_nsec = le[2];
    auto word = [&](uint16_t off) { return le[off / 4]; };
    auto addr = [&](uint16_t off) -> uint64_t {
      return W == 4 ? le[off / 4] : le[off / 4] | uint64_t{le[off / 4 + 1]} << 32;
    };
    ev.type = (h >> 16) & 0xFF;
    if (records) ++*records;
    if (ev.type == o.cc) {
      ev.pid = word(o.cc_pid);
      ev.pmcid = word(o.cc_pmcid);
      ev.cpuflags = word(o.cc_cpuflags);
      ev.npc = std::min<uint32_t>((len - o.cc_pcs) / W, o.depth_array);
      uint32_t i = 0;
      for (; i < ev.npc; ++i) ev.pc[i] = addr(static_cast<uint16_t>(o.cc_pcs + i * W));
      for (; i < o.depth_array; ++i) ev.pc[i] = 0;
    } else if (ev.type == o.map_in) {
      ev.pid = word(o.mi_pid);
      ev.start = addr(o.mi_start);
      const char* path = reinterpret_cast<const char*>(saved) + o.mi_path;
      const size_t n = strnlen(path, len - o.mi_path);
      ev.pathlen = static_cast<uint32_t>(std::min(n, sizeof ev.path - 1));
      std::memcpy(ev.path, path, ev.pathlen);
      ev.path[ev.pathlen] = 0;
    } else if (ev.type == o.csw) {
      ev.pmcid = word(o.csw_pmcid);
      ev.value = addr(o.csw_value);
      ev.pid = word(o.csw_pid);
    }
    // The consumer: the same values as fields() reads of a Record.
    s += uint64_t{ev.ts_sec} + ev.ts_nsec + ev.pid + ev.pmcid + ev.cpuflags + ev.start + ev.value +
         ev.pathlen + ev.npc;
  }
  return s;
}

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int stream_mode(const Abi& abi) {
  LogReader rd = LogReader::stream(fd_source(0), abi);
  Record r;
  Error e;
  uint64_t n = 0, s = 0;
  Step st;
  while ((st = rd.next(r, e)) == Step::record) {
    ++n;
    for (uint64_t pc : r.pcs) s += pc;
  }
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  std::printf("%llu %ld %llu %zu\n", static_cast<unsigned long long>(n), ru.ru_maxrss,
              static_cast<unsigned long long>(s & 1), rd.buffer_capacity());
  return st == Step::end ? 0 : 1;
}

// A file this run created, removed when the run ends whatever the way out, unless kept.
// Only files made here with O_EXCL are ever removed.
class CreatedFile {
 public:
  CreatedFile() = default;
  CreatedFile(const CreatedFile&) = delete;
  CreatedFile& operator=(const CreatedFile&) = delete;
  ~CreatedFile() {
    if (!path_.empty() && !keep_) ::unlink(path_.c_str());
  }
  void set(std::string path, bool keep) {
    path_ = std::move(path);
    keep_ = keep;
  }
  void keep() { keep_ = true; }

 private:
  std::string path_;
  bool keep_ = false;
};

// Writes the bytes to fd and closes it; false (errno set) on a short write or close error.
bool write_all(int fd, const std::vector<uint8_t>& bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = n < 0 ? errno : EIO;
      ::close(fd);
      errno = err;
      return false;
    }
    done += static_cast<size_t>(n);
  }
  return ::close(fd) == 0;
}

// Creates `path` (it must not exist: O_EXCL also refuses a symlink planted there), or a
// fresh temporary file when `path` is empty, and writes the bytes. Returns the path, or
// nullopt after printing why; a file created here and left incomplete is removed.
std::optional<std::string> write_new_file(std::string path, const std::vector<uint8_t>& bytes,
                                          CreatedFile& created, bool keep) {
  int fd;
  if (path.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    path = std::string(tmp && *tmp ? tmp : "/tmp") + "/pmclog-bench-decode.XXXXXX";
    fd = ::mkstemp(path.data());
  } else {
    fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  }
  if (fd < 0) {
    std::fprintf(stderr, "pmclog-bench-decode: cannot create %s: %s%s\n", path.c_str(),
                 std::strerror(errno),
                 errno == EEXIST ? " (--generate never overwrites; --file PATH benchmarks it)" : "");
    return std::nullopt;
  }
  created.set(path, keep);
  if (!write_all(fd, bytes)) {
    std::fprintf(stderr, "pmclog-bench-decode: writing %s: %s\n", path.c_str(), std::strerror(errno));
    created.set(path, false);
    return std::nullopt;
  }
  return path;
}

// The streaming run, as `cat FILE | READER ARGS...` without a shell (no quoting of the
// paths): what the reader prints, or nullopt when either side failed.
std::optional<std::string> run_streaming_reader(const std::string& file, std::vector<std::string> args) {
  int data[2], out[2];
  if (::pipe(data) != 0) return std::nullopt;
  if (::pipe(out) != 0) {
    ::close(data[0]);
    ::close(data[1]);
    return std::nullopt;
  }
  const pid_t cat = ::fork();
  if (cat == 0) {
    ::dup2(data[1], 1);
    ::close(data[0]);
    ::close(data[1]);
    ::close(out[0]);
    ::close(out[1]);
    ::execlp("cat", "cat", "--", file.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t reader = ::fork();
  if (reader == 0) {
    ::dup2(data[0], 0);
    ::dup2(out[1], 1);
    ::close(data[0]);
    ::close(data[1]);
    ::close(out[0]);
    ::close(out[1]);
    ::execvp(argv[0], argv.data());  // a bare name is found on PATH, as the shell did
    ::_exit(127);
  }
  ::close(data[0]);
  ::close(data[1]);
  ::close(out[1]);
  std::string text;
  char buf[4096];
  for (ssize_t n; (n = ::read(out[0], buf, sizeof buf)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    text.append(buf, static_cast<size_t>(n));
  }
  ::close(out[0]);
  int cat_status = -1, reader_status = -1;
  if (cat > 0) ::waitpid(cat, &cat_status, 0);
  if (reader > 0) ::waitpid(reader, &reader_status, 0);
  const auto ok = [](pid_t pid, int st) { return pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0; };
  if (!ok(cat, cat_status) || !ok(reader, reader_status)) return std::nullopt;
  return text;
}

// --reader: one pass of one reader over the mapped log, so that a whole process (start-up,
// mapping, page faults, the pass) can be timed beside the tools' (bench/run) or counted by
// callgrind (--toggle-collect on the reader's function).
int one_pass(const std::string& reader, std::span<const uint8_t> d, const Abi& abi,
             const LibpmcOffsets& lo) {
  uint64_t records = 0, sink = 0;
  if (reader == "libpmc") {
    if (abi.byte_order != ByteOrder::little) {
      std::fprintf(stderr, "pmclog-bench-decode: the libpmc-style reader reads little-endian logs only\n");
      return 2;
    }
    sink = abi.address_width == 4 ? libpmc_style<4>(d, lo, &records) : libpmc_style<8>(d, lo, &records);
  } else if (reader == "decode") {
    sink = decode_all(d, abi, records);
  } else {
    std::fprintf(stderr, "pmclog-bench-decode: --reader libpmc|decode\n");
    return 2;
  }
  std::printf("%llu records (checksum %llu)\n", static_cast<unsigned long long>(records),
              static_cast<unsigned long long>(sink & 0xFFFF));
  return 0;
}

int usage(const char* argv0) {
  std::fprintf(stderr,
               "usage: %s [--file PATH | --generate PATH] [--size-mib N] [--runs N] [--json]\n"
               "          [--generation L2|L3|M9|M10] [--width 4|8] [--byte-order little|big]\n"
               "       %s --file PATH --reader libpmc|decode   (one pass, for whole-process timing)\n",
               argv0, argv0);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  size_t mib = 256;
  int runs = 5;
  std::string file, generate;
  std::optional<ByteOrder> order;
  std::optional<Generation> gen;
  std::optional<uint8_t> width;
  uint8_t time_width = 0;  // only for --stream: the parent's detected ABI, passed on whole
  bool stream = false;
  bool json = false;
  std::string reader;  // --reader: one pass of one reader, for whole-process timing
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
      if (a == "--size-mib") mib = std::stoul(next());
      else if (a == "--runs") runs = std::max(1, std::stoi(next()));
      else if (a == "--file") file = next();
      else if (a == "--generate") generate = next();
      else if (a == "--byte-order") order = parse_byte_order(next()).value_or(ByteOrder::little);
      else if (a == "--generation") gen = parse_generation(next()).value_or(Generation::L3);
      else if (a == "--width") width = next() == "4" ? 4 : 8;
      else if (a == "--time-width") time_width = next() == "4" ? 4 : 8;
      else if (a == "--stream") stream = true;
      else if (a == "--json") json = true;
      else if (a == "--reader") reader = next();
      else return usage(argv[0]);
    }
  } catch (const std::exception&) {
    return usage(argv[0]);
  }
  if (!file.empty() && !generate.empty()) {
    std::fprintf(stderr, "pmclog-bench-decode: --file and --generate exclude each other\n");
    return usage(argv[0]);
  }
  Abi abi = Abi::make(gen.value_or(Generation::L3), width.value_or(8),
                      order.value_or(ByteOrder::little));
  if (time_width) abi.time_width = time_width;
  if (stream) return stream_mode(abi);

  CreatedFile created;
  std::optional<MappedFile> mapped;
  auto map = [&]() {
    auto m = MappedFile::open(file);  // read-only: O_RDONLY, PROT_READ
    if (!m.ok()) {
      std::fprintf(stderr, "%s\n", m.error().message.c_str());
      return false;
    }
    mapped.emplace(std::move(m).value());
    return true;
  };
  if (!file.empty()) {
    if (!map()) return 2;
    const auto bytes = mapped->bytes();
    if (sniff_compression(bytes.first(std::min<size_t>(bytes.size(), 16))) != Compression::none) {
      std::fprintf(stderr, "pmclog-bench-decode: %s is compressed; decompress it first\n", file.c_str());
      return 2;
    }
    AbiHint hint;
    hint.generation = gen;
    hint.address_width = width;
    hint.byte_order = order;
    auto det = detect_abi(bytes.first(std::min<size_t>(bytes.size(), 8u << 20)), hint);
    if (!det.ok()) {
      std::fprintf(stderr, "pmclog-bench-decode: %s: %s\n", file.c_str(), det.error().message.c_str());
      return 2;
    }
    abi = det->abi;
  }
  if (layout_for(abi, Kind::callchain) == nullptr) {
    std::fprintf(stderr, "%s has no CALLCHAIN records\n", describe(abi).c_str());
    return 2;
  }
  if (file.empty()) {
    const bool keep = !generate.empty() || std::getenv("PMCLOG_BENCH_KEEP") != nullptr;
    auto path = write_new_file(generate, make_log(abi, mib << 20), created, keep);
    if (!path) return 2;
    file = *path;
    if (generate.empty() && keep) std::printf("keeping %s (PMCLOG_BENCH_KEEP)\n", file.c_str());
    if (!map()) return 2;
  }
  const auto d = mapped->bytes();
  const double mb = static_cast<double>(d.size()) / 1e6;
  std::printf("log: %s, %.1f MB, %s\n", file.c_str(), mb, describe(abi).c_str());

  std::vector<double> sum_t, dec_t, next_t, frames_t, copy_t, floor_t, libpmc_t;
  uint64_t records = 0, sink = 0;
  const bool libpmc_ok = abi.byte_order == ByteOrder::little;
  const LibpmcOffsets lo = libpmc_offsets(abi);
  if (!reader.empty()) return one_pass(reader, d, abi, lo);
  for (int i = 0; i < runs; ++i) {
    auto t0 = Clock::now();
    sink += word_sum(d);
    sum_t.push_back(seconds_since(t0));
    t0 = Clock::now();
    sink += decode_all(d, abi, records);
    dec_t.push_back(seconds_since(t0));
    t0 = Clock::now();
    sink += decode_all_next(d, abi);
    next_t.push_back(seconds_since(t0));
    t0 = Clock::now();
    sink += decode_all_frames(d, abi);
    frames_t.push_back(seconds_since(t0));
    t0 = Clock::now();
    sink += decode_all_copy(d, abi);
    copy_t.push_back(seconds_since(t0));
    t0 = Clock::now();
    sink += unchecked_walk(d, abi);
    floor_t.push_back(seconds_since(t0));
    if (libpmc_ok) {
      t0 = Clock::now();
      sink += abi.address_width == 4 ? libpmc_style<4>(d, lo) : libpmc_style<8>(d, lo);
      libpmc_t.push_back(seconds_since(t0));
    }
  }
  const double sum_rate = mb / median(sum_t);
  auto line = [&](const char* what, const std::vector<double>& t) {
    const double rate = mb / median(t);
    std::printf("  %-44s %8.1f MB/s  %5.1f M records/s  ratio %.2f\n", what, rate,
                static_cast<double>(records) / median(t) / 1e6, rate / sum_rate);
  };
  std::printf("records: %llu\n", static_cast<unsigned long long>(records));
  std::printf("mapping faulted in once, reused by every run (compute-bound), medians of %d:\n", runs);
  std::printf("  %-44s %8.1f MB/s\n", "word sum (baseline)", sum_rate);
  line("full decode, for_each (target ratio >= 0.75)", dec_t);
  line("full decode, loop over next()", next_t);
  line("full decode + read every frame, for_each", frames_t);
  line("full decode + frames copied out (copy_to)", copy_t);
  line("unchecked hand-written walk + every frame", floor_t);
  if (libpmc_ok) line("libpmc-style reader (frames copied out)", libpmc_t);

  // What a tool does: map the file (in the page cache) and read it once.
  std::vector<double> fsum_t, fdec_t;
  for (int i = 0; i < runs; ++i) {
    auto t0 = Clock::now();
    {
      auto m = MappedFile::open(file);
      sink += word_sum(m->bytes());
    }
    fsum_t.push_back(seconds_since(t0));
    t0 = Clock::now();
    {
      auto m = MappedFile::open(file);
      sink += decode_all(m->bytes(), abi, records);
    }
    fdec_t.push_back(seconds_since(t0));
  }
  const double fsum = mb / median(fsum_t), fdec = mb / median(fdec_t);
  std::printf("fresh mapping per run (page faults included, as when a tool opens a log):\n");
  std::printf("  %-44s %8.1f MB/s\n", "word sum (baseline)", fsum);
  std::printf("  %-44s %8.1f MB/s  ratio %.2f\n", "full decode, for_each", fdec, fdec / fsum);

  // Streaming through a pipe: peak RSS of a reader process fed by cat.
  const std::optional<std::string> streamed = run_streaming_reader(
      file, {argv[0], "--stream", "--generation", std::string(generation_name(abi.generation)),
             "--width", std::to_string(abi.address_width), "--byte-order",
             std::string(byte_order_name(abi.byte_order)), "--time-width",
             std::to_string(abi.time_width)});
  unsigned long long n = 0, odd = 0;
  long rss_kib = 0;
  size_t cap = 0;
  const int got = streamed ? std::sscanf(streamed->c_str(), "%llu %ld %llu %zu", &n, &rss_kib, &odd, &cap) : 0;
  const int rc = streamed ? 0 : 1;
  if (got != 4 || rc != 0 || n != records) {
    std::fprintf(stderr, "streaming run failed (rc %d, %llu records)\n", rc, n);
    return 1;
  }
  std::printf("streaming via pipe: %llu records, peak RSS %.1f MiB (target < 16), buffer %zu KiB\n",
              n, static_cast<double>(rss_kib) / 1024.0, cap >> 10);
  std::printf("(checksum %llu)\n", static_cast<unsigned long long>(sink & 0xFFFF));
  if (json) {  // for bench/run: one object, the last line
    auto secs = [](const std::vector<double>& t) { return t.empty() ? 0.0 : median(t); };
    std::printf("{\"abi\":\"%s\",\"bytes\":%zu,\"records\":%llu,\"runs\":%d,\"seconds\":{"
                "\"word_sum\":%.6f,\"decode\":%.6f,\"decode_next\":%.6f,\"decode_frames\":%.6f,"
                "\"decode_copy\":%.6f,\"unchecked_walk\":%.6f,\"libpmc_style\":%.6f},"
                "\"stream_peak_kib\":%ld}\n",
                describe(abi).c_str(), d.size(), static_cast<unsigned long long>(records), runs,
                secs(sum_t), secs(dec_t), secs(next_t), secs(frames_t), secs(copy_t), secs(floor_t),
                secs(libpmc_t), rss_kib);
  }
  return 0;  // `created` removes the temporary log

}
