// PLACEHOLDER: tests of --output perf_script, written with the output.
