//! How long each vertex takes in the simulation.
//!
//! The default table works from the vertex's kind ([`crate::kind`], as the walked graph's vertex
//! tells it). Figures are rough orders of magnitude for a cloud apply, meant to make charts look
//! like real runs, not to predict one:
//!
//! | vertex | example | default |
//! |---|---|---|
//! | expand / close bookkeeping | `aws_instance.web (expand)`, `module.vpc (close)`, `provider["…"] (close)` | 0 s |
//! | values, checks, anything else | `var.region`, `local.tags`, `output.id`, `root`, `meta.…` | 0 s |
//! | provider configuration (also in a module, and a proxy) | `provider["registry.opentofu.org/hashicorp/aws"]` | 1 s |
//! | data source | `data.aws_ami.ubuntu` | 2 s |
//! | resource (default; also its destroy, orphan, deposed and forget vertices) | `aws_security_group.web`, `aws_instance.web[0]` | 10 s |
//! | slow resource types | see [`SLOW_RESOURCE_TYPES`] | minutes |
//!
//! On top of the table come per-vertex overrides (by name) and a seeded jitter: each vertex's
//! duration is scaled by a factor drawn uniformly from `[1 - jitter, 1 + jitter]` by a PCG
//! generator seeded from the model's seed and the vertex name, so a vertex gets the same duration
//! whatever order the walk reaches it in, and the same seed always gives the same run.

use crate::inside::steps::StepKind;
use crate::kind::{Mode, ProviderRole, ResourceRole, VertexKind};
use rand_core::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::collections::BTreeMap;
use std::time::Duration;

/// Resource types that take minutes to create, in seconds.
pub const SLOW_RESOURCE_TYPES: &[(&str, u64)] = &[
    // AWS
    ("aws_db_instance", 600),
    ("aws_rds_cluster", 600),
    ("aws_rds_cluster_instance", 480),
    ("aws_docdb_cluster", 600),
    ("aws_neptune_cluster", 600),
    ("aws_redshift_cluster", 600),
    ("aws_elasticache_cluster", 480),
    ("aws_elasticache_replication_group", 600),
    ("aws_eks_cluster", 720),
    ("aws_eks_node_group", 300),
    ("aws_msk_cluster", 1500),
    ("aws_opensearch_domain", 900),
    ("aws_elasticsearch_domain", 900),
    ("aws_cloudfront_distribution", 300),
    ("aws_nat_gateway", 120),
    ("aws_directory_service_directory", 1200),
    // Azure
    ("azurerm_kubernetes_cluster", 480),
    ("azurerm_kubernetes_cluster_node_pool", 300),
    ("azurerm_postgresql_flexible_server", 360),
    ("azurerm_mysql_flexible_server", 360),
    ("azurerm_mssql_database", 180),
    ("azurerm_redis_cache", 900),
    ("azurerm_virtual_network_gateway", 1800),
    ("azurerm_application_gateway", 600),
    // Google Cloud
    ("google_container_cluster", 420),
    ("google_container_node_pool", 240),
    ("google_sql_database_instance", 600),
    ("google_redis_instance", 300),
    ("google_alloydb_cluster", 600),
];

/// The table's duration for a vertex of kind `k`, before overrides and jitter (see the module
/// docs).
pub fn table_duration(k: &VertexKind) -> Duration {
    match k {
        VertexKind::Resource {
            role: ResourceRole::Expand | ResourceRole::Close,
            ..
        } => Duration::ZERO,
        VertexKind::Resource {
            mode: Mode::Data, ..
        } => Duration::from_secs(2),
        VertexKind::Resource { type_name, .. } => SLOW_RESOURCE_TYPES
            .iter()
            .find(|(t, _)| t == type_name)
            .map_or(Duration::from_secs(10), |(_, s)| Duration::from_secs(*s)),
        VertexKind::Provider(ProviderRole::Config | ProviderRole::Proxy) => Duration::from_secs(1),
        _ => Duration::ZERO,
    }
}

/// Vertex durations: the default table, overrides by vertex name, and seeded jitter.
#[derive(Debug, Clone, PartialEq)]
pub struct DurationModel {
    /// Exact durations by vertex name; these get no jitter.
    pub overrides: BTreeMap<String, Duration>,
    /// Relative jitter in `[0, 1]`: 0.1 scales each table duration by a factor in `[0.9, 1.1]`.
    pub jitter: f64,
    pub seed: u64,
    /// Duration for every vertex that has no override, replacing the table (for uniform charts
    /// and tests).
    pub uniform: Option<Duration>,
    /// Durations by resource type (managed or data), replacing the table's for vertices of that
    /// type; jitter applies.
    pub by_type: BTreeMap<String, Duration>,
    /// Durations of every step of a kind, replacing its share of its vertex's duration
    /// ([`super::steps::plan`]).
    pub step_kinds: BTreeMap<StepKind, Duration>,
    /// Durations of one step (by id) of one vertex, by (vertex name, step id); one given for an
    /// expanding vertex applies to each of its instances.
    pub steps: BTreeMap<(String, String), Duration>,
}

impl Default for DurationModel {
    /// The table, 10 % jitter, seed 0.
    fn default() -> Self {
        DurationModel {
            overrides: BTreeMap::new(),
            jitter: 0.1,
            seed: 0,
            uniform: None,
            by_type: BTreeMap::new(),
            step_kinds: BTreeMap::new(),
            steps: BTreeMap::new(),
        }
    }
}

/// FNV-1a (64-bit) over the name: std's `DefaultHasher` may change between Rust releases, and the
/// duration a seed gives must not. The `fnv` crate's `FnvHasher` computes the same numbers; for a
/// three-line function it would be a dependency in the wasm bundle and nothing else.
fn stable_hash(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

impl DurationModel {
    /// No jitter, no overrides: exactly the table.
    pub fn table() -> Self {
        DurationModel {
            jitter: 0.0,
            ..Self::default()
        }
    }

    /// Every vertex takes `d` (overrides still apply), no jitter.
    pub fn uniform(d: Duration) -> Self {
        DurationModel {
            jitter: 0.0,
            uniform: Some(d),
            ..Self::default()
        }
    }

    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    pub fn with_jitter(mut self, jitter: f64) -> Self {
        self.jitter = jitter;
        self
    }

    pub fn with_override(mut self, name: impl Into<String>, d: Duration) -> Self {
        self.overrides.insert(name.into(), d);
        self
    }

    /// The duration the user gave step `step` (by kind or for this vertex; `parent` is the
    /// vertex an instance expanded from), if any.
    pub fn step_duration(
        &self,
        name: &str,
        parent: Option<&str>,
        step: &str,
        kind: StepKind,
    ) -> Option<Duration> {
        let given = |n: &str| self.steps.get(&(n.to_string(), step.to_string())).copied();
        given(name)
            .or_else(|| parent.and_then(given))
            .or_else(|| self.step_kinds.get(&kind).copied())
    }

    /// The simulated duration of the vertex `name` of kind `kind`.
    pub fn duration_of(&self, name: &str, kind: &VertexKind) -> Duration {
        if let Some(d) = self.overrides.get(name) {
            return *d;
        }
        let by_type = || match kind {
            VertexKind::Resource {
                type_name, role, ..
            } if !matches!(role, ResourceRole::Expand | ResourceRole::Close) => {
                self.by_type.get(type_name).copied()
            }
            _ => None,
        };
        let base = self
            .uniform
            .or_else(by_type)
            .unwrap_or_else(|| table_duration(kind));
        let j = if self.jitter.is_finite() {
            self.jitter.clamp(0.0, 1.0)
        } else {
            0.0
        };
        if j == 0.0 || base.is_zero() {
            return base;
        }
        let mut rng = Pcg64Mcg::seed_from_u64(self.seed ^ stable_hash(name));
        // 53 random bits -> a uniform float in [0, 1).
        let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let factor = 1.0 - j + 2.0 * j * u;
        // Whole milliseconds keep logs readable.
        let ms = (base.as_secs_f64() * 1000.0 * factor).round();
        Duration::from_millis(ms.max(0.0) as u64)
    }
}

impl DurationModel {
    /// Adds the durations of a durations file (see [`parse_durations`]).
    pub fn with_file(mut self, text: &str) -> Result<Self, String> {
        for (key, d) in parse_durations(text)? {
            if let Some(kind) = key.strip_prefix('@') {
                let k = StepKind::parse(kind).ok_or_else(|| {
                    format!(
                        "{key:?}: not a step kind (one of {})",
                        StepKind::ALL.map(|k| format!("@{}", k.as_str())).join(", ")
                    )
                })?;
                self.step_kinds.insert(k, d);
            } else if let (vertex, Some(step)) = super::steps::parse_failure(&key) {
                self.steps.insert((vertex.to_string(), step.to_string()), d);
            } else if is_type_key(&key) {
                self.by_type.insert(key, d);
            } else {
                self.overrides.insert(key, d);
            }
        }
        Ok(self)
    }
}

/// A key of a durations file names a resource type when it is a bare word (`aws_instance`),
/// otherwise a vertex (`aws_instance.web[0]`, `provider["…"]`, `module.m (expand)`).
fn is_type_key(key: &str) -> bool {
    !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// Reads a durations file: seconds by vertex name or resource type. Two forms:
///
/// - JSON, an object: `{"aws_instance": 30, "aws_instance.web[0]": 12.5}`;
/// - text, one entry a line, the key then the seconds after the last space:
///   `aws_instance 30`, `provider["registry.opentofu.org/hashicorp/aws"] 2`; blank lines and
///   lines starting with `#` are skipped.
///
/// A bare word (letters, digits, `_`, `-`) is a resource type, applying to every managed or data
/// resource vertex of that type (table jitter still applies); `@KIND` (`@provider`, `@evaluate`,
/// `@state`, `@check`, `@bookkeeping`) sets every step of that kind; `ADDR@STEP`
/// (`aws_instance.web[0]@plan-change`) one step of one vertex (see [`super::steps`]); anything
/// else is an exact vertex name (no jitter). Seconds must be finite, at least 0 and below 10^9.
pub fn parse_durations(text: &str) -> Result<Vec<(String, Duration)>, String> {
    let secs = |key: &str, x: f64| -> Result<(String, Duration), String> {
        if !(x.is_finite() && (0.0..1e9).contains(&x)) {
            return Err(format!(
                "{key:?}: {x} is not a number of seconds from 0 to 10^9"
            ));
        }
        Ok((key.to_string(), Duration::from_secs_f64(x)))
    };
    let trimmed = text.trim_start_matches('\u{feff}').trim();
    if trimmed.starts_with('{') {
        let v: serde_json::Value =
            serde_json::from_str(trimmed).map_err(|e| format!("invalid JSON: {e}"))?;
        let obj = v
            .as_object()
            .ok_or("the JSON must be an object of seconds by name")?;
        return obj
            .iter()
            .map(|(k, v)| {
                let x = v
                    .as_f64()
                    .ok_or_else(|| format!("{k:?}: {v} is not a number of seconds"))?;
                secs(k, x)
            })
            .collect();
    }
    let mut out = Vec::new();
    for (i, line) in trimmed.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((key, value)) = line.rsplit_once(char::is_whitespace) else {
            return Err(format!(
                "line {}: expected a name and seconds, got {line:?}",
                i + 1
            ));
        };
        let x: f64 = value
            .parse()
            .map_err(|_| format!("line {}: {value:?} is not a number of seconds", i + 1))?;
        out.push(secs(key.trim(), x)?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    /// Durations of vertices known by name alone, kinds as a DOT file's are read.
    trait ByName {
        fn by_name(&self, name: &str) -> Duration;
    }

    impl ByName for DurationModel {
        fn by_name(&self, name: &str) -> Duration {
            self.duration_of(name, &crate::dag::import::typed_from_name(name).kind)
        }
    }

    #[test]
    fn durations_file_in_both_forms() {
        let m = DurationModel::table()
            .with_file(
                "# comment\naws_instance 30\naws_instance.web[0] 12.5\nprovider[\"p\"] (close) 3\n",
            )
            .unwrap();
        assert_eq!(m.by_name("aws_instance.x"), Duration::from_secs(30));
        assert_eq!(m.by_name("data.aws_instance.x"), Duration::from_secs(30));
        assert_eq!(
            m.by_name("aws_instance.web[0]"),
            Duration::from_millis(12500)
        );
        assert_eq!(m.by_name("provider[\"p\"] (close)"), Duration::from_secs(3));
        let j = DurationModel::table()
            .with_file("{\"aws_vpc\": 2, \"var.x\": 1}")
            .unwrap();
        assert_eq!(j.by_name("module.a.aws_vpc.v"), Duration::from_secs(2));
        assert_eq!(j.by_name("var.x"), Duration::from_secs(1));
        assert!(DurationModel::table().with_file("x -1").is_err());
        assert!(DurationModel::table().with_file("x").is_err());
        assert!(DurationModel::table().with_file("{\"x\": \"a\"}").is_err());
    }

    use super::*;

    #[test]
    fn table_by_name() {
        let s = |n: &str| table_duration(&crate::dag::import::typed_from_name(n).kind).as_secs();
        assert_eq!(s("provider[\"registry.opentofu.org/hashicorp/aws\"]"), 1);
        assert_eq!(
            s("provider[\"registry.opentofu.org/hashicorp/aws\"] (close)"),
            0
        );
        assert_eq!(s("data.aws_ami.ubuntu"), 2);
        assert_eq!(s("module.db.aws_db_instance.this[0]"), 600);
        assert_eq!(s("module.a[\"x.y\"].module.b.aws_eks_cluster.c"), 720);
        assert_eq!(s("azurerm_kubernetes_cluster.k"), 480);
        assert_eq!(s("google_container_cluster.g (destroy)"), 420);
        assert_eq!(s("aws_instance.web"), 10);
        assert_eq!(s("aws_instance.web (expand)"), 0);
        assert_eq!(s("var.region"), 0);
        assert_eq!(s("module.vpc.local.tags"), 0);
        assert_eq!(s("output.id"), 0);
        assert_eq!(s("module.vpc (close)"), 0);
        assert_eq!(s("root"), 0);
        assert_eq!(s("meta.count-boundary (EachMode fixup)"), 0);
    }

    #[test]
    fn jitter_is_seeded_bounded_and_per_name() {
        let m = DurationModel::default().with_seed(7).with_jitter(0.5);
        let a = m.by_name("aws_instance.a");
        assert_eq!(a, m.by_name("aws_instance.a"));
        assert!(a >= Duration::from_secs(5) && a <= Duration::from_secs(15));
        let many: std::collections::BTreeSet<Duration> = (0..20)
            .map(|i| m.by_name(&format!("aws_instance.x{i}")))
            .collect();
        assert!(many.len() > 10, "jitter should vary: {many:?}");
        let other = DurationModel::default().with_seed(8).with_jitter(0.5);
        assert_ne!(
            (0..5)
                .map(|i| m.by_name(&format!("r.x{i}")))
                .collect::<Vec<_>>(),
            (0..5)
                .map(|i| other.by_name(&format!("r.x{i}")))
                .collect::<Vec<_>>()
        );
    }

    #[test]
    fn overrides_win_and_skip_jitter() {
        let m = DurationModel::default().with_override("var.x", Duration::from_secs(3));
        assert_eq!(m.by_name("var.x"), Duration::from_secs(3));
        assert_eq!(
            DurationModel::uniform(Duration::from_secs(4)).by_name("data.a.b"),
            Duration::from_secs(4)
        );
    }
}
