//! Component tests in headless Chromium (wasm-bindgen-test): the app is mounted into the page, the
//! editor text is set as a user would, and the DOM is asserted on. One module per area of the page;
//! what they share is in `support`.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::wasm_bindgen_test_configure;

wasm_bindgen_test_configure!(run_in_browser);

mod support;
/// The working directory's description, shared with the native tests (`tests/support`).
#[allow(dead_code)]
#[path = "../support/workdir.rs"]
mod workdir;

mod details;
mod editor;
mod files;
mod graph;
mod large;
mod learn;
mod security;
mod steps;
mod storage;
mod views;
mod walk;
