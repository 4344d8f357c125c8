//! plan: see ARCHITECTURE.md (in progress).
