// Memory for large arrays that fill densely: the stack cache, the reordering window, the
// kernel's symbol table, a profile's index. Spans of a megabyte or more are mapped on 2 MiB
// boundaries with transparent huge pages asked for, so that filling one costs one page fault
// where 4 KiB pages cost 512 (a 20,038-sample report: 1,930 faults -> 752). Spans of up to
// 8 MiB given back are kept, up to 64 MiB in all, for the next ask of their size. Smaller
// spans and AddressSanitizer builds use the heap; a kernel without transparent huge pages
// gives ordinary pages.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>
#include <utility>

namespace pmcprofile {

namespace big_pages {
inline constexpr size_t kHuge = size_t{2} << 20;
inline constexpr size_t kFrom = size_t{1} << 20;  // below this, most of a huge page would idle
#if defined(__SANITIZE_ADDRESS__)
#define PMCPROFILE_BIG_PAGES_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PMCPROFILE_BIG_PAGES_ASAN 1
#endif
#endif
#ifdef PMCPROFILE_BIG_PAGES_ASAN
inline constexpr bool kUsed = false;  // AddressSanitizer checks only what its malloc hands out
#else
inline constexpr bool kUsed = true;
#endif
// Whether a span of `bytes` is mapped here (the same answer for allocation and release).
constexpr bool mapped(size_t bytes) { return kUsed && bytes >= kFrom; }
// `bytes` on a huge page boundary: a kept span of that size, or a fresh mapping (throws
// std::bad_alloc if none can be made). Not zeroed when kept.
void* map(size_t bytes);
void unmap(void* p, size_t bytes);
// The kept spans' bytes, and giving them all back to the system.
size_t kept_bytes();
void release_kept();
}  // namespace big_pages

template <class T>
struct BigPages {
  using value_type = T;
  BigPages() = default;
  template <class U>
  BigPages(const BigPages<U>&) {}  // NOLINT: allocators convert implicitly

  T* allocate(size_t n) {
    if (n > SIZE_MAX / sizeof(T)) throw std::bad_array_new_length();
    const size_t bytes = n * sizeof(T);
    if (big_pages::mapped(bytes)) return static_cast<T*>(big_pages::map(bytes));
    return static_cast<T*>(::operator new(bytes));
  }
  void deallocate(T* p, size_t n) {
    const size_t bytes = n * sizeof(T);
    if (big_pages::mapped(bytes)) big_pages::unmap(p, bytes);
    else ::operator delete(p);
  }
  friend bool operator==(const BigPages&, const BigPages&) { return true; }
};

// `n` items of a plain type, owned and left unwritten (no page is touched until used).
template <class T>
class BigArray {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

 public:
  explicit BigArray(size_t n) : n_(n), p_(BigPages<T>().allocate(n)) {}
  BigArray(BigArray&& o) noexcept : n_(std::exchange(o.n_, 0)), p_(std::exchange(o.p_, nullptr)) {}
  BigArray& operator=(BigArray&&) = delete;
  ~BigArray() {
    if (p_ != nullptr) BigPages<T>().deallocate(p_, n_);
  }
  T* data() const { return p_; }

 private:
  size_t n_;
  T* p_;
};

}  // namespace pmcprofile
