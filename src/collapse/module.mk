# src/collapse: see the files' top comments.
