//! The glossary the legend opens: every vertex kind the page draws and every suffix OpenTofu puts
//! after a vertex name, in words, with an example name of each.
//!
//! The suffixes' sentences are [`super::details::about`]'s, asked with the example's kind, so the
//! glossary and the details panel can never say two different things about the same vertex.

use super::details::about;
use super::graph::Kind;

/// One line of the glossary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// What is explained: a kind's label ("resource") or a suffix ("(expand)").
    pub term: &'static str,
    /// A vertex name of this kind, as OpenTofu writes it.
    pub example: &'static str,
    /// The drawing kind, for the swatch drawn beside the term (`None` for a suffix, which any
    /// kind can carry).
    pub kind: Option<Kind>,
    /// What it is, in one or two sentences.
    pub text: &'static str,
}

/// Every kind of [`Kind::LEGEND`], in the legend's order.
pub fn kinds() -> Vec<Entry> {
    Kind::LEGEND
        .iter()
        .map(|&k| {
            let (example, text) = kind_words(k);
            Entry {
                term: k.label(),
                example,
                kind: Some(k),
                text,
            }
        })
        .collect()
}

/// Every suffix a vertex name can carry, each explained as the details panel explains a vertex
/// with that suffix.
pub fn suffixes() -> Vec<Entry> {
    [
        ("(expand)", "aws_instance.web (expand)"),
        ("(expand) of a module", "module.network (expand)"),
        ("(close) of a module", "module.network (close)"),
        (
            "(close) of a provider",
            "provider[\"registry.opentofu.org/hashicorp/aws\"] (close)",
        ),
        (
            "(expand, reference)",
            "module.network.var.cidr (expand, reference)",
        ),
        ("(expand, input)", "module.network.var.cidr (expand, input)"),
        ("(orphan)", "aws_instance.old (orphan)"),
        ("(destroy)", "aws_instance.web (destroy)"),
        ("(deposed …)", "aws_instance.web (deposed 00000001)"),
        ("(forget)", "aws_instance.kept (forget)"),
        (
            "(proxy)",
            "module.network.provider[\"registry.opentofu.org/hashicorp/aws\"] (proxy)",
        ),
    ]
    .into_iter()
    .map(|(term, example)| Entry {
        term,
        example,
        kind: None,
        // An example is a name alone: its kind as the DOT reader reads a name.
        text: about(&crate::dag::import::typed_from_name(example)),
    })
    .collect()
}

/// An example name and the sentence for a drawing kind.
fn kind_words(k: Kind) -> (&'static str, &'static str) {
    match k {
        Kind::Resource => (
            "aws_instance.web",
            "A managed resource (or one of its instances): the walk plans or applies it through its provider, after everything it references.",
        ),
        Kind::Data => (
            "data.aws_ami.ubuntu",
            "A data source: read through its provider during the walk, as soon as what it references is known.",
        ),
        Kind::Provider => (
            "provider[\"registry.opentofu.org/hashicorp/aws\"]",
            "A provider configuration: configured before every resource that uses it, and closed after the last one.",
        ),
        Kind::Variable => (
            "var.region",
            "An input variable: its value comes from -var, variable files, the module call or its default.",
        ),
        Kind::Local => (
            "local.tags",
            "A local value: evaluated once what its expression references is ready.",
        ),
        Kind::Output => (
            "output.instance_id",
            "An output value: evaluated after what it references; a module's outputs are what its callers read.",
        ),
        Kind::ModuleExpand => (
            "module.network (expand)",
            "The start of a module call: it evaluates the call's count or for_each before anything inside the module.",
        ),
        Kind::ModuleClose => (
            "module.network (close)",
            "The end of a module call: it waits for everything inside the module.",
        ),
        Kind::Root => (
            "root",
            "The graph's single end: it waits for every other vertex, so the walk is over when it is done.",
        ),
        Kind::Destroy => (
            "aws_instance.old (orphan)",
            "Something to destroy: an object only the state still has (orphan), the destroy half of a replacement, or a deposed copy.",
        ),
        Kind::Collapsed => (
            "module.network (collapsed: 6)",
            "Not an OpenTofu vertex: a module the viewer folded into one box (click its header to open it again); its edges stand for those of the vertices inside.",
        ),
        Kind::Other => (
            "check.health (report)",
            "Bookkeeping the builder adds for checks, imports and other blocks: it orders the walk but changes no infrastructure.",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::graph::PageVertex;
    use std::collections::BTreeSet;

    #[test]
    fn every_legend_kind_has_an_entry_whose_example_is_drawn_as_that_kind() {
        let ks = kinds();
        assert_eq!(ks.len(), Kind::LEGEND.len());
        for e in &ks {
            let k = e.kind.expect("a kind");
            assert_eq!(e.term, k.label());
            assert!(e.text.ends_with('.'), "{}: {}", e.term, e.text);
            if k != Kind::Collapsed {
                assert_eq!(PageVertex::named(e.example).kind, k, "{}", e.example);
            }
        }
        let terms: BTreeSet<_> = ks.iter().map(|e| e.term).collect();
        assert_eq!(terms.len(), ks.len(), "labels repeat");
    }

    #[test]
    fn each_suffix_is_explained_as_the_details_panel_explains_it() {
        let ss = suffixes();
        let texts: BTreeSet<_> = ss.iter().map(|e| e.text).collect();
        // No suffix falls through to the panel's generic sentence, and no two share one.
        assert_eq!(texts.len(), ss.len(), "{ss:#?}");
        let about = |name: &str| about(&crate::dag::import::typed_from_name(name));
        let generic = about("aws_instance.web");
        for e in &ss {
            assert_ne!(e.text, generic, "{}", e.term);
            let suffix = e.term.split(' ').next().unwrap_or("").trim_end_matches(')');
            let suffix = suffix.trim_start_matches('(').trim_end_matches('…').trim();
            assert!(e.example.contains(suffix), "{} / {}", e.term, e.example);
            assert_eq!(e.text, about(e.example));
        }
        for want in [
            "(expand)",
            "(close) of a module",
            "(expand, reference)",
            "(orphan)",
        ] {
            assert!(ss.iter().any(|e| e.term == want), "{want}");
        }
    }
}
