//! tfgraph: OpenTofu's graph builders, its parallel graph walk and a layered layout, as a library
//! that compiles both natively (the `tfgraph` CLI, tests, benchmarks) and to wasm32 (the web app).
//!
//! Data flows top to bottom through the modules; ARCHITECTURE.md is the map.

pub mod actions;
pub mod addrs;
pub mod bench;
pub mod builder;
pub mod config;
pub mod conformance;
pub mod dag;
pub mod diag;
pub mod didyoumean;
pub mod generator;
pub mod hclsyntax;
pub mod inside;
pub mod kind;
pub mod layout;
pub mod page;
pub mod pipeline;
pub mod plan;
pub mod rng;
pub mod saved;
pub mod schema;
pub mod share;
pub mod state;
pub mod strconv;
pub mod walk;

pub mod outline;

#[cfg(target_arch = "wasm32")]
pub mod app;
