/* Where known_code.S puts each function: offsets from the start of .text, which the build
   links at a fixed address (KNOWN_EXEC_TEXT, KNOWN_PIE_TEXT in tests/report/CMakeLists.txt).
   Read by the assembler and by the tests, so the expected answers come from here, not from
   the code under test. Plain #defines: the assembler includes this file too. */
#pragma once

#define KNOWN_SIZE 0x10   /* every function's size (.size) */
#define KNOWN_CALLER 0x00 /* ends with a call: its return address is known_next's first byte */
#define KNOWN_NEXT 0x10
#define KNOWN_LEAF 0x20
#define KNOWN_GAP 0x30    /* KNOWN_SIZE bytes that no symbol covers */
#define KNOWN_REC 0x40    /* calls itself */
#define KNOWN_MAIN 0x50   /* calls known_rec */
#define KNOWN_END 0x60
