# src/bench: see the files' top comments.
