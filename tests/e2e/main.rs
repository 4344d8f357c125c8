//! End-to-end: the release bundle (`trunk build --release` → dist/) served on 127.0.0.1, loaded in
//! headless Chromium driven through chromedriver (WebDriver, via fantoccini), typed into like a user
//! would, with screenshots written under target/screenshots/ for people to look at.
//!
//! Ignored by plain `cargo test` because it needs the built bundle, Chromium and chromedriver;
//! `scripts/test` builds the bundle and runs it with `--ignored`.
//!
//! One module per area; what they share is `harness`.

#[path = "../support/mod.rs"]
mod support;

mod harness;

mod a11y;
mod bundle;
mod editor;
mod folders;
mod screens;
mod timing;
mod worker;
