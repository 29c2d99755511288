// PLACEHOLDER: tests of --output speedscope, written with the output.
