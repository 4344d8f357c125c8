//! The web app's entry point, built for wasm32 by Trunk (see index.html). Natively it does nothing.

fn main() {
    #[cfg(target_arch = "wasm32")]
    tfgraph::app::start();
}
