//! Reference analysis against the conformance configurations and their provider schemas: the
//! schema-attached mode must find exactly what OpenTofu's graph builders connect.

mod support;

use tfgraph::addrs::{Provider, ResourceMode};
use tfgraph::config::{self, Config, refs};
use tfgraph::schema::{self, ProviderSchemas};

fn load_case(name: &str) -> (Config, ProviderSchemas) {
    let dir = support::conformance().join("graph").join(name);
    assert!(dir.is_dir(), "no conformance case {}", dir.display());
    let (cfg, _) = support::load_dir(&dir.join("config"));
    let path = dir.join("schemas.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let schemas =
        schema::parse_schemas_json(&text).unwrap_or_else(|d| panic!("{}: {d}", path.display()));
    (cfg, schemas)
}

/// The resource references of `addr` in the root module, read the way OpenTofu does when a
/// schema is attached: meta-arguments plus the body through the schema.
fn resource_refs(cfg: &Config, schemas: &ProviderSchemas, key: &str) -> Vec<String> {
    let r = cfg
        .module
        .managed_resources
        .get(key)
        .or_else(|| cfg.module.data_resources.get(key))
        .unwrap_or_else(|| panic!("no {key}"));
    let schema = schemas.resource(&r.provider, r.mode, &r.type_name);
    let parts = refs::resource_refs(r, schema, true);
    let mut v: Vec<String> = parts
        .meta
        .refs
        .iter()
        .chain(parts.body.refs.iter())
        .map(|r| r.subject.to_string())
        .collect();
    v.sort();
    v.dedup();
    v
}

#[test]
fn attr_as_blocks() {
    let (cfg, s) = load_case("plan-attr-as-blocks");
    assert_eq!(resource_refs(&cfg, &s, "test_thing.b"), ["test_thing.a"]);
}

#[test]
fn dynamic_blocks() {
    let (cfg, s) = load_case("plan-dynblock");
    assert_eq!(
        resource_refs(&cfg, &s, "test_thing.c"),
        ["test_thing.a", "test_thing.b"]
    );
}

#[test]
fn plan_basic_provider_and_resources() {
    let (cfg, s) = load_case("plan-basic");
    let p = &cfg.module.provider_configs["aws"];
    let ps = s.get(&p.provider).and_then(|x| x.provider.as_ref());
    let got: Vec<String> = refs::provider_block_refs(p, ps)
        .refs
        .iter()
        .map(|r| r.subject.to_string())
        .collect();
    assert_eq!(got, ["openstack_floating_ip.random"]);
    assert_eq!(
        resource_refs(&cfg, &s, "aws_instance.web"),
        ["aws_security_group.firewall", "var.foo"]
    );
    assert_eq!(
        resource_refs(&cfg, &s, "aws_load_balancer.weblb"),
        ["aws_instance.web"]
    );
}

#[test]
fn undeclared_arguments_are_ignored_with_a_schema() {
    // No corpus case has a resource with arguments its schema lacks, so this one is written
    // here and read against plan-basic's schemas (aws_instance declares only test_* arguments).
    let (_, s) = load_case("plan-basic");
    let mut files = std::collections::BTreeMap::new();
    files.insert(
        "main.tf".to_string(),
        r#"
resource "aws_instance" "x" {
  undeclared = var.nope
  nested {
    inner = aws_security_group.firewall.id
  }
}
"#
        .to_string(),
    );
    let (cfg, d) = config::load_files(&files);
    assert!(d.is_empty(), "{d:?}");
    let cfg = cfg.expect("config");
    let r = &cfg.module.managed_resources["aws_instance.x"];
    let schema = s.resource(&r.provider, r.mode, &r.type_name);
    assert!(schema.is_some(), "plan-basic has no aws_instance schema");
    let parts = refs::resource_refs(r, schema, true);
    assert!(parts.body.refs.is_empty(), "{:?}", parts.body.refs);
    // The arguments are there: read without a schema, as the user wrote them, they refer.
    let user: Vec<String> = refs::resource_refs(r, None, false)
        .body
        .refs
        .iter()
        .map(|r| r.subject.to_string())
        .collect();
    assert_eq!(user, ["var.nope", "aws_security_group.firewall"]);
}

#[test]
fn provider_function_in_import_block() {
    let (cfg, _) = load_case("transforms-provider-function-import-block");
    let i = &cfg.module.imports[0];
    let r = refs::import_refs(i);
    assert_eq!(r.funcs.len(), 1);
    assert_eq!(r.funcs[0].to_string(), "provider::aws::arn_build");
    assert_eq!(
        cfg.module.provider_for_local_name("aws"),
        Provider::default_for("aws")
    );
    assert_eq!(i.provider, Provider::default_for("aws"));
}

#[test]
fn schema_nil_reads_only_meta_arguments() {
    let mut files = std::collections::BTreeMap::new();
    files.insert(
        "main.tf".to_string(),
        r#"
resource "test_object" "a" {
  count      = var.n
  test_string = var.ignored
  depends_on = [test_object.b]
  lifecycle {
    replace_triggered_by = [test_object.c.id]
    postcondition {
      condition     = self.id != local.x
      error_message = "e"
    }
  }
  connection { host = var.host }
  provisioner "test" { x = var.prov }
}
"#
        .to_string(),
    );
    let (cfg, d) = config::load_files(&files);
    assert!(d.is_empty(), "{d:?}");
    let cfg = cfg.unwrap();
    let r = &cfg.module.managed_resources["test_object.a"];
    assert_eq!(r.mode, ResourceMode::Managed);
    let parts = refs::resource_refs(r, None, true);
    let meta: Vec<String> = parts
        .meta
        .refs
        .iter()
        .map(|r| r.subject.to_string())
        .collect();
    assert_eq!(
        meta,
        [
            "test_object.b",
            "var.n",
            "test_object.c",
            "self",
            "local.x",
            "var.host"
        ]
    );
    assert!(parts.body.refs.is_empty());
    assert!(parts.provisioners.refs.is_empty());
    let user = refs::resource_refs(r, None, false);
    assert_eq!(user.body.refs[0].subject.to_string(), "var.ignored");
    assert_eq!(user.provisioners.refs[0].subject.to_string(), "var.prov");
}
