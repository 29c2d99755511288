// A small shared object that plays FreeBSD's /lib/libc.so.7 in a fake sysroot. Never run:
// the synthetic logs only need its symbols at known addresses.
extern "C" {
__attribute__((noinline, used)) int fbsd_qsort_cmp(int a, int b) { return a < b ? -1 : a > b; }
__attribute__((noinline, used)) long fbsd_memcpy(long a, long b) { return a * 31 + b; }
__attribute__((noinline, used)) long fbsd_write(long fd) { return fd + 3; }
}
