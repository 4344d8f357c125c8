//! What every view module of the app uses: Leptos, the context and its state types, and the
//! library's page types. `use super::prelude::*` in each module (not `use super::*`), so no child
//! of `app` uses `app/mod.rs` and the module graph has no cycle (`tests/module_graph.rs`).

pub(super) use super::ctx::{
    Build, Canvas, Ctx, DEBOUNCE, Selection, Shell, Walk, Work, performance_now, watch_size,
    yield_to_browser,
};
pub(super) use super::state::{GRowView, Mode, Overlays, Pane, Tab};
pub(super) use crate::builder::BuilderKind;
pub(super) use crate::outline::outline;
pub(super) use crate::page::analysis as model;
pub(super) use crate::page::examples::{EXAMPLES, Example};
pub(super) use crate::page::graph::Kind;
pub(super) use crate::page::notices;
pub(super) use crate::page::scene::SNode;
pub(super) use crate::page::walk::{self as walkrt, VState, WalkRt, WalkView};
pub(super) use crate::page::{explain, highlight};
pub(super) use leptos::prelude::*;
pub(super) use std::collections::{BTreeMap, BTreeSet};
pub(super) use std::time::Duration;
