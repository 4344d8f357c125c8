//! Property tests for the DAG algorithms against brute force (and petgraph where it has the same
//! notion).

use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use tfgraph::dag::{Graph, VertexId};
use tfgraph::walk::{DurationModel, Scenario, Transition, WalkOptions, simulate};

/// A random DAG: vertex i may depend on vertex j only when i < j. Names are a permutation so that
/// name order differs from id order.
/// The graph in petgraph (node weights are our ids; edges point from dependent to dependency),
/// to compare our algorithms with petgraph's.
fn to_petgraph<V>(g: &Graph<V>) -> petgraph::stable_graph::StableDiGraph<VertexId, ()> {
    let mut pg = petgraph::stable_graph::StableDiGraph::with_capacity(g.len(), g.edge_count());
    let index: BTreeMap<VertexId, _> = g.ids().map(|id| (id, pg.add_node(id))).collect();
    for (from, to) in g.edges() {
        pg.add_edge(index[&from], index[&to], ());
    }
    pg
}

fn dag_strategy() -> impl Strategy<Value = (Vec<String>, Vec<(usize, usize)>)> {
    (1usize..12).prop_flat_map(|n| {
        let names = Just((0..n).map(|i| i.to_string()).collect::<Vec<_>>()).prop_shuffle();
        let edges = proptest::collection::vec((0..n, 0..n), 0..(n * n))
            .prop_map(|es| es.into_iter().filter(|(a, b)| a < b).collect::<Vec<_>>());
        (names, edges)
    })
}

/// A random directed graph, cycles and self-loops allowed.
fn digraph_strategy() -> impl Strategy<Value = (Vec<String>, Vec<(usize, usize)>)> {
    (1usize..10).prop_flat_map(|n| {
        let names = Just((0..n).map(|i| format!("v{i}")).collect::<Vec<_>>()).prop_shuffle();
        (names, proptest::collection::vec((0..n, 0..n), 0..(n * 2)))
    })
}

fn build(names: &[String], edges: &[(usize, usize)]) -> (Graph<String>, Vec<VertexId>) {
    let mut g = Graph::new();
    let ids: Vec<VertexId> = names.iter().map(|n| g.add(n.clone())).collect();
    for (a, b) in edges {
        g.connect(ids[*a], ids[*b]);
    }
    (g, ids)
}

/// reach[v] = every vertex reachable from v along one or more dependency edges.
fn reachability(g: &Graph<String>) -> BTreeMap<VertexId, BTreeSet<VertexId>> {
    g.ids()
        .map(|s| {
            let mut seen = BTreeSet::new();
            let mut stack: Vec<VertexId> = g.dependencies(s).collect();
            while let Some(v) = stack.pop() {
                if seen.insert(v) {
                    stack.extend(g.dependencies(v));
                }
            }
            (s, seen)
        })
        .collect()
}

proptest! {
    #[test]
    fn transitive_reduction_keeps_reachability_and_is_minimal((names, edges) in dag_strategy()) {
        let (mut g, _) = build(&names, &edges);
        let before = reachability(&g);
        g.transitive_reduction();
        prop_assert_eq!(&reachability(&g), &before);
        for (f, t) in g.edges() {
            let mut h = g.clone();
            h.remove_edge(f, t);
            prop_assert!(!reachability(&h)[&f].contains(&t), "edge {:?} is redundant", (f, t));
        }
    }

    #[test]
    fn topological_orders_respect_every_edge((names, edges) in dag_strategy()) {
        let (g, _) = build(&names, &edges);
        let deps_first = g.reverse_topological_order().unwrap();
        let dependents_first = g.topological_order().unwrap();
        prop_assert_eq!(deps_first.len(), g.len());
        prop_assert_eq!(dependents_first.len(), g.len());
        let pos = |order: &[VertexId]| -> BTreeMap<VertexId, usize> {
            order.iter().enumerate().map(|(i, v)| (*v, i)).collect()
        };
        let (p1, p2) = (pos(&deps_first), pos(&dependents_first));
        for (f, t) in g.edges() {
            prop_assert!(p1[&t] < p1[&f]);
            prop_assert!(p2[&f] < p2[&t]);
        }
    }

    #[test]
    fn tarjan_agrees_with_mutual_reachability((names, edges) in digraph_strategy()) {
        let (g, _) = build(&names, &edges);
        let reach = reachability(&g);
        let sccs = g.strongly_connected();
        let mut covered = BTreeSet::new();
        for c in &sccs {
            for a in c {
                prop_assert!(covered.insert(*a), "vertex in two components");
                for b in c {
                    if a != b {
                        prop_assert!(reach[a].contains(b) && reach[b].contains(a));
                    }
                }
            }
        }
        prop_assert_eq!(covered.len(), g.len());
        // Maximality: two mutually reachable vertices share a component.
        let comp: BTreeMap<VertexId, usize> =
            sccs.iter().enumerate().flat_map(|(i, c)| c.iter().map(move |v| (*v, i))).collect();
        for a in g.ids() {
            for b in g.ids() {
                if a != b && reach[&a].contains(&b) && reach[&b].contains(&a) {
                    prop_assert_eq!(comp[&a], comp[&b]);
                }
            }
        }
        // Same partition as petgraph's Tarjan.
        let pg = to_petgraph(&g);
        let mut theirs: Vec<BTreeSet<VertexId>> = petgraph::algo::tarjan_scc(&pg)
            .into_iter()
            .map(|c| c.into_iter().map(|n| pg[n]).collect())
            .collect();
        let mut ours: Vec<BTreeSet<VertexId>> =
            sccs.into_iter().map(|c| c.into_iter().collect()).collect();
        theirs.sort();
        ours.sort();
        prop_assert_eq!(ours, theirs);
    }

    /// `cycles` skips Tarjan's name-ordered walk when Kahn's algorithm orders the whole graph:
    /// it must give exactly Tarjan's components of two or more vertices, in Tarjan's order, on
    /// graphs with and without cycles (self-loops too). `root` names only the vertices nothing
    /// depends on: the same answer as filtering every vertex in name order.
    #[test]
    fn cycles_and_root_equal_the_name_ordered_definitions((names, edges) in digraph_strategy()) {
        let (g, _) = build(&names, &edges);
        let by_tarjan: Vec<Vec<VertexId>> =
            g.strongly_connected().into_iter().filter(|c| c.len() > 1).collect();
        prop_assert_eq!(g.cycles(), by_tarjan);
        let roots: Vec<VertexId> = g
            .ids_by_name()
            .into_iter()
            .filter(|v| g.dependents(*v).next().is_none())
            .collect();
        let expected = match roots.as_slice() {
            [one] => Ok(*one),
            _ => Err(roots.len()),
        };
        prop_assert_eq!(g.root().map_err(|_| roots.len()), expected);
        if roots.len() > 1 {
            let named: Vec<String> = roots.iter().map(|v| g.name_of(*v)).collect();
            prop_assert_eq!(
                g.root().unwrap_err().to_string(),
                tfgraph::dag::DagError::MultipleRoots(named).to_string()
            );
        }
    }

    #[test]
    fn cycles_and_root_equal_the_name_ordered_definitions_on_dags((names, edges) in dag_strategy()) {
        let (g, _) = build(&names, &edges);
        prop_assert!(g.cycles().is_empty());
        prop_assert!(g.strongly_connected().iter().all(|c| c.len() == 1));
    }

    #[test]
    fn ancestors_and_descendants_are_reachability((names, edges) in dag_strategy()) {
        let (g, _) = build(&names, &edges);
        let reach = reachability(&g);
        for v in g.ids() {
            prop_assert_eq!(&g.ancestors(v), &reach[&v]);
            let below: BTreeSet<VertexId> = g.ids().filter(|u| reach[u].contains(&v)).collect();
            prop_assert_eq!(g.descendants(v), below);
        }
    }

    /// The crate's one walker (`walk::Walk`) on a DAG, one vertex at a time: every vertex runs
    /// after everything it depends on, and exactly the vertices downstream of a failure are
    /// upstream-failed.
    #[test]
    fn walk_runs_dependencies_first_and_skips_downstream_of_failures(
        (names, edges) in dag_strategy(),
        fail_mask in proptest::collection::vec(any::<bool>(), 12),
    ) {
        let (g, ids) = build(&names, &edges);
        let failing: BTreeSet<VertexId> =
            ids.iter().enumerate().filter(|(i, _)| fail_mask[*i]).map(|(_, v)| *v).collect();
        let mut scenario = Scenario::new(DurationModel::uniform(std::time::Duration::from_secs(1)));
        for v in &failing {
            scenario = scenario.fail(g.name_of(*v), "boom");
        }
        let r = simulate(&g, &WalkOptions::with_parallelism(1), scenario);
        let pos: BTreeMap<VertexId, usize> = r
            .started_order()
            .into_iter()
            .enumerate()
            .map(|(i, t)| (r.tasks[t.index()].vertex, i))
            .collect();
        let reach = reachability(&g);
        for v in g.ids() {
            let upstream_failed = reach[&v].iter().any(|d| failing.contains(d));
            prop_assert_eq!(pos.contains_key(&v), !upstream_failed);
            if upstream_failed {
                prop_assert_eq!(r.outcome(v), Some(&Transition::UpstreamFailed));
            } else {
                for d in g.dependencies(v) {
                    prop_assert!(pos[&d] < pos[&v]);
                }
            }
        }
    }
}
