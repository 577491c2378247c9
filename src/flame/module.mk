# src/flame: see the files' top comments.
