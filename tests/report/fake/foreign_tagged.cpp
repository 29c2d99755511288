// A shared object branded FreeBSD only by its ABI note (.note.tag, owner "FreeBSD",
// NT_FREEBSD_ABI_TAG, __FreeBSD_version 1403000), as FreeBSD's crt files brand every object;
// its EI_OSABI stays the host compiler's System V. Never run: the tests need its symbols,
// its note and, once stripped, an address no symbol covers (inner_spin is local).
asm(R"(
  .section .note.tag,"a",@note
  .balign 4
  .long 8
  .long 4
  .long 1
  .asciz "FreeBSD"
  .balign 4
  .long 1403000
  .previous
)");

extern "C" {
__attribute__((noinline, used)) static long inner_spin(long a) {
  for (int i = 0; i < 3; ++i) a = a * 7 + i;
  return a;
}
__attribute__((noinline, used)) long tagged_work(long a) { return inner_spin(a) + 1; }
}
