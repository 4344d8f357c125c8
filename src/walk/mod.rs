//! walk: see ARCHITECTURE.md (in progress).
