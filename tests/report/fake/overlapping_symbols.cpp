// A shared object (never run) whose symbols overlap in the ways that make libdwfl's choice
// depend on table order, binding and size: SymbolIndex's test asks libdwfl and the index
// about every edge and middle here. Plain assembler directives, read by GNU as on any ELF
// target; .skip gives each symbol its bytes.
asm(R"(
  .text

  # A global function, then a weak one inside it: the closer start wins.
  .globl ov_outer_a
  .type ov_outer_a, %function
ov_outer_a:
  .skip 64
  .size ov_outer_a, 64
  .weak ov_inner_a
  .type ov_inner_a, %function
  .set ov_inner_a, ov_outer_a + 16
  .size ov_inner_a, 16

  # The weak one first (in the table too, where GNU ld orders by name): the global binding
  # wins.
  .weak ov_inner_b
  .type ov_inner_b, %function
ov_b_start:
  .set ov_inner_b, ov_b_start + 16
  .size ov_inner_b, 16
  .globl ov_outer_b
  .type ov_outer_b, %function
  .set ov_outer_b, ov_b_start
  .skip 64
  .size ov_outer_b, 64

  # One start, two sizes (twice: GNU ld puts ov_short before ov_long, ov_big before
  # ov_small), and a weak alias of the same size.
  .globl ov_long
  .type ov_long, %function
ov_long:
  .skip 48
  .size ov_long, 48
  .globl ov_short
  .type ov_short, %function
  .set ov_short, ov_long
  .size ov_short, 16
  .weak ov_long_weak
  .type ov_long_weak, %function
  .set ov_long_weak, ov_long
  .size ov_long_weak, 48
  .globl ov_small
  .type ov_small, %function
ov_small:
  .globl ov_big
  .type ov_big, %function
  .set ov_big, ov_small
  .skip 48
  .size ov_small, 16
  .size ov_big, 48

  # A local function with a global one inside it, and a local one alone: the locals are
  # searched only where no global covers.
  .type ov_local_outer, %function
ov_local_outer:
  .skip 64
  .size ov_local_outer, 64
  .globl ov_global_inner
  .type ov_global_inner, %function
  .set ov_global_inner, ov_local_outer + 32
  .size ov_global_inner, 8
  .type ov_local_alone, %function
ov_local_alone:
  .skip 32
  .size ov_local_alone, 32

  # A global label (no size) inside a local function: libdwfl then skips the locals there.
  .type ov_local_labelled, %function
ov_local_labelled:
  .skip 8
  .globl ov_label
ov_label:
  .skip 24
  .size ov_local_labelled, 32

  # A label alone, after a gap, and code after it that no symbol covers.
  .skip 16
  .globl ov_lone_label
ov_lone_label:
  .skip 32
)");
