# src/diff: see the files' top comments.
