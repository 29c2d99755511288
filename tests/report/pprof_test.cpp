// PLACEHOLDER: tests of --output pprof, written with the output.
