//! Words for what the page shows: what each transform does and which step of Terraform's
//! "Resource Graph" description it carries out, the declaration snippet of a vertex, and data
//! URLs for downloads.

use super::analysis::Decl;
use std::collections::BTreeMap;

/// The declaration's block: from its first line to where its braces close (at most `max`
/// lines), numbered. OpenTofu's declaration ranges cover only the block header, so the end is
/// found by counting braces (strings with braces may end it early; it is only a preview).
pub fn snippet(files: &BTreeMap<String, String>, decl: &Decl, max: usize) -> Vec<(usize, String)> {
    let Some(text) = files.get(&decl.file) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut depth = 0i64;
    for (i, l) in text.lines().enumerate().skip(decl.line.saturating_sub(1)) {
        out.push((i + 1, l.to_string()));
        for c in l.chars() {
            match c {
                '{' => {
                    depth += 1;
                }
                '}' => depth -= 1,
                _ => {}
            }
        }
        let past_end = i + 1 >= decl.end_line.max(decl.line);
        if out.len() >= max || (past_end && depth <= 0) {
            break;
        }
    }
    out
}

/// What each transform does, in our words.
pub fn explain(transform: &str) -> &'static str {
    match transform {
        "ConfigTransformer" => {
            "Adds one vertex per resource and data block in the configuration (per module), before anything is connected."
        }
        "RootVariableTransformer" => {
            "Adds a vertex for each input variable of the root module, so values given on the command line have a place in the graph."
        }
        "ModuleVariableTransformer" => {
            "Adds a vertex for each variable of a child module: it evaluates the argument the module call passes in."
        }
        "LocalTransformer" => {
            "Adds a vertex for each local value; locals are evaluated on their own, like tiny resources."
        }
        "OutputTransformer" => {
            "Adds a vertex for each output value, so outputs are computed once what they reference is done."
        }
        "OrphanResourceInstanceTransformer" | "OrphanResourceInstanceCountTransformer" => {
            "Adds vertices for resource instances that are in the state but no longer in the configuration: they will be destroyed."
        }
        "OrphanOutputTransformer" => {
            "Adds vertices that remove outputs which are in the state but no longer in the configuration."
        }
        "StateTransformer" => "Adds a vertex for every resource instance recorded in the state.",
        "AttachStateTransformer" => {
            "Gives each resource instance vertex its object from the state."
        }
        "AttachResourceConfigTransformer" => {
            "Gives each resource vertex its configuration block, which later steps read for references and providers."
        }
        "DiffTransformer" => {
            "Adds the vertices that carry out the planned changes: one per instance to create, update or destroy."
        }
        "ProviderConfigTransformer" => {
            "Adds a vertex for each provider block, in every module that declares one."
        }
        "MissingProviderTransformer" => {
            "Adds a vertex for providers that resources need but no configuration declares, so they run with an empty configuration."
        }
        "ProviderTransformer" => {
            "Connects each resource to the provider configuration that serves it, following aliases and what modules inherit."
        }
        "PruneProviderTransformer" => {
            "Removes provider vertices nothing uses: no need to start a plugin for them."
        }
        "ProviderUnconfiguredTransformer" => "Marks providers that nothing configures.",
        "ProviderFunctionTransformer" => {
            "Connects vertices that call provider functions to the provider that defines them."
        }
        "CloseProviderTransformer" => {
            "Adds a closing vertex per provider that waits for every user of it, so the plugin is stopped only when all of them are done."
        }
        "AttachSchemaTransformer" => {
            "Gives each resource and provider vertex its schema, which tells the reference step which attributes are expressions."
        }
        "ModuleExpansionTransformer" => {
            "Adds an expand vertex per module call (it evaluates count and for_each) and a close vertex; everything inside the module waits on its expand."
        }
        "ReferenceTransformer" => {
            "Adds an edge from every vertex to each thing its expressions refer to: this is where implicit dependencies come from."
        }
        "AttachDependenciesTransformer" => {
            "Records on each resource which other resources it depends on, as the state will store it."
        }
        "attachResourceDependsOnTransformer" => {
            "Makes data sources and ephemeral resources wait for what their depends_on implies, so they are not read too early."
        }
        "CloseableResourceTransformer" => {
            "Adds a closing vertex per ephemeral resource that waits for everything using it, so the ephemeral object is closed before its provider."
        }
        "ExternalReferenceTransformer" => {
            "Connects vertices to references that come from outside the configuration."
        }
        "DestroyEdgeTransformer" => {
            "Reverses the order for destruction: a thing is destroyed only after everything that depended on it."
        }
        "pruneUnusedNodesTransformer" => {
            "Removes vertices a destroy-only run does not need, such as values nothing being destroyed uses."
        }
        "CBDEdgeTransformer" | "ForcedCBDTransformer" => {
            "For create_before_destroy, turns the order round so the replacement exists before the old object goes."
        }
        "TargetingTransformer" => {
            "With -target or -exclude, keeps only the vertices the selection needs."
        }
        "RemovedModuleTransformer" => {
            "Adds vertices that clean up modules which are in the state but removed from the configuration."
        }
        "CloseRootModuleTransformer" => {
            "Adds the root vertex that waits for everything else, so the graph has a single end."
        }
        "RootTransformer" => {
            "Adds a single root vertex that every vertex without dependents leads to: a graph must have exactly one."
        }
        "TransitiveReductionTransformer" => {
            "Removes edges implied by longer paths (if A needs B and B needs C, A -> C goes): same order, fewer lines."
        }
        "checkTransformer" | "checkStartTransformer" => {
            "Adds vertices for check blocks, which run after what they look at."
        }
        _ => "A step of OpenTofu's graph builder.",
    }
}

/// A `data:` URL holding `text`, for download links: the UTF-8 bytes base64-encoded (the `base64`
/// crate the share links already use; a third larger than the text, where percent-encoding JSON
/// or DOT would triple it).
pub fn data_url(mime: &str, text: &str) -> String {
    use base64::Engine as _;
    format!(
        "data:{mime};charset=utf-8;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(text)
    )
}

/// What a step changed, in words: "+3 vertices, −1 edge", or "no change".
pub fn delta_text(s: &crate::builder::Step) -> String {
    let part = |n: usize, sign: char, what: &str| {
        (n > 0).then(|| format!("{sign}{n} {what}{}", if n == 1 { "" } else { "s" }))
    };
    let parts: Vec<String> = [
        part(s.added_vertices.len(), '+', "vertex"),
        part(s.removed_vertices.len(), '−', "vertex"),
        part(s.added_edges.len(), '+', "edge"),
        part(s.removed_edges.len(), '−', "edge"),
    ]
    .into_iter()
    .flatten()
    .map(|p| p.replace("vertexs", "vertices"))
    .collect();
    if parts.is_empty() {
        "no change".to_string()
    } else {
        parts.join(", ")
    }
}

/// The steps of Terraform's "Resource Graph" description ("Building the Graph"), in its order,
/// with what OpenTofu adds: each transform belongs to one of them (see [`phase_of`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Phase {
    Resources,
    Modules,
    Provisioners,
    DependsOn,
    Orphans,
    Providers,
    References,
    Root,
    DestroySplit,
    Targeting,
    Validation,
    Reduction,
}

impl Phase {
    pub const ALL: [Phase; 12] = [
        Phase::Resources,
        Phase::Modules,
        Phase::Provisioners,
        Phase::DependsOn,
        Phase::Orphans,
        Phase::Providers,
        Phase::References,
        Phase::Root,
        Phase::DestroySplit,
        Phase::Targeting,
        Phase::Validation,
        Phase::Reduction,
    ];

    /// A short tag.
    pub fn tag(self) -> &'static str {
        match self {
            Phase::Resources => "resources",
            Phase::Modules => "modules",
            Phase::Provisioners => "provisioners",
            Phase::DependsOn => "depends_on",
            Phase::Orphans => "orphans",
            Phase::Providers => "providers",
            Phase::References => "references",
            Phase::Root => "root",
            Phase::DestroySplit => "destroy split",
            Phase::Targeting => "targeting",
            Phase::Validation => "validation",
            Phase::Reduction => "reduction",
        }
    }

    /// The CSS class suffix (`phase-…`).
    pub fn css(self) -> &'static str {
        match self {
            Phase::DependsOn => "depends-on",
            Phase::DestroySplit => "destroy-split",
            p => p.tag(),
        }
    }

    /// What this step of the description does, in our words.
    pub fn about(self) -> &'static str {
        match self {
            Phase::Resources => {
                "Every resource and data block becomes a vertex; so do variables, locals, outputs, checks and each module call."
            }
            Phase::Modules => {
                "Not a step of its own in the description: each module call gets an expand vertex (it evaluates count and for_each) and a close vertex, and what is inside the module waits on its expand."
            }
            Phase::Provisioners => {
                "Provisioners have no vertices of their own in OpenTofu: they run inside the vertex of the resource they belong to."
            }
            Phase::DependsOn => {
                "Explicit depends_on becomes edges (drawn by the reference step); these steps make data sources and the saved state respect it."
            }
            Phase::Orphans => {
                "With a state, objects it records that the configuration no longer has are added, to be destroyed."
            }
            Phase::Providers => {
                "Each resource is tied to the provider configuration that serves it; unused providers go, and each provider gets a closing vertex."
            }
            Phase::References => {
                "Expressions are read for references (var.x, aws_vpc.a.id, module.m.out): each one becomes an edge to what it names."
            }
            Phase::Root => {
                "A single root vertex is added that waits for everything, so the graph has one end."
            }
            Phase::DestroySplit => {
                "When there are changes, replacing an object is split into destroy and create, ordered by create_before_destroy."
            }
            Phase::Targeting => {
                "Not in the description: with -target or -exclude, only what the selection needs is kept."
            }
            Phase::Validation => {
                "The finished graph is checked: exactly one root, no cycles, no vertex depending on itself."
            }
            Phase::Reduction => {
                "Transitive reduction drops every edge a longer path already implies: the same order, fewer lines."
            }
        }
    }
}

/// The step of the "Resource Graph" description a transform carries out.
pub fn phase_of(transform: &str) -> Phase {
    match transform {
        "StateTransformer"
        | "AttachStateTransformer"
        | "OrphanResourceInstanceTransformer"
        | "OrphanResourceInstanceCountTransformer"
        | "OrphanOutputTransformer"
        | "RemovedModuleTransformer" => Phase::Orphans,
        "attachResourceDependsOnTransformer" | "AttachDependenciesTransformer" => Phase::DependsOn,
        "ProviderConfigTransformer"
        | "MissingProviderTransformer"
        | "ProviderTransformer"
        | "PruneProviderTransformer"
        | "ProviderUnconfiguredTransformer"
        | "ProviderFunctionTransformer"
        | "CloseProviderTransformer"
        | "CloseableResourceTransformer"
        | "AttachSchemaTransformer" => Phase::Providers,
        "ReferenceTransformer" | "ExternalReferenceTransformer" => Phase::References,
        "RootTransformer" | "CloseRootModuleTransformer" => Phase::Root,
        "DiffTransformer"
        | "DestroyEdgeTransformer"
        | "CBDEdgeTransformer"
        | "ForcedCBDTransformer"
        | "pruneUnusedNodesTransformer" => Phase::DestroySplit,
        "TargetingTransformer" => Phase::Targeting,
        "ModuleExpansionTransformer" | "ModuleVariableTransformer" => Phase::Modules,
        "TransitiveReductionTransformer" => Phase::Reduction,
        _ => Phase::Resources,
    }
}

/// The offset a textarea's selection uses (UTF-16 code units) of 1-based `line` and `column`
/// (counted in characters, as HCL counts them) in `text`; clamped to the line's end and the
/// text's end.
pub fn utf16_offset(text: &str, line: usize, column: usize) -> u32 {
    let mut offset = 0usize;
    for (i, l) in text.split('\n').enumerate() {
        if i + 1 == line {
            let in_line: usize = l
                .chars()
                .take(column.saturating_sub(1))
                .map(char::len_utf16)
                .sum();
            return (offset + in_line) as u32;
        }
        offset += l.encode_utf16().count() + 1;
    }
    text.encode_utf16().count() as u32
}

/// The 1-based line of a textarea offset (UTF-16 code units) in `text`.
pub fn line_of_utf16_offset(text: &str, offset: u32) -> usize {
    let mut units = 0u32;
    let mut line = 1;
    for c in text.chars() {
        if units >= offset {
            break;
        }
        units += c.len_utf16() as u32;
        if c == '\n' {
            line += 1;
        }
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::{self, BuilderKind};

    // Issue 18, defect 9: "+3 −0 · +0 −0" had no labels, and the module expansion steps were
    // filed under "resources".
    #[test]
    fn step_figures_are_words_and_module_steps_have_their_phase() {
        let step = crate::builder::Step {
            name: "X".into(),
            added_vertices: vec!["a".into(), "b".into(), "c".into()],
            removed_vertices: vec![],
            added_edges: vec![("a".into(), "b".into())],
            removed_edges: vec![("b".into(), "c".into()), ("a".into(), "c".into())],
            ..Default::default()
        };
        assert_eq!(delta_text(&step), "+3 vertices, +1 edge, −2 edges");
        let none = crate::builder::Step {
            name: "Y".into(),
            added_vertices: vec![],
            removed_vertices: vec!["v".into()],
            added_edges: vec![],
            removed_edges: vec![],
            ..Default::default()
        };
        assert_eq!(delta_text(&none), "−1 vertex");
        assert_eq!(phase_of("ModuleExpansionTransformer"), Phase::Modules);
        assert_eq!(phase_of("ModuleVariableTransformer"), Phase::Modules);
        assert_eq!(phase_of("ConfigTransformer"), Phase::Resources);
    }

    /// Every transform the builders run is explained in our words and placed in a phase.
    #[test]
    fn every_transform_of_every_builder_is_explained() {
        let files = BTreeMap::from([(
            "main.tf".to_string(),
            "resource \"a\" \"x\" {}\n".to_string(),
        )]);
        let (cfg, _) = crate::config::load_files(&files);
        let inputs = builder::inputs_from_crate(cfg.as_ref(), None, None, None);
        for kind in BuilderKind::ALL {
            for t in builder::steps(&inputs, kind) {
                let name = t.name();
                assert_ne!(
                    explain(name),
                    explain("NoSuchTransformer"),
                    "{name} ({}) has no explanation",
                    kind.as_str()
                );
            }
        }
        assert_eq!(phase_of("ReferenceTransformer"), Phase::References);
        assert_eq!(phase_of("TransitiveReductionTransformer"), Phase::Reduction);
        assert_eq!(phase_of("CloseProviderTransformer"), Phase::Providers);
        assert_eq!(phase_of("StateTransformer"), Phase::Orphans);
        for p in Phase::ALL {
            assert!(!p.about().is_empty() && !p.tag().is_empty());
        }
    }

    #[test]
    fn a_snippet_runs_to_the_closing_brace() {
        let files = BTreeMap::from([(
            "main.tf".to_string(),
            "# c\nresource \"a\" \"b\" {\n  x = {\n    y = 1\n  }\n}\nresource \"a\" \"c\" {}\n"
                .to_string(),
        )]);
        let decl = Decl {
            file: "main.tf".into(),
            line: 2,
            end_line: 2,
        };
        let s = snippet(&files, &decl, 16);
        assert_eq!(s.first().map(|l| l.0), Some(2));
        assert_eq!(s.last().map(|l| (l.0, l.1.as_str())), Some((6, "}")));
        assert_eq!(snippet(&files, &decl, 2).len(), 2);
        let missing = Decl {
            file: "other.tf".into(),
            ..decl
        };
        assert!(snippet(&files, &missing, 16).is_empty());
    }

    #[test]
    fn data_urls_carry_the_utf8_bytes_in_base64() {
        let url = data_url("text/plain", "a b\"<é");
        assert_eq!(url, "data:text/plain;charset=utf-8;base64,YSBiIjzDqQ==");
        use base64::Engine as _;
        let payload = url
            .split_once(";base64,")
            .map(|(_, p)| p)
            .unwrap_or_default();
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(payload)
            .unwrap();
        assert_eq!(String::from_utf8(bytes).unwrap(), "a b\"<é");
    }

    #[test]
    fn utf16_offsets_count_characters_by_their_utf16_length() {
        let text = "a = 1\nb = \"é😀\" + x.y\nlast";
        assert_eq!(utf16_offset(text, 1, 1), 0);
        assert_eq!(utf16_offset(text, 2, 1), 6);
        // `x` is the 12th character of line 2; before it, é is one unit and the emoji two.
        assert_eq!(utf16_offset(text, 2, 12), 6 + 12);
        assert_eq!(
            &text.encode_utf16().collect::<Vec<_>>()[18..21],
            &"x.y".encode_utf16().collect::<Vec<_>>()[..]
        );
        // Past the end of a line or the text: clamped.
        assert_eq!(utf16_offset(text, 1, 99), 5);
        assert_eq!(utf16_offset(text, 9, 1), text.encode_utf16().count() as u32);
    }

    #[test]
    fn lines_of_utf16_offsets() {
        let text = "a😀\nb\n\nc";
        assert_eq!(line_of_utf16_offset(text, 0), 1);
        // After the emoji (two units), still line 1; after its newline, line 2.
        assert_eq!(line_of_utf16_offset(text, 3), 1);
        assert_eq!(line_of_utf16_offset(text, 4), 2);
        assert_eq!(line_of_utf16_offset(text, 7), 4);
        assert_eq!(line_of_utf16_offset(text, 99), 4);
        // The inverse of utf16_offset at line starts.
        for line in 1..=4 {
            assert_eq!(
                line_of_utf16_offset(text, utf16_offset(text, line, 1)),
                line
            );
        }
    }
}
