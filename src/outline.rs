//! outline: see ARCHITECTURE.md (in progress).
