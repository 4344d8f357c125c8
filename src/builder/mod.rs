//! builder: see ARCHITECTURE.md (in progress).
