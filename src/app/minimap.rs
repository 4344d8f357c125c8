//! The minimap's binding: the box of `page::minimap` in the canvas's corner when the fitted
//! drawing is too small to read, its marks redrawn when the scene changes, the view's frame when
//! the view moves, and a press or drag in it that moves the view. The geometry is the library's.

use super::prelude::*;
use crate::page::minimap::{self, Frame};

/// The pointer's place in the minimap's box (CSS pixels from its top-left corner).
fn at(ev: &web_sys::PointerEvent) -> Option<(f64, f64)> {
    use wasm_bindgen::JsCast;
    let el: web_sys::Element = ev.current_target()?.dyn_into().ok()?;
    let r = el.get_bounding_client_rect();
    Some((
        ev.client_x() as f64 - r.left(),
        ev.client_y() as f64 - r.top(),
    ))
}

#[component]
pub(super) fn Minimap(ctx: Ctx) -> impl IntoView {
    // The box, or none when the whole drawing fitted to the canvas is legible.
    let frame = Memo::new(move |_| {
        let (cw, ch) = ctx.canvas.px.get().unwrap_or(Canvas::UNKNOWN_SIZE);
        ctx.build
            .scene
            .with(|sc| minimap::wanted(sc, cw, ch).then(|| Frame::new(sc.width, sc.height, cw, ch)))
    });
    let paths = Memo::new(move |_| {
        let f = frame.get()?;
        Some(
            ctx.build
                .scene
                .with(|sc| (minimap::paths(sc, &f), minimap::module_path(sc, &f))),
        )
    });
    let pressed = StoredValue::new(false);
    let go = move |ev: &web_sys::PointerEvent| {
        let (Some(f), Some((mx, my))) = (frame.get_untracked(), at(ev)) else {
            return;
        };
        let (cw, ch) = ctx
            .canvas
            .px
            .get_untracked()
            .unwrap_or(Canvas::UNKNOWN_SIZE);
        ctx.canvas.moved();
        ctx.canvas
            .xf
            .set(f.centred_at(mx, my, ctx.canvas.xf.get_untracked(), cw, ch));
    };
    // The view's frame: one element whose attributes follow the view.
    let rect = Memo::new(move |_| {
        let (cw, ch) = ctx.canvas.px.get().unwrap_or(Canvas::UNKNOWN_SIZE);
        frame
            .get()
            .map(|f| f.view_rect(ctx.canvas.xf.get(), cw, ch))
            .unwrap_or_default()
    });
    move || {
        let f = frame.get()?;
        Some(view! {
            // A pointer's shortcut only: from the keyboard the view follows the focused vertex,
            // so the box is hidden from assistive technology.
            <div
                class="minimap"
                aria-hidden="true"
                style:width=format!("{:.0}px", f.w)
                style:height=format!("{:.0}px", f.h)
                on:pointerdown=move |ev| {
                    ev.stop_propagation();
                    ev.prevent_default();
                    // The drag goes on outside the box (the view stops at its edge).
                    if let Some(el) = ev.current_target().and_then(|t| {
                        wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok()
                    }) {
                        _ = el.set_pointer_capture(ev.pointer_id());
                    }
                    pressed.set_value(true);
                    go(&ev);
                }
                on:pointermove=move |ev| {
                    if pressed.get_value() {
                        ev.stop_propagation();
                        go(&ev);
                    }
                }
                on:pointerup=move |ev| {
                    ev.stop_propagation();
                    pressed.set_value(false);
                }
                on:click=|ev| ev.stop_propagation()
            >
                <svg width=f.w height=f.h>
                    {move || {
                        paths
                            .get()
                            .map(|(marks, modules)| {
                                view! {
                                    <path class="minimap-modules" d=modules></path>
                                    {marks
                                        .into_iter()
                                        .map(|(colour, d)| {
                                            view! {
                                                <path d=d style:fill=format!("var({colour})")></path>
                                            }
                                        })
                                        .collect_view()}
                                }
                            })
                    }}
                </svg>
                // The view's frame: a layer of its own over the marks, moved by a transform, so
                // following a pan does not paint the marks again (a frame drawn in the SVG cost
                // a sixth of the frame rate panning 5,000 vertices).
                <div
                    class="minimap-view"
                    style:width=move || format!("{:.1}px", rect.get().2.max(2.0))
                    style:height=move || format!("{:.1}px", rect.get().3.max(2.0))
                    style:transform=move || {
                        let (x, y, _, _) = rect.get();
                        format!("translate({x:.1}px, {y:.1}px)")
                    }
                ></div>
            </div>
        })
    }
}
