//! The simulated walk on a large graph: 10,000 vertices, each depending on about two earlier
//! ones, walked at parallelism 10 with the instant driver (virtual clock, no real waiting), so
//! the figure is the walker's own overhead: task spawning, dependency wake-ups, the semaphore
//! and the timer queue.

use criterion::{Criterion, criterion_group, criterion_main};
use rand_core::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::hint::black_box;
use tfgraph::dag::Graph;
use tfgraph::walk::{DurationModel, Scenario, WalkOptions, simulate};

/// `n` vertices named like resources; vertex `i` depends on two vertices drawn from the ones
/// before it (the same pick twice gives one edge), so the graph is acyclic.
fn generated(n: usize, seed: u64) -> Graph<String> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut g = Graph::new();
    let ids: Vec<_> = (0..n)
        .map(|i| g.add(format!("aws_instance.r{i}")))
        .collect();
    for i in 1..n {
        for _ in 0..2 {
            let j = (rng.next_u64() % i as u64) as usize;
            g.connect(ids[i], ids[j]);
        }
    }
    g
}

fn bench(c: &mut Criterion) {
    let g = generated(10_000, 1);
    let model = DurationModel::default().with_seed(0);
    let opts = WalkOptions::with_parallelism(10);
    let r = simulate(&g, &opts, Scenario::new(model.clone()));
    assert!(r.is_complete());
    eprintln!(
        "10,000 vertices, {} edges: simulated makespan {:.0}s",
        g.edge_count(),
        r.makespan().as_secs_f64()
    );
    let mut group = c.benchmark_group("walk");
    group.sample_size(10);
    group.bench_function("10k_vertices_2_deps_parallelism_10", |b| {
        b.iter(|| simulate(black_box(&g), &opts, Scenario::new(model.clone())))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
