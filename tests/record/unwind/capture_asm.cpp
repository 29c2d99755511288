// Two functions in assembly, for the unwinder test: a register capture with exact CFI, and
// a call through code without CFI (file-scope asm, so that no assembler language is needed).
#if defined(__x86_64__)
asm(R"(
        .pushsection .text
# unwind_capture(uint64_t regs[24]): the caller's registers, by perf's x86 register numbers
# (AX BX CX DX SI DI BP SP IP at 0..8, R8..R15 at 16..23), as the kernel writes them for a
# sample taken at this function's first instruction. SP points at the return address,
# which slot 9 also holds (the caller's next calls overwrite it on the stack).
        .globl  unwind_capture
        .type   unwind_capture, @function
unwind_capture:
        .cfi_startproc
        movq    %rax, 0(%rdi)
        movq    %rbx, 8(%rdi)
        movq    %rcx, 16(%rdi)
        movq    %rdx, 24(%rdi)
        movq    %rsi, 32(%rdi)
        movq    %rdi, 40(%rdi)
        movq    %rbp, 48(%rdi)
        movq    %rsp, 56(%rdi)
        leaq    unwind_capture(%rip), %rax
        movq    %rax, 64(%rdi)
        movq    (%rsp), %rax             # the return address, in the unused slot 9 (FLAGS)
        movq    %rax, 72(%rdi)
        movq    %r8, 128(%rdi)
        movq    %r9, 136(%rdi)
        movq    %r10, 144(%rdi)
        movq    %r11, 152(%rdi)
        movq    %r12, 160(%rdi)
        movq    %r13, 168(%rdi)
        movq    %r14, 176(%rdi)
        movq    %r15, 184(%rdi)
        ret
        .cfi_endproc
        .size   unwind_capture, .-unwind_capture

# unwind_no_cfi(regs, fn): calls fn(regs) from code without any CFI, as hand-written
# assembly without directives is: an unwinder must stop here, not guess the caller.
        .globl  unwind_no_cfi
        .type   unwind_no_cfi, @function
unwind_no_cfi:
        subq    $8, %rsp
        call    *%rsi
        addq    $8, %rsp
        ret
        .size   unwind_no_cfi, .-unwind_no_cfi
        .popsection
)");
#endif
