//! addrs: see ARCHITECTURE.md (in progress).
