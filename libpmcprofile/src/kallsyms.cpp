#include "pmcprofile/kallsyms.h"

#include <fcntl.h>
#if defined(__SSE2__) && defined(__x86_64__)
#include <emmintrin.h>
#endif
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>
#include <system_error>
#include <thread>
#include <vector>

#include "pmclog/reader.h"
#include "streamed_file.h"

namespace pmcprofile {
namespace {

struct Line {
  uint64_t address;
  char type;
  std::string_view name;    // up to the tab that precedes a module
  std::string_view module;  // inside the brackets after the tab, or ""
};

// "\t[MODULE]" at text[tab...], or "".
std::string_view module_after(std::string_view text, size_t tab) {
  if (tab >= text.size() || text.size() < tab + 3 || text[tab + 1] != '[' || text.back() != ']')
    return {};
  return text.substr(tab + 2, text.size() - tab - 3);
}

// 16 hex digits, or false. 120,000 addresses a file: with SSE2 (every x86-64) all 16 are
// checked and combined at once (callgrind: parse() went from 151 to 64 instructions a line,
// where a table lookup per digit stays elsewhere).
bool hex16(const char* p, uint64_t& out) {
#if defined(__SSE2__) && defined(__x86_64__)
  const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const __m128i lower = _mm_or_si128(c, _mm_set1_epi8(0x20));  // 'A'-'F' as 'a'-'f'
  // Signed compares: a byte of 0x80 or more is below '0' and fails both ranges.
  const __m128i digit = _mm_and_si128(_mm_cmpgt_epi8(c, _mm_set1_epi8('0' - 1)),
                                      _mm_cmplt_epi8(c, _mm_set1_epi8('9' + 1)));
  const __m128i letter = _mm_and_si128(_mm_cmpgt_epi8(lower, _mm_set1_epi8('a' - 1)),
                                       _mm_cmplt_epi8(lower, _mm_set1_epi8('f' + 1)));
  if (_mm_movemask_epi8(_mm_or_si128(digit, letter)) != 0xFFFF) return false;
  // A digit's value is its low nibble, plus 9 for a letter.
  const __m128i v = _mm_add_epi8(_mm_and_si128(c, _mm_set1_epi8(0x0F)),
                                 _mm_and_si128(letter, _mm_set1_epi8(9)));
  // Each 16-bit lane holds a pair of digits, the high one first: one byte from the two.
  const __m128i pairs = _mm_or_si128(_mm_and_si128(_mm_slli_epi16(v, 4), _mm_set1_epi16(0xF0)),
                                     _mm_srli_epi16(v, 8));
  const auto bytes = static_cast<uint64_t>(_mm_cvtsi128_si64(_mm_packus_epi16(pairs, pairs)));
  out = __builtin_bswap64(bytes);  // the first pair is the most significant byte
  return true;
#else
  static constexpr std::array<uint8_t, 256> kHexDigit = [] {  // each byte's digit, or 0xFF
    std::array<uint8_t, 256> t{};
    t.fill(0xFF);
    for (int i = 0; i < 10; ++i) t['0' + i] = static_cast<uint8_t>(i);
    for (int i = 0; i < 6; ++i) t['a' + i] = t['A' + i] = static_cast<uint8_t>(10 + i);
    return t;
  }();
  uint64_t v = 0;
  unsigned bad = 0;
  for (int i = 0; i < 16; ++i) {
    const unsigned d = kHexDigit[static_cast<unsigned char>(p[i])];
    bad |= d;
    v = v << 4 | (d & 0xFu);
  }
  if (bad > 0xFu) return false;
  out = v;
  return true;
#endif
}

// False for a line that is not "ADDRESS TYPE NAME".
bool parse(std::string_view line, Line& out) {
  // A 64-bit kernel's lines, 120,000 of them: the fixed widths read in place. Only a module's
  // symbol, "NAME\t[MODULE]", ends in ']', so only those are searched for the tab.
  if (line.size() > 19 && line[16] == ' ' && line[18] == ' ' && hex16(line.data(), out.address)) {
    out.type = line[17];
    const char* name = line.data() + 19;
    const void* tab =
        line.back() == ']' ? std::memchr(name, '\t', line.size() - 19) : nullptr;
    out.name = std::string_view(name, tab != nullptr ? static_cast<const char*>(tab) - name
                                                      : line.size() - 19);
    out.module = tab != nullptr ? module_after(line, 19 + out.name.size()) : std::string_view();
    return true;
  }
  const size_t s1 = line.find(' ');
  if (s1 == std::string_view::npos || line.size() < s1 + 4 || line[s1 + 2] != ' ') return false;
  out.address = 0;
  std::from_chars(line.data(), line.data() + s1, out.address, 16);
  out.type = line[s1 + 1];
  out.name = line.substr(s1 + 3);
  const size_t tab = out.name.find('\t');
  out.module = tab != std::string_view::npos ? module_after(out.name, tab) : std::string_view();
  out.name = out.name.substr(0, tab);
  return true;
}

// The whole file, the plain way, when it cannot be streamed (below). /proc files have no
// size to read up front, and a line at a time through an istream costs more than the kernel
// takes to make the text. The buffer is never zeroed.
struct WholeFile {
  std::unique_ptr<char[]> data;
  size_t size = 0;
};
WholeFile read_all(const std::string& path) {
  WholeFile f;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return f;
  size_t cap = 0;
  for (;;) {
    if (cap - f.size < (size_t{1} << 16)) {
      const size_t grown = std::max<size_t>(cap * 2, size_t{16} << 20);
      auto bigger = std::make_unique_for_overwrite<char[]>(grown);
      if (f.size != 0) std::memcpy(bigger.get(), f.data.get(), f.size);
      f.data = std::move(bigger);
      cap = grown;
    }
    const ssize_t n = ::read(fd, f.data.get() + f.size, cap - f.size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    f.size += static_cast<size_t>(n);
  }
  ::close(fd);
  return f;
}

// A table being read: its entries (names as offsets into the text being parsed) and the
// modules named so far, the kernel's own text first.
struct Building {
  KernelSymbols::Entries entries;
  std::vector<std::string_view> modules{std::string_view()};
  // `m`'s index ("" is 0), or none past the 65,535th module.
  std::optional<uint16_t> module_id(std::string_view m) {
    if (m == modules.back()) return static_cast<uint16_t>(modules.size() - 1);  // runs of one
    for (size_t i = 0; i < modules.size(); ++i)
      if (modules[i] == m) return static_cast<uint16_t>(i);
    if (modules.size() > UINT16_MAX) return std::nullopt;
    modules.push_back(m);
    return static_cast<uint16_t>(modules.size() - 1);
  }
};

// The code symbols of the whole lines of text[at, ...): `at` moves past them. With `to_end`,
// a last line without its newline counts too. A name longer than 64 KiB, past the text's
// first 4 GiB or in a module past the 65,535th is no kernel's: left out (its addresses are
// then unresolved, never named after another).
void add_code_symbols(std::string_view text, size_t& at, bool to_end, Building& out) {
  size_t end = text.size();
  if (!to_end) {
    const void* nl = at < end ? ::memrchr(text.data() + at, '\n', end - at) : nullptr;
    if (nl == nullptr) return;
    end = static_cast<size_t>(static_cast<const char*>(nl) - text.data()) + 1;
  }
  Line l;
  while (at < end) {
    const char* nl = static_cast<const char*>(std::memchr(text.data() + at, '\n', end - at));
    const size_t stop = nl != nullptr ? static_cast<size_t>(nl - text.data()) : end;
    const std::string_view line(text.data() + at, stop - at);
    at = stop + 1;
    if (!parse(line, l)) continue;
    if (l.type != 't' && l.type != 'T' && l.type != 'w' && l.type != 'W') continue;
    const auto name = static_cast<size_t>(l.name.data() - text.data());
    const std::optional<uint16_t> module =
        l.module.empty() ? std::optional<uint16_t>(0) : out.module_id(l.module);
    if (name > UINT32_MAX || l.name.size() > UINT16_MAX || !module) continue;
    out.entries.push_back({l.address, static_cast<uint32_t>(name),
                           static_cast<uint16_t>(l.name.size()), *module});
  }
}

KernelSymbols sorted(std::shared_ptr<const void> owner, const char* text, Building b) {
  const auto by_address = [](const KernelSymbols::Entry& x, const KernelSymbols::Entry& y) {
    return x.address < y.address;
  };
  // The kernel lists its own symbols in address order and each module's after them: usually
  // sorted already.
  if (!std::is_sorted(b.entries.begin(), b.entries.end(), by_address))
    std::stable_sort(b.entries.begin(), b.entries.end(), by_address);
  return KernelSymbols(std::move(owner), text, std::move(b.entries), std::move(b.modules));
}

// The symbols of a whole text, which `owner` holds.
KernelSymbols parse_whole(std::shared_ptr<const void> owner, std::string_view text) {
  Building out;
  out.entries.reserve(text.size() / 40);  // about 40 bytes a line
  size_t at = 0;
  add_code_symbols(text, at, true, out);
  return sorted(std::move(owner), text.data(), std::move(out));
}

KernelSymbols read_plainly(const std::string& path) {
  WholeFile f = read_all(path);
  const std::string_view text(f.data.get(), f.size);
  return parse_whole(std::shared_ptr<const char[]>(std::move(f.data)), text);
}

std::atomic<uint64_t> g_reads{0};

std::shared_ptr<StreamedFile> start_reading(const std::string& path, size_t reserve) {
  ++g_reads;
  return StreamedFile::start(path, reserve);
}

// A saved copy is a regular file, whose size is known: mapped, its text is the page cache's
// own pages, where reading it copied 5 MB into fresh memory (1,300 page faults for a
// distribution kernel's table). Null for what has no size (/proc/kallsyms, a pipe), which is
// never opened here.
std::shared_ptr<const pmclog::MappedFile> map_regular(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) return nullptr;
  auto mapped = pmclog::MappedFile::open(path);
  if (!mapped.ok() || mapped.value().bytes().empty()) return nullptr;
  return std::make_shared<const pmclog::MappedFile>(std::move(mapped).value());
}

// The kernel takes tens of milliseconds to make /proc/kallsyms (120,000 lines, 4 KiB a
// read()), so the text is read on a thread of its own and the caller parses what has come
// while it waits: little is left to parse when the last line arrives.
KernelSymbols parse_as_read(std::shared_ptr<StreamedFile> f, const std::string& path) {
  if (f == nullptr) return read_plainly(path);
  Building out;
  out.entries.reserve(size_t{1} << 17);  // a distribution kernel's code symbols, unmoved
  size_t at = 0;
  const char* text = nullptr;  // the text's start, which never moves
  for (StreamedFile::Progress p = f->wait_past(0);; p = f->wait_past(p.text.size())) {
    if (p.overflow) {  // larger than its reservation: read again, whole
      ++g_reads;
      return read_plainly(path);
    }
    text = p.text.data();
    add_code_symbols(p.text, at, p.ended, out);
    if (p.ended) break;
  }
  return sorted(std::move(f), text, std::move(out));
}

// One file's symbols, shared by the process: read and parsed once, on a thread of their own
// started by the replay's prefetch or by the first that wants them, so that a saved copy's
// parse (a few milliseconds) overlaps the replay as /proc/kallsyms's reading does. The
// others wait for its result.
using Parsed = std::shared_ptr<const KernelSymbols>;
struct Shared {
  std::once_flag started;
  std::shared_future<Parsed> parsed;  // set under `started`
  std::once_flag text_found;
  uint64_t text = 0;  // set under `text_found`
};

// Entries are never removed (a process names a path or two), and the map is never destroyed:
// a reading thread may still be at work when the process exits.
Shared& shared(const std::string& path) {
  static std::mutex mu;
  static auto* all = new std::map<std::string, std::unique_ptr<Shared>>;
  std::lock_guard lock(mu);
  std::unique_ptr<Shared>& s = (*all)[path];
  if (s == nullptr) s = std::make_unique<Shared>();
  return *s;
}

Shared& started(const std::string& path) {
  Shared& s = shared(path);
  std::call_once(s.started, [&] {
    auto task = std::make_shared<std::packaged_task<Parsed()>>([path] {
      return std::make_shared<const KernelSymbols>(read_kernel_code_symbols(path));
    });
    s.parsed = task->get_future().share();
    try {
      std::thread([task] { (*task)(); }).detach();
    } catch (const std::system_error&) {
      (*task)();  // no thread to be had: read here
    }
  });
  return s;
}

}  // namespace

KernelSymbols read_kernel_code_symbols(const std::string& path, size_t reserve,
                                       KallsymsReading how) {
  if (auto m = how == KallsymsReading::map_when_regular ? map_regular(path) : nullptr) {
    ++g_reads;
    const auto bytes = m->bytes();
    return parse_whole(std::move(m), {reinterpret_cast<const char*>(bytes.data()), bytes.size()});
  }
  return parse_as_read(start_reading(path, reserve), path);
}

uint64_t kallsyms_reads() { return g_reads.load(); }

size_t KernelSymbols::upper_bound(uint64_t address) const {
  const auto it = std::upper_bound(entries_.begin(), entries_.end(), address,
                                   [](uint64_t a, const Entry& e) { return a < e.address; });
  return static_cast<size_t>(it - entries_.begin());
}

uint64_t kernel_symbol_end(const KernelSymbols& symbols, size_t i) {
  const KernelSymbol s = symbols[i];
  if (s.module.empty() && s.name == "_etext") return s.address;
  const bool next = i + 1 < symbols.size();
  if (next && symbols.same_part(i, i + 1)) return symbols.address(i + 1);
  const uint64_t page = s.address & ~uint64_t{0xFFF};
  const uint64_t end = page > UINT64_MAX - 0x2000 ? UINT64_MAX : page + 0x2000;
  return next && symbols.address(i + 1) < end ? symbols.address(i + 1) : end;
}

void prefetch_kernel_code_symbols(const std::string& path) { started(path); }

std::shared_ptr<const KernelSymbols> shared_kernel_code_symbols(const std::string& path) {
  return started(path).parsed.get();
}

uint64_t shared_kernel_text_start(const std::string& path) {
  Shared& s = shared(path);
  std::call_once(s.text_found, [&] { s.text = kernel_text_start(path); });
  return s.text;
}

uint64_t kernel_text_start(const std::string& path) {
  ++g_reads;
  std::ifstream in(path);
  std::string line;
  Line l;
  uint64_t stext = 0;
  while (std::getline(in, line)) {
    if (!parse(line, l)) continue;
    if (l.name == "_text") return l.address;
    if (l.name == "_stext" && stext == 0) stext = l.address;
  }
  return stext;
}

}  // namespace pmcprofile
