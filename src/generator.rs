//! A generator of Terraform-like configurations for benchmarks and tests: providers (one with an
//! alias), variables, locals, data sources, resources that refer to a few earlier ones (mostly
//! recent ones, as real configurations do), `count` and `for_each`, `depends_on`, and local
//! modules under `modules/` with inputs and outputs that the root module wires together.
//!
//! Deterministic: the same [`GenOptions`] give the same files on every platform (wasm included;
//! the random source is [`crate::rng::SplitMix`]). Every reference points at something declared
//! earlier in the same module, so the configuration loads and builds without errors or cycles.

use crate::rng::SplitMix;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// What to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GenOptions {
    /// Managed `resource` blocks in total, root and modules together.
    pub resources: usize,
    /// Local modules (`modules/m_K/`), each called once from the root module.
    pub modules: usize,
    pub seed: u64,
}

impl Default for GenOptions {
    fn default() -> Self {
        GenOptions {
            resources: 100,
            modules: 0,
            seed: 1,
        }
    }
}

const AWS_TYPES: [&str; 10] = [
    "aws_vpc",
    "aws_subnet",
    "aws_security_group",
    "aws_instance",
    "aws_s3_bucket",
    "aws_iam_role",
    "aws_lambda_function",
    "aws_route_table",
    "aws_db_instance",
    "aws_lb",
];
const RANDOM_TYPES: [&str; 2] = ["random_id", "random_pet"];
const DATA_TYPES: [&str; 3] = ["aws_ami", "aws_caller_identity", "aws_availability_zones"];

/// How a resource or module call expands; decides how it is referred to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Expansion {
    Single,
    Count,
    ForEach,
}

/// Something declared earlier that later blocks may refer to.
struct Declared {
    /// `aws_vpc.r_3` or `module.m_1`.
    addr: String,
    expansion: Expansion,
}

impl Declared {
    /// An expression reading `attr` of one instance.
    fn reference(&self, attr: &str, rng: &mut SplitMix) -> String {
        match self.expansion {
            Expansion::Single => format!("{}.{attr}", self.addr),
            Expansion::Count => {
                if rng.below(4) == 0 {
                    format!("{}[*].{attr}", self.addr)
                } else {
                    format!("{}[{}].{attr}", self.addr, rng.below(2))
                }
            }
            Expansion::ForEach => {
                format!("{}[\"{}\"].{attr}", self.addr, ["a", "b"][rng.below(2)])
            }
        }
    }
}

/// One module's (root or child) generation state.
struct Scope {
    text: String,
    /// Resources declared so far, in order.
    resources: Vec<Declared>,
    /// Expressions of values every resource may use: variables, locals, data sources, module
    /// outputs declared so far.
    values: Vec<String>,
    next_resource: usize,
}

impl Scope {
    fn new() -> Self {
        Scope {
            text: String::new(),
            resources: Vec::new(),
            values: Vec::new(),
            next_resource: 0,
        }
    }

    /// Picks an earlier resource: mostly among the last 16, sometimes anywhere.
    fn pick_resource(&self, rng: &mut SplitMix) -> Option<&Declared> {
        let n = self.resources.len();
        if n == 0 {
            return None;
        }
        let i = if rng.below(5) < 4 {
            n - 1 - rng.below(n.min(16))
        } else {
            rng.below(n)
        };
        self.resources.get(i)
    }

    fn pick_value(&self, rng: &mut SplitMix) -> Option<&str> {
        if self.values.is_empty() {
            None
        } else {
            Some(&self.values[rng.below(self.values.len())])
        }
    }

    /// Writes one resource block that refers to 1–3 earlier resources or values.
    fn resource(&mut self, rng: &mut SplitMix, aliased_provider: bool) {
        let i = self.next_resource;
        self.next_resource += 1;
        let ty = if rng.below(10) == 0 {
            RANDOM_TYPES[rng.below(RANDOM_TYPES.len())]
        } else {
            AWS_TYPES[rng.below(AWS_TYPES.len())]
        };
        let name = format!("r_{i}");
        let expansion = match rng.below(20) {
            0 | 1 => Expansion::Count,
            2 => Expansion::ForEach,
            _ => Expansion::Single,
        };
        let t = &mut String::new();
        let _ = writeln!(t, "resource \"{ty}\" \"{name}\" {{");
        match expansion {
            Expansion::Count => {
                let _ = writeln!(t, "  count = 2");
                let _ = writeln!(t, "  name  = \"{name}-${{count.index}}\"");
            }
            Expansion::ForEach => {
                let _ = writeln!(t, "  for_each = toset([\"a\", \"b\"])");
                let _ = writeln!(t, "  name     = \"{name}-${{each.key}}\"");
            }
            Expansion::Single => {
                let _ = writeln!(t, "  name = \"{name}\"");
            }
        }
        if aliased_provider && ty.starts_with("aws_") && rng.below(12) == 0 {
            let _ = writeln!(t, "  provider = aws.replica");
        }
        let refs = 1 + rng.below(3);
        for k in 0..refs {
            let expr = if rng.below(5) == 0 {
                self.pick_value(rng).map(str::to_string)
            } else {
                self.pick_resource(rng).map(|d| {
                    let attr = ["id", "arn", "name"][rng.below(3)];
                    let mut r = SplitMix::new(rng.next_u64());
                    d.reference(attr, &mut r)
                })
            };
            if let Some(e) = expr {
                let _ = writeln!(t, "  ref_{k} = {e}");
            }
        }
        if rng.below(30) == 0
            && let Some(d) = self.pick_resource(rng)
        {
            let _ = writeln!(t, "  depends_on = [{}]", d.addr);
        }
        if rng.below(4) == 0
            && let Some(v) = self.pick_value(rng)
        {
            let _ = writeln!(
                t,
                "  tags = {{\n    Name = \"{name}\"\n    Env  = {v}\n  }}"
            );
        }
        let _ = writeln!(t, "}}\n");
        self.text.push_str(t);
        self.resources.push(Declared {
            addr: format!("{ty}.{name}"),
            expansion,
        });
    }

    /// Variables `prefix_K` (K < n) with defaults, each usable as a value.
    fn variables(&mut self, prefix: &str, n: usize, defaults: bool) {
        for k in 0..n {
            if defaults {
                let _ = writeln!(
                    self.text,
                    "variable \"{prefix}_{k}\" {{\n  type    = string\n  default = \"value-{k}\"\n}}\n"
                );
            } else {
                let _ = writeln!(
                    self.text,
                    "variable \"{prefix}_{k}\" {{\n  type = string\n}}\n"
                );
            }
            self.values.push(format!("var.{prefix}_{k}"));
        }
    }

    /// One `locals` block of `n` values built from variables and earlier locals.
    fn locals(&mut self, rng: &mut SplitMix, n: usize) {
        if n == 0 {
            return;
        }
        self.text.push_str("locals {\n");
        let mut added = Vec::new();
        for k in 0..n {
            let a = self.pick_value(rng).unwrap_or("\"x\"").to_string();
            let _ = writeln!(self.text, "  l_{k} = \"${{{a}}}-{k}\"");
            added.push(format!("local.l_{k}"));
            self.values.push(format!("local.l_{k}"));
        }
        self.text.push_str("}\n\n");
    }

    /// `n` data sources reading variables.
    fn data_sources(&mut self, rng: &mut SplitMix, n: usize) {
        for k in 0..n {
            let ty = DATA_TYPES[k % DATA_TYPES.len()];
            let v = self.pick_value(rng).unwrap_or("\"x\"").to_string();
            let _ = writeln!(
                self.text,
                "data \"{ty}\" \"d_{k}\" {{\n  filter = {v}\n}}\n"
            );
            self.values.push(format!("data.{ty}.d_{k}.id"));
        }
    }
}

/// Generates the configuration: relative path -> file text (`main.tf`, `modules/m_0/main.tf`, ...).
pub fn generate(opts: &GenOptions) -> BTreeMap<String, String> {
    let mut rng = SplitMix::new(opts.seed ^ 0x7466_6772_6170_6800);
    let mut files = BTreeMap::new();
    let n = opts.resources;
    let m = opts.modules;
    let per_module = if m == 0 { 0 } else { n / (m + 1) };
    let in_root = n - per_module * m;

    // Child modules first: their outputs are what the root may refer to.
    let mut module_outputs = Vec::with_capacity(m);
    for k in 0..m {
        let mut s = Scope::new();
        s.text
            .push_str("terraform {\n  required_providers {\n    aws = {\n      source = \"hashicorp/aws\"\n    }\n    random = {\n      source = \"hashicorp/random\"\n    }\n  }\n}\n\n");
        s.variables("in", 2, false);
        s.locals(&mut rng, 1 + per_module / 40);
        s.data_sources(&mut rng, usize::from(per_module >= 10));
        for _ in 0..per_module {
            s.resource(&mut rng, false);
        }
        let outputs = 2 + rng.below(3);
        for o in 0..outputs {
            let value = match s.pick_resource(&mut rng) {
                Some(d) => {
                    let mut r = SplitMix::new(rng.next_u64());
                    d.reference("id", &mut r)
                }
                None => "var.in_0".to_string(),
            };
            let _ = writeln!(s.text, "output \"out_{o}\" {{\n  value = {value}\n}}\n");
        }
        module_outputs.push(outputs);
        files.insert(format!("modules/m_{k}/main.tf"), s.text);
    }

    let mut s = Scope::new();
    s.text.push_str(
        "terraform {\n  required_providers {\n    aws = {\n      source = \"hashicorp/aws\"\n    }\n    random = {\n      source = \"hashicorp/random\"\n    }\n  }\n}\n\n",
    );
    s.text.push_str(
        "provider \"aws\" {\n  region = var.region\n}\n\nprovider \"aws\" {\n  alias  = \"replica\"\n  region = \"eu-west-1\"\n}\n\n",
    );
    s.text
        .push_str("variable \"region\" {\n  type    = string\n  default = \"us-east-1\"\n}\n\n");
    s.values.push("var.region".to_string());
    s.variables("v", 2 + n / 50, true);
    s.locals(&mut rng, 2 + n / 25);
    s.data_sources(&mut rng, 1 + n / 40);

    // Module calls spread evenly among the root's resources.
    let mut calls_at: Vec<usize> = (0..m).map(|k| (k * in_root) / m.max(1)).collect();
    calls_at.reverse();
    for i in 0..=in_root {
        while calls_at.last() == Some(&i) {
            calls_at.pop();
            let k = m - 1 - calls_at.len();
            let expansion = match k % 5 {
                3 => Expansion::Count,
                _ => Expansion::Single,
            };
            let t = &mut String::new();
            let _ = writeln!(t, "module \"m_{k}\" {{\n  source = \"./modules/m_{k}\"");
            if expansion == Expansion::Count {
                let _ = writeln!(t, "  count  = 2");
            }
            for input in 0..2 {
                let e = match s.pick_resource(&mut rng) {
                    Some(d) if rng.below(3) > 0 => {
                        let mut r = SplitMix::new(rng.next_u64());
                        d.reference("id", &mut r)
                    }
                    _ => s.pick_value(&mut rng).unwrap_or("\"x\"").to_string(),
                };
                let _ = writeln!(t, "  in_{input} = {e}");
            }
            let _ = writeln!(t, "}}\n");
            s.text.push_str(t);
            let call = Declared {
                addr: format!("module.m_{k}"),
                expansion,
            };
            for o in 0..module_outputs[k] {
                let mut r = SplitMix::new(rng.next_u64());
                s.values.push(call.reference(&format!("out_{o}"), &mut r));
            }
        }
        if i < in_root {
            s.resource(&mut rng, true);
        }
    }
    for o in 0..(1 + n / 100).min(20) {
        if let Some(d) = s.pick_resource(&mut rng) {
            let mut r = SplitMix::new(rng.next_u64());
            let value = d.reference("id", &mut r);
            let _ = writeln!(s.text, "output \"o_{o}\" {{\n  value = {value}\n}}\n");
        }
    }
    files.insert("main.tf".to_string(), s.text);
    files
}

/// Writes generated files under `dir` (creating folders as needed).
#[cfg(not(target_arch = "wasm32"))]
pub fn write_dir(files: &BTreeMap<String, String>, dir: &std::path::Path) -> std::io::Result<()> {
    for (rel, text) in files {
        let p = dir.join(rel);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&p, text)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::BuilderKind;
    use crate::pipeline::{Request, run};

    fn count_resources(files: &BTreeMap<String, String>) -> usize {
        files
            .values()
            .map(|t| t.lines().filter(|l| l.starts_with("resource \"")).count())
            .sum()
    }

    #[test]
    fn deterministic_and_exact_resource_count() {
        for (n, m) in [(0, 0), (1, 0), (3, 5), (50, 0), (120, 4)] {
            let o = GenOptions {
                resources: n,
                modules: m,
                seed: 7,
            };
            let a = generate(&o);
            assert_eq!(a, generate(&o));
            assert_eq!(count_resources(&a), n, "{n} resources, {m} modules");
            assert_eq!(a.len(), m + 1);
        }
        let a = generate(&GenOptions {
            resources: 40,
            modules: 1,
            seed: 1,
        });
        let b = generate(&GenOptions {
            resources: 40,
            modules: 1,
            seed: 2,
        });
        assert_ne!(a, b);
    }

    #[test]
    fn builds_without_errors() {
        for seed in 0..4 {
            for (n, m) in [(0, 0), (5, 2), (200, 0), (300, 6)] {
                let files = generate(&GenOptions {
                    resources: n,
                    modules: m,
                    seed,
                });
                let out = run(&Request::new(files.clone(), BuilderKind::Plan))
                    .unwrap_or_else(|e| panic!("{n}/{m}/{seed}: {e:?}\n{}", files["main.tf"]));
                assert!(out.built.graph.dag().len() > n, "{n}/{m}/{seed}");
            }
        }
    }
}
