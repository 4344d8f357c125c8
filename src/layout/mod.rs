//! layout: see ARCHITECTURE.md (in progress).
