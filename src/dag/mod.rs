//! dag: see ARCHITECTURE.md (in progress).
