//! Keyed drawing: what a redraw keeps. The page draws each vertex and edge under a key (its name,
//! or its two names); when the graph changes, an element whose key is still there is kept and
//! updated in place (moved, re-indexed), only new keys get new elements and only keys that are
//! gone lose theirs. [`reconcile`] is that rule over any slot type, so the app's views only bind
//! it (`app/graph.rs` keeps one slot of signals per drawn vertex and edge).
//!
//! Invariant: the slots returned are in the items' order, one per item; a slot is made only for a
//! key that had none, and every key that is not among the items is dropped.

use std::collections::HashMap;
use std::hash::Hash;

/// How many slots a [`reconcile`] kept, made and dropped.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Reconciled {
    pub kept: usize,
    pub made: usize,
    pub dropped: usize,
}

/// Gives each of `items` the slot its key had in `slots` (passed to `update` with the item) or a
/// new one from `make`, replaces `slots` with the items' slots, and returns them in the items'
/// order. A key given twice keeps the first item's slot for both (the drawings never repeat a
/// key; this only keeps the rule total).
pub fn reconcile<K, T, S>(
    slots: &mut HashMap<K, S>,
    items: impl IntoIterator<Item = T>,
    key: impl Fn(&T) -> &K,
    mut make: impl FnMut(&T) -> S,
    mut update: impl FnMut(&S, &T),
) -> (Vec<S>, Reconciled)
where
    K: Eq + Hash + Clone,
    S: Clone,
{
    // Keys are borrowed from the items and a kept slot keeps its old key: a redraw of 2,451
    // edges otherwise cloned every edge's two names twice.
    let mut old = std::mem::take(slots);
    slots.reserve(old.len());
    let mut out = Vec::with_capacity(old.len());
    let mut counts = Reconciled::default();
    for item in items {
        let k = key(&item);
        let slot = if let Some(s) = slots.get(k) {
            s.clone()
        } else if let Some((k, s)) = old.remove_entry(k) {
            update(&s, &item);
            counts.kept += 1;
            slots.insert(k, s.clone());
            s
        } else {
            let s = make(&item);
            counts.made += 1;
            slots.insert(k.clone(), s.clone());
            s
        };
        out.push(slot);
    }
    counts.dropped = old.len();
    (out, counts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;
    use std::rc::Rc;

    /// A slot that records what it was given, as the app's signals would hold it.
    type Slot = Rc<RefCell<(u32, usize)>>;

    fn draw(
        slots: &mut HashMap<String, Slot>,
        items: &[(&str, usize)],
        made: &mut u32,
    ) -> (Vec<Slot>, Reconciled) {
        reconcile(
            slots,
            items.iter().map(|(n, i)| (n.to_string(), *i)),
            |(n, _)| n,
            |(_, i)| {
                *made += 1;
                Rc::new(RefCell::new((*made, *i)))
            },
            |s, (_, i)| s.borrow_mut().1 = *i,
        )
    }

    #[test]
    fn an_edit_keeps_what_is_still_there_and_makes_only_what_is_new() {
        let mut slots = HashMap::new();
        let mut made = 0;
        let (first, c) = draw(&mut slots, &[("a", 0), ("b", 1), ("c", 2)], &mut made);
        assert_eq!(
            c,
            Reconciled {
                kept: 0,
                made: 3,
                dropped: 0
            }
        );
        // "x" added before "b" shifts the indexes; "c" removed.
        let (second, c) = draw(&mut slots, &[("a", 0), ("x", 1), ("b", 2)], &mut made);
        assert_eq!(
            c,
            Reconciled {
                kept: 2,
                made: 1,
                dropped: 1
            }
        );
        // The same slots (the same elements on the page), re-indexed; a new one for "x".
        assert!(Rc::ptr_eq(&first[0], &second[0]));
        assert!(Rc::ptr_eq(&first[1], &second[2]));
        assert_eq!(*second[2].borrow(), (2, 2), "b's slot now says index 2");
        assert_eq!(second[1].borrow().0, 4, "x got the fourth slot made");
        assert_eq!(slots.len(), 3);
        assert!(!slots.contains_key("c"));
    }

    #[test]
    fn the_slots_follow_the_items_order_and_nothing_is_left_for_an_empty_drawing() {
        let mut slots = HashMap::new();
        let mut made = 0;
        draw(&mut slots, &[("a", 0), ("b", 1)], &mut made);
        let (out, c) = draw(&mut slots, &[("b", 0), ("a", 1)], &mut made);
        assert_eq!(c.kept, 2);
        assert_eq!(*out[0].borrow(), (2, 0));
        assert_eq!(*out[1].borrow(), (1, 1));
        let (out, c) = draw(&mut slots, &[], &mut made);
        assert!(out.is_empty() && slots.is_empty());
        assert_eq!(c.dropped, 2);
    }

    #[test]
    fn a_repeated_key_shares_one_slot() {
        let mut slots = HashMap::new();
        let mut made = 0;
        let (out, c) = draw(&mut slots, &[("a", 0), ("a", 1)], &mut made);
        assert_eq!(c.made, 1);
        assert!(Rc::ptr_eq(&out[0], &out[1]));
        assert_eq!(*out[0].borrow(), (1, 0), "the first item's data");
    }
}
