//! The web app (Leptos 0.8, client-side rendering), mounted by Trunk from `src/bin/tfgraph-web.rs`.
//!
//! Layout: a header, the HCL editor on the left with what the engine found in it, the graph in the
//! main pane, and the walk controls in the bottom panel. Every view reads engine results; user text
//! is only ever set as text or form values, never as HTML.

mod storage;

use crate::outline::{BlockSummary, ParseError, outline};
use leptos::prelude::*;

/// The example loaded on first visit: small, but it shows references, a data source, a variable and
/// an output, so the first graph has something to say.
pub const EXAMPLE: &str = r#"variable "region" {
  default = "eu-west-1"
}

provider "aws" {
  region = var.region
}

data "aws_ami" "ubuntu" {
  most_recent = true
}

resource "aws_instance" "web" {
  ami           = data.aws_ami.ubuntu.id
  instance_type = "t3.micro"
}

resource "aws_eip" "web" {
  instance = aws_instance.web.id
}

output "public_ip" {
  value = aws_eip.web.public_ip
}
"#;

/// Mounts the app on the page body. Called by the `tfgraph-web` binary.
pub fn start() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(App);
}

/// The whole app.
#[component]
pub fn App() -> impl IntoView {
    let initial = storage::load_text().unwrap_or_else(|| EXAMPLE.to_string());
    let (text, set_text) = signal(initial);
    let parsed = Memo::new(move |_| text.with(|t| outline(t)));
    // Nothing the user typed is lost on reload: every edit is saved.
    Effect::new(move |_| text.with(|t| storage::save_text(t)));
    let (parallelism, set_parallelism) = signal(10u32);

    view! {
        <div class="app">
            <header class="app-header">
                <h1 class="brand">"tfgraph"</h1>
                <p class="tagline">
                    "How Terraform and OpenTofu turn configuration into a dependency graph, and walk it."
                </p>
            </header>
            <main class="workspace">
                <section class="pane editor-pane" aria-label="Configuration">
                    <div class="pane-title">
                        <span class="file-tab">"main.tf"</span>
                    </div>
                    <textarea
                        id="editor"
                        class="editor"
                        spellcheck="false"
                        autocomplete="off"
                        aria-label="HCL configuration"
                        prop:value=move || text.get()
                        on:input=move |ev| set_text.set(event_target_value(&ev))
                    ></textarea>
                    <Outline parsed=parsed />
                </section>
                <section class="pane graph-pane" aria-label="Graph">
                    <div class="pane-title">"Graph"</div>
                    <div class="graph-canvas">
                        <GraphPreview parsed=parsed />
                    </div>
                </section>
            </main>
            <footer class="walk-panel" aria-label="Walk">
                <div class="walk-buttons">
                    <button type="button" disabled=true title="Play the walk">"Play"</button>
                    <button type="button" disabled=true title="Step to the next event">"Step"</button>
                    <button type="button" disabled=true title="Back to the start">"Reset"</button>
                </div>
                <label class="parallelism">
                    <span>"-parallelism"</span>
                    <input
                        type="range"
                        min="1"
                        max="64"
                        prop:value=move || parallelism.get().to_string()
                        on:input=move |ev| {
                            if let Ok(n) = event_target_value(&ev).parse::<u32>() {
                                set_parallelism.set(n.clamp(1, 64));
                            }
                        }
                    />
                    <output class="parallelism-value">{move || parallelism.get()}</output>
                </label>
                <span class="walk-status">"The walk simulation arrives with the engine."</span>
            </footer>
        </div>
    }
}

/// The blocks found in the editor, or the parse error with its position.
#[component]
fn Outline(parsed: Memo<Result<Vec<BlockSummary>, ParseError>>) -> impl IntoView {
    view! {
        <div class="outline" aria-live="polite">
            {move || match parsed.get() {
                Ok(blocks) => {
                    let count = blocks.len();
                    view! {
                        <p class="outline-summary">
                            {format!("{count} block{}", if count == 1 { "" } else { "s" })}
                        </p>
                        <ul class="block-list">
                            {blocks
                                .into_iter()
                                .map(|b| {
                                    view! {
                                        <li class="block" data-kind=b.kind.clone()>
                                            <span class="block-kind">{b.kind.clone()}</span>
                                            <span class="block-labels">{b.labels.join(".")}</span>
                                            <span class="block-line">{format!("line {}", b.line)}</span>
                                        </li>
                                    }
                                })
                                .collect_view()}
                        </ul>
                    }
                        .into_any()
                }
                Err(e) => {
                    view! {
                        <p class="diagnostic error" role="alert">
                            <span class="diag-where">
                                {format!("main.tf line {}, column {}", e.line, e.column)}
                            </span>
                            <span class="diag-message">{e.message}</span>
                        </p>
                    }
                        .into_any()
                }
            }}
        </div>
    }
}

/// Until the graph builder is wired in, the main pane shows the addressable objects found, in
/// declaration order, so the pane already reflects the user's text.
#[component]
fn GraphPreview(parsed: Memo<Result<Vec<BlockSummary>, ParseError>>) -> impl IntoView {
    view! {
        <div class="graph-preview">
            {move || match parsed.get() {
                Ok(blocks) => {
                    blocks
                        .iter()
                        .filter_map(|b| b.address().map(|a| (b.kind.clone(), a)))
                        .map(|(kind, addr)| view! { <div class="vertex" data-kind=kind>{addr}</div> })
                        .collect_view()
                        .into_any()
                }
                Err(_) => {
                    view! { <p class="muted">"Fix the error on the left to update the graph."</p> }
                        .into_any()
                }
            }}
        </div>
    }
}
