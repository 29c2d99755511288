// PLACEHOLDER: tests of --output callgraph, written with the output.
