// 9 MiB of code placed before cpu_hot's own functions (this file is linked first), so that
// the hot function of the fixed-address far_hot program lies more than 8 MiB into its text.
// A report that shifted its frames by the image base (4 MiB) would name far_padding.
asm(".pushsection .text\n"
    ".globl far_padding\n"
    ".type far_padding, @function\n"
    "far_padding:\n"
    ".skip 9437184, 0xcc\n"
    "ret\n"
    ".size far_padding, .-far_padding\n"
    ".popsection\n");
