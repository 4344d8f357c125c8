//! state: see ARCHITECTURE.md (in progress).
