// PLACEHOLDER: tests of --output svg, written with the output.
