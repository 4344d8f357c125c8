//! schema: see ARCHITECTURE.md (in progress).
