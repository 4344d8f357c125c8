//! The editor pane: file tabs (new, rename, delete), Open buttons, the text with highlighting,
//! line numbers and each diagnostic at its line, targets and excludes, the block outline and the
//! diagnostics list.
//!
//! The text is a plain textarea (so typing, selection, undo and IME are the browser's own) with
//! transparent text over a highlighted copy. Only the lines in view (plus a margin) are drawn, in
//! the highlighted layer and in the gutter, so a 10,000-line file costs no more per keystroke than
//! a short one beyond one linear lexing pass.

use super::files::{self, Notices};
use super::prelude::*;
use crate::page::analysis::OUTLINE_AT_ONCE_BYTES;
use crate::page::highlight::Lexed;

/// Height of one editor line in CSS pixels (`style/main.css` uses the same).
const LINE_PX: f64 = 20.0;
/// Top padding of the text (CSS `.editor` and `.hl-lines`).
const PAD_PX: f64 = 10.0;
/// Lines drawn above and below the visible ones; the window moves in steps of this many lines, so
/// small scrolls redraw nothing.
const MARGIN: usize = 40;

/// Selects the vertex declared by the block at `line` of `file`, if the graph shown has one.
fn select_declared(ctx: Ctx, file: &str, line: usize) {
    let name = ctx.build.shown.with_untracked(|s| {
        ctx.build.good.with_untracked(|g| {
            g.as_ref()
                .and_then(|a| crate::page::details::vertex_declared_at(a, s, file, line))
        })
    });
    if let Some(n) = name {
        ctx.sel.selected.set(Some(n));
    }
}

/// The first diagnostic message of each line of `file`, errors first.
fn line_messages(ctx: Ctx, file: &str) -> BTreeMap<usize, (bool, String)> {
    ctx.build.analysis.with(|a| {
        let mut m: BTreeMap<usize, (bool, String)> = BTreeMap::new();
        for d in a.errors.iter().chain(a.warnings.iter()) {
            if d.file.as_deref() == Some(file) && d.line > 0 {
                let text = if d.detail.is_empty() {
                    d.summary.clone()
                } else {
                    format!("{}: {}", d.summary, d.detail)
                };
                m.entry(d.line).or_insert((d.error, text));
            }
        }
        m
    })
}

/// Asks for a file name; `None` when cancelled or not acceptable (a notice says why).
fn ask_name(ctx: Ctx, question: &str, default: &str) -> Option<String> {
    let name = web_sys::window()?
        .prompt_with_message_and_default(question, default)
        .ok()??;
    let name = name.trim().to_string();
    if name.is_empty() {
        return None;
    }
    if let Err(e) = crate::share::check_path(&name) {
        files::notify(ctx, true, e.to_string(), false);
        return None;
    }
    if ctx.work.files.with_untracked(|f| f.contains_key(&name)) {
        files::notify(ctx, true, format!("There is already a file {name}."), false);
        return None;
    }
    Some(name)
}

/// A file's role from the analysed copy's roles, else by its name alone (a file just made).
fn role_of(roles: &BTreeMap<String, files::Role>, name: &str) -> files::Role {
    roles
        .get(name)
        .copied()
        .unwrap_or_else(|| files::classify(name, ""))
}

#[component]
pub fn EditorPane(ctx: Ctx) -> impl IntoView {
    let generation = StoredValue::new(0u64);
    let textarea: NodeRef<leptos::html::Textarea> = NodeRef::new();
    // (scroll top, scroll left, visible height) of the textarea.
    let view_box = RwSignal::new((0.0f64, 0.0f64, 0.0f64));
    // What the textarea holds: (file, text). Its value is set only when the files' text differs
    // from it, not at every keystroke's frame, where setting the text it already has cost the
    // copy of the whole file into a JS string and the browser's comparison of it.
    let held = StoredValue::new((String::new(), String::new()));
    Effect::new(move |_| {
        let Some(t) = textarea.get() else {
            return;
        };
        let a = ctx.work.active.get();
        ctx.work.files.with(|f| {
            let text = f.get(&a).map(String::as_str).unwrap_or("");
            if !held.with_value(|(file, held)| *file == a && held == text) {
                t.set_value(text);
                held.set_value((a.clone(), text.to_string()));
            }
        });
    });
    // Large files are outlined from the debounced copy (after typing pauses), so a keystroke
    // does not pay for a full parse; small ones as they are typed.
    let big = Memo::new(move |_| {
        let a = ctx.work.active.get();
        ctx.work
            .files
            .with(|f| f.get(&a).is_some_and(|t| t.len() > OUTLINE_AT_ONCE_BYTES))
    });
    let parsed = Memo::new(move |_| {
        let a = ctx.work.active.get();
        // A large file's outline made by the engine's worker with the analysis, when it made
        // one: not parsed again on the page's thread (at most one build behind the text, as
        // the graph is).
        if big.get()
            && let Some(o) = ctx.build.analysis.with(|an| an.outlines.get(&a).cloned())
        {
            return Some(o);
        }
        let source = if big.get() {
            ctx.work.analyzed
        } else {
            ctx.work.files
        };
        source.with(|f| match f.get(&a) {
            Some(t) if crate::page::analysis::is_outlined(&a, t) => Some(outline(t)),
            _ => None,
        })
    });
    let lexed: Memo<Lexed> = Memo::new(move |_| {
        let a = ctx.work.active.get();
        ctx.work
            .files
            .with(|f| f.get(&a).map(|t| highlight::lex(t)).unwrap_or_default())
    });
    // The gutter hears of a keystroke only when it changes the number of lines.
    let line_count = Memo::new(move |_| lexed.with(Lexed::lines));
    // The lines drawn: [first, last).
    let window = Memo::new(move |_| {
        let (top, _, h) = view_box.get();
        let h = if h > 0.0 { h } else { 900.0 };
        let first_visible = ((top - PAD_PX) / LINE_PX).floor().max(0.0) as usize;
        let first = first_visible.saturating_sub(MARGIN) / MARGIN * MARGIN;
        let last = first_visible + (h / LINE_PX).ceil() as usize + 2 * MARGIN;
        (first, last)
    });
    let messages = Memo::new(move |_| line_messages(ctx, &ctx.work.active.get()));
    let sync_view = move || {
        if let Some(t) = textarea.get_untracked() {
            let v = (
                t.scroll_top() as f64,
                t.scroll_left() as f64,
                t.client_height() as f64,
            );
            if view_box.get_untracked() != v {
                view_box.set(v);
            }
        }
    };
    // A new file starts at its top. Not on the first run: the textarea is new, at its top, and
    // setting its scroll there made the browser lay out the whole page in the middle of the
    // app's mount (65 ms of the mount's 500 on a phone-speed CPU), then again at its end.
    Effect::new(move |prev: Option<()>| {
        ctx.work.active.track();
        if prev.is_some()
            && let Some(t) = textarea.get_untracked()
        {
            t.set_scroll_top(0);
            t.set_scroll_left(0);
        }
        request_animation_frame(sync_view);
    });
    // A reference clicked elsewhere: open its file, scroll its line into view and select it.
    Effect::new(move |_| {
        let Some((file, line, column, len)) = ctx.sel.goto.get() else {
            return;
        };
        if ctx.work.active.get_untracked() != file {
            ctx.work.active.set(file.clone());
        }
        // After the file's text is in the textarea and the new-file effect scrolled to the top.
        request_animation_frame(move || {
            let Some(t) = textarea.get_untracked() else {
                return;
            };
            let text = ctx
                .work
                .files
                .with_untracked(|f| f.get(&file).cloned().unwrap_or_default());
            let start = crate::page::explain::utf16_offset(&text, line, column);
            let h = t.client_height() as f64;
            t.set_scroll_top(
                (PAD_PX + (line.saturating_sub(1)) as f64 * LINE_PX - h / 3.0).max(0.0) as i32,
            );
            let _ = t.focus();
            let _ = t.set_selection_range(start, start + len as u32);
            sync_view();
        });
    });
    let resize = window_event_listener(leptos::ev::resize, move |_| sync_view());
    on_cleanup(move || resize.remove());

    // A keystroke's text goes into the files at once (so whatever reads them untracked, a save
    // or a share, has it), but what the files drive (the highlighted lines, the gutter, the
    // textarea's own value, the autosave's timer) is told once per frame: keys that the browser
    // dispatches in one batch (fast typing, a paste of many lines, WebDriver) each cost little
    // more than the textarea's own insertion, and the frame after them comes sooner. The text is
    // drawn by the highlighted copy, which is redrawn in that frame before it is painted.
    let on_input = move |ev| {
        let value = event_target_value(&ev);
        let a = ctx.work.active.get_untracked();
        held.set_value((a.clone(), value.clone()));
        ctx.work.files.update_untracked(|f| {
            f.insert(a, value);
        });
        if ctx.work.typed() {
            request_animation_frame(move || {
                ctx.work.typed_frame();
                // Unless the editor went meanwhile (the phone's tabs).
                if view_box.try_get_untracked().is_some() {
                    sync_view();
                }
            });
        }
        // An analysis under way in the engine's worker is of older text: it stops (the next is
        // asked for when typing pauses).
        ctx.build.off.stop_analysis();
        generation.update_value(|g| *g += 1);
        let mine = generation.get_value();
        set_timeout(
            move || {
                if generation.try_get_value() == Some(mine) {
                    ctx.work.analyze_now();
                }
            },
            DEBOUNCE,
        );
    };
    let lines_view = move || {
        let (first, last) = window.get();
        let a = ctx.work.active.get();
        let msgs = messages.get();
        ctx.work.files.with(|f| {
            let text = f.get(&a).map(String::as_str).unwrap_or("");
            lexed.with(|lx| {
                let last = last.min(lx.lines());
                (first..last)
                    .map(|i| {
                        let pieces = lx
                            .pieces(text, i)
                            .into_iter()
                            .map(|(class, t)| match class {
                                Some(c) => view! { <span class=c.css()>{t.to_string()}</span> }.into_any(),
                                None => t.to_string().into_any(),
                            })
                            .collect_view();
                        let msg = msgs.get(&(i + 1)).cloned();
                        view! {
                            <div class="hl-line" data-line=i + 1>
                                <span class="hl-code">{pieces}</span>
                                {msg.map(|(error, m)| view! {
                                    <span class="hl-diag" class:error=error class:warning=!error>{m}</span>
                                })}
                            </div>
                        }
                    })
                    .collect_view()
            })
        })
    };
    let gutter_view = move || {
        let (first, last) = window.get();
        let n = line_count.get().max(1);
        let msgs = messages.get();
        (first..last.min(n))
            .map(|i| {
                let line = i + 1;
                let m = msgs.get(&line).cloned();
                let (bad, warn, title) = match &m {
                    Some((true, t)) => (true, false, Some(t.clone())),
                    Some((false, t)) => (false, true, Some(t.clone())),
                    None => (false, false, None),
                };
                view! { <div class:bad=bad class:warn=warn data-line=line title=title>{line}</div> }
            })
            .collect_view()
    };
    let shift = move |with_x: bool| {
        let (first, _) = window.get();
        let (top, left, _) = view_box.get();
        let y = first as f64 * LINE_PX - top;
        if with_x {
            format!("translate({}px, {y}px)", -left)
        } else {
            format!("translate(0, {y}px)")
        }
    };
    let rename = move |_| {
        let old = ctx.work.active.get_untracked();
        if let Some(new) = ask_name(ctx, "Rename the file to", &old) {
            ctx.work.files.update(|f| {
                if let Some(t) = f.remove(&old) {
                    f.insert(new.clone(), t);
                }
            });
            ctx.work.active.set(new);
            ctx.work.analyze_now();
        }
    };
    let delete = move |_| {
        let name = ctx.work.active.get_untracked();
        let ok = web_sys::window()
            .and_then(|w| w.confirm_with_message(&format!("Delete {name}?")).ok())
            .unwrap_or(false);
        let kept = ctx
            .work
            .files
            .with_untracked(crate::page::files::worth_keeping);
        if ok && files::keep_aside(ctx, &format!("before deleting {name}")) {
            ctx.work.files.update(|f| {
                f.remove(&name);
            });
            if kept {
                files::notify(
                    ctx,
                    false,
                    format!("Deleted {name}. The files as they were are kept aside."),
                    true,
                );
            }
            let next = ctx.work.files.with_untracked(|f| f.keys().next().cloned());
            ctx.work
                .active
                .set(next.unwrap_or_else(|| "main.tf".into()));
            ctx.work.analyze_now();
        }
    };
    let new_file = move |_| {
        let suggestion = if ctx
            .work
            .files
            .with_untracked(|f| f.contains_key("variables.tf"))
        {
            "outputs.tf"
        } else {
            "variables.tf"
        };
        if let Some(name) = ask_name(
            ctx,
            "New file name (for example variables.tf or modules/net/main.tf)",
            suggestion,
        ) {
            ctx.work.files.update(|f| {
                f.insert(name.clone(), String::new());
            });
            ctx.work.active.set(name);
        }
    };
    // Each file's role, from the debounced copy: a large state or plan is not parsed again on
    // every keystroke.
    let roles = Memo::new(move |_| {
        ctx.work.analyzed.with(|f| {
            f.iter()
                .map(|(n, t)| (n.clone(), files::classify(n, t)))
                .collect::<BTreeMap<String, files::Role>>()
        })
    });
    // The user's files: installed modules' files are many and not the user's, one summary line
    // counts them (see `Workdir`).
    let names = Memo::new(move |_| {
        ctx.work.files.with(|f| {
            f.keys()
                .filter(|n| !crate::page::files::is_installed_path(n))
                .cloned()
                .collect::<Vec<String>>()
        })
    });
    // A few files are tabs; more are a folder tree (`page::tree`).
    let as_tabs = Memo::new(move |_| names.with(|n| crate::page::tree::shows_tabs(n.len())));
    // The tabs, each with its role. A file not analysed yet (just made) is classified by its
    // name.
    let tabs = Memo::new(move |_| {
        let names = names.get();
        roles.with(|r| {
            names
                .into_iter()
                .map(|n| {
                    let role = role_of(r, &n);
                    (n, role)
                })
                .collect::<Vec<_>>()
        })
    });
    let role_note = move || {
        let a = ctx.work.active.get();
        let role = ctx
            .work
            .files
            .with(|f| f.get(&a).map(|t| files::classify(&a, t)))?;
        let imported = ctx.build.analysis.with(|an| an.imported.clone());
        let root = ctx.work.root.get();
        let text = match role {
            files::Role::Config if crate::page::files::is_installed_path(&a) => format!(
                "{a} belongs to a module that tofu init installed: it is read when the root module's .terraform/modules/modules.json names its folder."
            ),
            files::Role::Config => return None,
            files::Role::Vars if crate::page::files::auto_var_file(&a, &root) => format!(
                "{a} gives the root module's variable values: OpenTofu reads terraform.tfvars, terraform.tfvars.json and *.auto.tfvars(.json) in the root module's folder by itself, in that order (a later file wins). Its values set count, for_each and the walk's instances."
            ),
            files::Role::Vars => format!(
                "{a} is not read: OpenTofu reads variables files by itself only when they are named terraform.tfvars(.json) or *.auto.tfvars(.json) and sit in the root module's folder ({}); others only with -var-file. Rename it to use its values here.",
                crate::page::files::root_label(&root)
            ),
            files::Role::Manifest => format!(
                "{a} is the module manifest tofu init wrote: registry and remote module calls of the root module are read from the folders it names."
            ),
            files::Role::Dot => format!(
                "{a} is an imported graph: it is drawn and walked as it is, without the builder (no build steps){}.",
                if imported.as_deref() == Some(a.as_str()) {
                    ""
                } else {
                    "; only the first DOT file is used"
                }
            ),
            files::Role::Unknown => format!(
                "{a} is not read: it is not configuration, variable values, a state, a plan, provider schemas or a DOT graph."
            ),
            r => format!("{a} is read as the {}, not as configuration.", r.label()),
        };
        Some(view! { <p class="role-note">{text}</p> })
    };
    view! {
        <section class="pane editor-pane" aria-label="Configuration">
            // What happened to the files (opened, kept aside, not saved, another tab): above
            // them, so the graph keeps its height however many there are.
            <Notices ctx=ctx />
            <div class="pane-title file-tabs">
                {move || as_tabs.get().then(|| {
                    tabs.get()
                        .into_iter()
                        .map(|(name, role)| {
                            let n2 = name.clone();
                            let n3 = name.clone();
                            view! {
                                <button
                                    type="button"
                                    class="file-tab"
                                    class:active=move || ctx.work.active.get() == n2
                                    // Shown after the name by the stylesheet (not part of the name's text).
                                    data-role=role.label()
                                    on:click=move |_| ctx.work.active.set(n3.clone())
                                >
                                    {name}
                                </button>
                            }
                        })
                        .collect_view()
                })}
                <button type="button" class="file-new" title="New file" aria-label="New file" on:click=new_file>"+"</button>
                <span class="spacer"></span>
                <span class="file-actions">
                    <button type="button" class="small-button" id="file-rename" title="Rename this file" on:click=rename>"Rename"</button>
                    <button type="button" class="small-button" id="file-delete" title="Delete this file" on:click=delete>"Delete"</button>
                    <files::OpenButtons ctx=ctx />
                </span>
            </div>
            <Show when=move || !as_tabs.get()>
                <FileTree names=names roles=roles />
            </Show>
            <Workdir ctx=ctx />
            {role_note}
            <div class="editor-wrap">
                <div class="gutter" aria-hidden="true">
                    <div class="gutter-lines" style:transform=move || shift(false)>{gutter_view}</div>
                </div>
                <div class="code">
                    <div class="hl" aria-hidden="true">
                        <div class="hl-lines" style:transform=move || shift(true)>{lines_view}</div>
                    </div>
                    <textarea
                        id="editor"
                        class="editor"
                        node_ref=textarea
                        spellcheck="false"
                        autocomplete="off"
                        wrap="off"
                        aria-label="HCL configuration"
                        on:input=on_input
                        on:click=move |_| {
                            // Code to graph: a click in a block selects its vertex.
                            let Some(t) = textarea.get_untracked() else { return };
                            let (Ok(Some(a)), Ok(Some(b))) = (t.selection_start(), t.selection_end()) else { return };
                            if a != b {
                                return;
                            }
                            let line = crate::page::explain::line_of_utf16_offset(&t.value(), a);
                            let file = ctx.work.active.get_untracked();
                            let starts: Vec<usize> = parsed.with_untracked(|p| match p {
                                Some(Ok(blocks)) => blocks.iter().map(|b| b.line).collect(),
                                _ => Vec::new(),
                            });
                            let name = ctx.build.shown.with_untracked(|s| {
                                ctx.build.good.with_untracked(|g| {
                                    g.as_ref().and_then(|an| {
                                        crate::page::details::vertex_at_line(an, s, &file, &starts, line)
                                    })
                                })
                            });
                            if let Some(n) = name
                                && ctx.sel.selected.get_untracked().as_deref() != Some(n.as_str())
                            {
                                ctx.sel.selected.set(Some(n));
                            }
                        }
                        on:scroll=move |_| sync_view()
                    ></textarea>
                </div>
            </div>
            <Targets />
            <Diagnostics />
            <div class="outline" aria-label="Blocks in this file">
                {move || match parsed.get() {
                    Some(Ok(blocks)) => {
                        let count = blocks.len();
                        view! {
                            <p class="outline-summary">
                                {format!("{count} block{}", if count == 1 { "" } else { "s" })}
                            </p>
                            <ul class="block-list">
                                {blocks
                                    .into_iter()
                                    .map(|b| {
                                        // Code to graph: the block's line in the editor, and its
                                        // vertex selected.
                                        let (line, column) = (b.line, b.column);
                                        let pick = move |_| {
                                            let file = ctx.work.active.get_untracked();
                                            ctx.sel.goto.set(Some((file.clone(), line, column, 0)));
                                            select_declared(ctx, &file, line);
                                        };
                                        view! {
                                            <li class="block" data-kind=b.kind.clone()>
                                                <button type="button" class="block-button" on:click=pick>
                                                    <span class="block-kind">{b.kind.clone()}</span>
                                                    <span class="block-labels">{b.labels.join(".")}</span>
                                                    <span class="block-line">
                                                        {format!("line {}", b.line)}
                                                    </span>
                                                </button>
                                            </li>
                                        }
                                    })
                                    .collect_view()}
                            </ul>
                        }
                            .into_any()
                    }
                    Some(Err(_)) => {
                        view! { <p class="outline-summary">"Blocks: fix the syntax error first."</p> }
                            .into_any()
                    }
                    None => ().into_any(),
                }}
            </div>
        </section>
    }
}

/// The working directory: which folder is the root module (when several hold configuration), and
/// the installed modules' files, which have no tabs of their own.
#[component]
pub fn Workdir(ctx: Ctx) -> impl IntoView {
    let candidates = Memo::new(move |_| {
        ctx.work
            .files
            .with(|f| crate::page::files::root_candidates(f.keys()))
    });
    let installed = Memo::new(move |_| {
        ctx.work.files.with(|f| {
            f.keys()
                .filter(|n| crate::page::files::is_installed_path(n))
                .count()
        })
    });
    let read = read_files(ctx.build);
    // What the root module's graph leaves out (a repository's examples/), in one sentence.
    let outside = Memo::new(move |_| {
        let root = ctx.work.root.get();
        read.with(|r| {
            ctx.work
                .files
                .with(|f| crate::page::tree::outside_root(f.keys(), &root, r.as_ref()))
        })
    });
    view! {
        <Show when=move || {
            candidates.with(|c| c.len() > 1) || installed.get() > 0 || outside.with(Option::is_some)
        }>
            <div class="workdir">
                <Show when=move || candidates.with(|c| c.len() > 1)>
                    <label class="root-field">
                        <span>"Root module"</span>
                        <select
                            id="root-module"
                            prop:value=move || ctx.work.root.get()
                            on:change=move |ev| {
                                let root = event_target_value(&ev);
                                ctx.walk.reset();
                                if let Some(f) = ctx.work.files.with_untracked(|f| crate::page::files::first_file(f, &root)) {
                                    ctx.work.active.set(f);
                                }
                                ctx.work.root.set(root);
                            }
                        >
                            {move || {
                                let mut c = candidates.get();
                                let root = ctx.work.root.get();
                                if !c.contains(&root) {
                                    c.push(root);
                                }
                                c.into_iter()
                                    .map(|r| {
                                        let label = crate::page::files::root_label(&r).to_string();
                                        let chosen = ctx.work.root.get_untracked() == r;
                                        view! { <option value=r selected=chosen>{label}</option> }
                                    })
                                    .collect_view()
                            }}
                        </select>
                    </label>
                </Show>
                {move || outside.get().map(|t| view! { <p class="outside-note">{t}</p> })}
                <Show when=move || { installed.get() > 0 }>
                    <span class="installed-summary muted small">
                        {move || format!(
                            "{} file{} in .terraform (installed modules, module manifest): read, not shown as tabs",
                            installed.get(),
                            if installed.get() == 1 { "" } else { "s" }
                        )}
                    </span>
                </Show>
            </div>
        </Show>
    }
}

/// What the configuration read, by the editor's paths: the latest build's, else (while an edit
/// does not load) the last graph's of these files; `None` when neither is known.
fn read_files(build: Build) -> Memo<Option<BTreeSet<String>>> {
    Memo::new(move |_| {
        build.analysis.with(|a| a.config_files.clone()).or_else(|| {
            build
                .good
                .with(|g| g.as_ref().and_then(|g| g.config_files.clone()))
        })
    })
}

/// Many files as a folder tree (`page::tree`): a filter on the path, folders that open and close,
/// files that open in the editor. It scrolls inside a box of bounded height, so the editor stays
/// near the top of its pane.
#[component]
pub fn FileTree(
    names: Memo<Vec<String>>,
    roles: Memo<BTreeMap<String, files::Role>>,
) -> impl IntoView {
    let (build, work) = (expect_context::<Build>(), expect_context::<Work>());
    use crate::page::tree;
    let read = read_files(build);
    let shape = Memo::new(move |_| {
        let root = work.root.get();
        read.with(|r| names.with(|n| tree::FileTree::new(n, &root, r.as_ref())))
    });
    let open = RwSignal::new(BTreeSet::<String>::new());
    let filter = RwSignal::new(String::new());
    // Under a filter every folder leading to a match starts open, apart from the open set kept
    // for when the filter is cleared.
    let filter_open = RwSignal::new(BTreeSet::<String>::new());
    // A new set of files or root module: the folders that start open, and those the user opened
    // that still exist.
    Effect::new(move |_| {
        names.track();
        work.root.track();
        let active = work.active.get_untracked();
        let fresh = shape.with_untracked(|t| t.initially_open(&active));
        let kept: BTreeSet<String> = open.with_untracked(|o| {
            o.iter()
                .filter(|f| {
                    names.with_untracked(|n| n.iter().any(|p| p.starts_with(&format!("{f}/"))))
                })
                .cloned()
                .collect()
        });
        open.set(fresh.union(&kept).cloned().collect());
    });
    // The file opened (from here, a diagnostic or a reference) shows: its folders open.
    Effect::new(move |_| {
        let active = work.active.get();
        let up = tree::folders_of(&active);
        if !open.with_untracked(|o| up.iter().all(|f| o.contains(f))) {
            open.update(|o| o.extend(up));
        }
    });
    let listing = Memo::new(move |_| {
        let f = filter.get();
        let folders = if f.trim().is_empty() {
            open
        } else {
            filter_open
        };
        folders.with(|o| shape.with(|t| t.rows(o, &f)))
    });
    let on_filter = move |ev| {
        let v = event_target_value(&ev);
        filter_open.set(shape.with_untracked(|t| t.matching_folders(&v)));
        filter.set(v);
    };
    let toggle = move |path: String| {
        let folders = if filter.with_untracked(|f| f.trim().is_empty()) {
            open
        } else {
            filter_open
        };
        folders.update(|o| {
            if !o.remove(&path) {
                o.insert(path);
            }
        });
    };
    let count = move || {
        let total = shape.with(|t| t.len());
        match listing.with(|l| l.matches) {
            Some(m) => format!("{m} of {total} files"),
            None => format!("{total} files"),
        }
    };
    let rows = move || {
        let l = listing.get();
        roles.with(|r| {
            l.rows
                .into_iter()
                .map(|row| {
                    let indent = format!("{}px", 6 + row.depth * 14);
                    let path = row.path.clone();
                    match row.kind {
                        tree::Kind::Folder { files, open, role } => {
                            let (class, title) = match role {
                                tree::FolderRole::Root => ("root", "The root module's folder"),
                                tree::FolderRole::OtherRoot => (
                                    "other-root",
                                    "Configuration that is not in this graph: it can be a root module of its own (Root module)",
                                ),
                                tree::FolderRole::Plain => ("", ""),
                            };
                            view! {
                                <button
                                    type="button"
                                    class=format!("tree-folder {class}")
                                    title=(!title.is_empty()).then_some(title)
                                    aria-expanded=open.to_string()
                                    data-path=row.path
                                    style:padding-left=indent
                                    on:click=move |_| toggle(path.clone())
                                >
                                    <span class="tree-twisty" aria-hidden="true">{if open { "▾" } else { "▸" }}</span>
                                    <span class="tree-name">{format!("{}/", row.name)}</span>
                                    <span class="tree-count">{files}</span>
                                </button>
                            }
                            .into_any()
                        }
                        tree::Kind::File => {
                            let p2 = path.clone();
                            view! {
                                <button
                                    type="button"
                                    class="tree-file"
                                    class:active=move || work.active.with(|a| *a == p2)
                                    data-path=row.path
                                    // Shown after the name by the stylesheet, as on the tabs.
                                    data-role=role_of(r, &path).label()
                                    style:padding-left=indent
                                    on:click=move |_| work.active.set(path.clone())
                                >
                                    {row.name}
                                </button>
                            }
                            .into_any()
                        }
                    }
                })
                .collect_view()
        })
    };
    view! {
        <div class="file-tree-box">
            <div class="tree-filter">
                <input
                    type="search"
                    id="file-filter"
                    placeholder="Filter files"
                    aria-label="Filter files by path"
                    spellcheck="false"
                    autocomplete="off"
                    prop:value=move || filter.get()
                    on:input=on_filter
                />
                <span class="tree-matches muted small" aria-live="polite">{count}</span>
            </div>
            <div class="file-tree" role="group" aria-label="Files">{rows}</div>
        </div>
    }
}

/// `-target` and `-exclude` addresses, applied by the Apply button, when a field loses focus, or
/// on Ctrl+Enter.
#[component]
pub fn Targets() -> impl IntoView {
    let build = expect_context::<Build>();
    let targets_ref = NodeRef::<leptos::html::Textarea>::new();
    let excludes_ref = NodeRef::<leptos::html::Textarea>::new();
    let field = move |id: &'static str,
                      label: &'static str,
                      sig: RwSignal<String>,
                      node: NodeRef<leptos::html::Textarea>| {
        view! {
            <label class="target-field">
                <span>{label}</span>
                <textarea
                    id=id
                    rows="2"
                    spellcheck="false"
                    placeholder="aws_instance.web, module.net"
                    node_ref=node
                    prop:value=move || sig.get()
                    on:change=move |ev| sig.set(event_target_value(&ev))
                    on:keydown=move |ev| {
                        if ev.key() == "Enter" && (ev.ctrl_key() || ev.meta_key()) {
                            sig.set(event_target_value(&ev));
                        }
                    }
                ></textarea>
            </label>
        }
    };
    // Both fields at once, as typed (a field that still has focus has not sent `change`).
    let apply = move |_| {
        for (node, sig) in [(targets_ref, build.targets), (excludes_ref, build.excludes)] {
            if let Some(ta) = node.get_untracked() {
                let v = ta.value();
                if sig.get_untracked() != v {
                    sig.set(v);
                }
            }
        }
    };
    let count = move || {
        let n = crate::page::files::address_list(&build.targets.get()).len()
            + crate::page::files::address_list(&build.excludes.get()).len();
        (n > 0).then(|| format!(" ({n})"))
    };
    // A toggle rather than <details>, which the injection tests treat as a payload's element.
    let open = RwSignal::new(false);
    view! {
        <div class="targets">
            <button
                type="button"
                class="targets-toggle"
                aria-expanded=move || open.get().to_string()
                on:click=move |_| open.update(|o| *o = !*o)
            >
                {move || if open.get() { "▾ " } else { "▸ " }}
                "Targets and excludes"
                {count}
            </button>
            // Kept in the page when closed, so typed addresses stay until cleared.
            <div class="targets-body" class:closed=move || !open.get()>
                <p class="muted small">"Limit the graph as -target and -exclude do: one address per line or separated by commas."</p>
                {field("targets", "-target", build.targets, targets_ref)}
                {field("excludes", "-exclude", build.excludes, excludes_ref)}
                <button type="button" id="targets-apply" on:click=apply>
                    "Apply"
                </button>
                <span class="muted small">" or Ctrl+Enter"</span>
            </div>
        </div>
    }
}

#[component]
pub fn Diagnostics() -> impl IntoView {
    let (analysis, work) = (expect_context::<Build>().analysis, expect_context::<Work>());
    view! {
        <div class="diagnostics" aria-live="polite">
            {move || {
                analysis
                    .with(|a| a.errors.iter().chain(a.warnings.iter()).cloned().collect::<Vec<_>>())
                    .into_iter()
                    .map(|d| {
                        let file = d.file.clone();
                        let line = d.line;
                        view! {
                            <div
                                class="diagnostic"
                                class:error=d.error
                                class:warning=!d.error
                                role=if d.error { "alert" } else { "status" }
                                on:click=move |_| {
                                    if let Some(f) = file.clone()
                                        && line > 0 && work.files.with_untracked(|m| m.contains_key(&f)) {
                                            work.active.set(f);
                                        }
                                }
                            >
                                {d.place.map(|p| view! { <span class="diag-where">{p}</span> })}
                                <span class="diag-message">
                                    <strong>{d.summary.clone()}</strong>
                                    {if d.detail.is_empty() { String::new() } else { format!(": {}", d.detail) }}
                                </span>
                            </div>
                        }
                    })
                    .collect_view()
            }}
        </div>
    }
}
