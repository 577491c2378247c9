# src/flamegraph: see the files' top comments.
