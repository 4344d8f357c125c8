//! config: see ARCHITECTURE.md (in progress).
