/* Code at addresses known by construction (known_code.h), for the tests that must catch a
   wrong answer: the tests derive every expected name, offset and line from known_code.h and
   this file. Never run. The FreeBSD ABI note (and the EI_OSABI byte the tests set) make it
   an object a FreeBSD log can name. */
#include "known_code.h"

        .section .note.tag,"a",@note
        .p2align 2
        .long 8, 4, 1          /* namesz, descsz, NT_FREEBSD_ABI_TAG */
        .asciz "FreeBSD"
        .long 1400097          /* __FreeBSD_version */

        .text
        .globl known_caller
        .type known_caller,@function
known_caller:
        .fill KNOWN_SIZE - 5, 1, 0x90
        call known_leaf        /* KNOWN-LINE known_caller: 5 bytes, the last of the function */
        .size known_caller, . - known_caller

        .org KNOWN_NEXT
        .globl known_next
        .type known_next,@function
known_next:
        ret                    /* KNOWN-LINE known_next */
        .fill KNOWN_SIZE - 1, 1, 0xcc
        .size known_next, . - known_next

        .org KNOWN_LEAF
        .globl known_leaf
        .type known_leaf,@function
known_leaf:
        .fill KNOWN_SIZE - 1, 1, 0x90
        ret
        .size known_leaf, . - known_leaf

        .org KNOWN_GAP
        .fill KNOWN_SIZE, 1, 0xcc

        .org KNOWN_REC
        .globl known_rec
        .type known_rec,@function
known_rec:
        call known_rec
        .fill KNOWN_SIZE - 6, 1, 0x90
        ret
        .size known_rec, . - known_rec

        .org KNOWN_MAIN
        .globl known_main
        .type known_main,@function
known_main:
        call known_rec
        .fill KNOWN_SIZE - 6, 1, 0x90
        ret
        .size known_main, . - known_main
        .org KNOWN_END
        .section .note.GNU-stack,"",@progbits
