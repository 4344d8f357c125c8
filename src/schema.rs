//! Provider schemas, read from the JSON that `tofu providers schema -json` prints
//! (format described in the conformance README), keyed by provider FQN.
#![allow(clippy::result_large_err)] // diagnostics are returned unboxed: rare, and not on hot paths

use crate::addrs::Provider;
use crate::diag::Diagnostic;
use serde_json::Value;
use std::collections::BTreeMap;

/// A cty type as the schema JSON writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CtyType {
    String,
    Number,
    Bool,
    Dynamic,
    List(Box<CtyType>),
    Set(Box<CtyType>),
    Map(Box<CtyType>),
    Object(BTreeMap<String, CtyType>),
    Tuple(Vec<CtyType>),
}

impl CtyType {
    /// Parses the JSON form: `"string"`, `["list", T]`, `["object", {..}]`, ...
    pub fn from_json(v: &Value) -> Result<CtyType, String> {
        match v {
            Value::String(s) => match s.as_str() {
                "string" => Ok(CtyType::String),
                "number" => Ok(CtyType::Number),
                "bool" => Ok(CtyType::Bool),
                "dynamic" => Ok(CtyType::Dynamic),
                other => Err(format!("unknown primitive type {other:?}")),
            },
            Value::Array(a) if a.len() == 2 => {
                let kind = a[0].as_str().ok_or("type kind must be a string")?;
                match kind {
                    "list" => Ok(CtyType::List(Box::new(CtyType::from_json(&a[1])?))),
                    "set" => Ok(CtyType::Set(Box::new(CtyType::from_json(&a[1])?))),
                    "map" => Ok(CtyType::Map(Box::new(CtyType::from_json(&a[1])?))),
                    "object" => {
                        let obj = a[1].as_object().ok_or("object type needs attributes")?;
                        let mut m = BTreeMap::new();
                        for (k, t) in obj {
                            m.insert(k.clone(), CtyType::from_json(t)?);
                        }
                        Ok(CtyType::Object(m))
                    }
                    "tuple" => {
                        let els = a[1].as_array().ok_or("tuple type needs elements")?;
                        Ok(CtyType::Tuple(
                            els.iter()
                                .map(CtyType::from_json)
                                .collect::<Result<_, _>>()?,
                        ))
                    }
                    other => Err(format!("unknown type kind {other:?}")),
                }
            }
            // ["object", {...}, ["optional_attr"]] form with optional attributes.
            Value::Array(a) if a.len() == 3 && a[0] == "object" => {
                CtyType::from_json(&Value::Array(vec![a[0].clone(), a[1].clone()]))
            }
            other => Err(format!("invalid type {other}")),
        }
    }

    /// True for a list or set whose element type is an object: the attribute types that
    /// OpenTofu's blocktoattr fixup lets users write as nested blocks.
    pub fn is_list_or_set_of_objects(&self) -> bool {
        match self {
            CtyType::List(e) | CtyType::Set(e) => matches!(**e, CtyType::Object(_)),
            _ => false,
        }
    }
}

/// How a nested block type nests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NestingMode {
    Single,
    Group,
    List,
    Set,
    Map,
}

/// One attribute of a block schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attribute {
    pub ty: CtyType,
    pub optional: bool,
    pub required: bool,
    pub computed: bool,
    pub sensitive: bool,
}

/// A nested block type of a block schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NestedBlock {
    pub nesting: NestingMode,
    pub block: Block,
    pub min_items: u64,
    pub max_items: u64,
}

/// A block schema (Go `configschema.Block`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Block {
    pub attributes: BTreeMap<String, Attribute>,
    pub block_types: BTreeMap<String, NestedBlock>,
}

impl Block {
    fn from_json(v: &Value) -> Result<Block, String> {
        let mut b = Block::default();
        if let Some(attrs) = v.get("attributes").and_then(Value::as_object) {
            for (name, a) in attrs {
                let ty = if let Some(t) = a.get("type") {
                    CtyType::from_json(t).map_err(|e| format!("attribute {name:?}: {e}"))?
                } else if let Some(nt) = a.get("nested_type") {
                    nested_attribute_type(nt).map_err(|e| format!("attribute {name:?}: {e}"))?
                } else {
                    return Err(format!("attribute {name:?} has no type"));
                };
                let flag = |k: &str| a.get(k).and_then(Value::as_bool).unwrap_or(false);
                b.attributes.insert(
                    name.clone(),
                    Attribute {
                        ty,
                        optional: flag("optional"),
                        required: flag("required"),
                        computed: flag("computed"),
                        sensitive: flag("sensitive"),
                    },
                );
            }
        }
        if let Some(blocks) = v.get("block_types").and_then(Value::as_object) {
            for (name, nb) in blocks {
                let nesting = match nb.get("nesting_mode").and_then(Value::as_str) {
                    Some("single") => NestingMode::Single,
                    Some("group") => NestingMode::Group,
                    Some("list") => NestingMode::List,
                    Some("set") => NestingMode::Set,
                    Some("map") => NestingMode::Map,
                    other => {
                        return Err(format!(
                            "block type {name:?}: invalid nesting_mode {other:?}"
                        ));
                    }
                };
                let block = match nb.get("block") {
                    Some(inner) => Block::from_json(inner)?,
                    None => Block::default(),
                };
                b.block_types.insert(
                    name.clone(),
                    NestedBlock {
                        nesting,
                        block,
                        min_items: nb.get("min_items").and_then(Value::as_u64).unwrap_or(0),
                        max_items: nb.get("max_items").and_then(Value::as_u64).unwrap_or(0),
                    },
                );
            }
        }
        Ok(b)
    }
}

/// The cty type of a protocol-6 nested attribute (`nested_type`).
fn nested_attribute_type(v: &Value) -> Result<CtyType, String> {
    let mut obj = BTreeMap::new();
    if let Some(attrs) = v.get("attributes").and_then(Value::as_object) {
        for (name, a) in attrs {
            let t = match (a.get("type"), a.get("nested_type")) {
                (Some(t), _) => CtyType::from_json(t)?,
                (None, Some(nt)) => nested_attribute_type(nt)?,
                _ => CtyType::Dynamic,
            };
            obj.insert(name.clone(), t);
        }
    }
    let o = CtyType::Object(obj);
    Ok(match v.get("nesting_mode").and_then(Value::as_str) {
        Some("list") => CtyType::List(Box::new(o)),
        Some("set") => CtyType::Set(Box::new(o)),
        Some("map") => CtyType::Map(Box::new(o)),
        _ => o,
    })
}

/// The schemas of one provider.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ProviderSchema {
    /// The provider's own configuration block (`None` when the JSON has no `block`).
    pub provider: Option<Block>,
    pub resource_types: BTreeMap<String, Block>,
    pub data_sources: BTreeMap<String, Block>,
    pub ephemeral_resources: BTreeMap<String, Block>,
}

impl ProviderSchema {
    /// The schema for a resource type of a mode.
    pub fn resource(&self, mode: crate::addrs::ResourceMode, type_name: &str) -> Option<&Block> {
        match mode {
            crate::addrs::ResourceMode::Managed => self.resource_types.get(type_name),
            crate::addrs::ResourceMode::Data => self.data_sources.get(type_name),
            crate::addrs::ResourceMode::Ephemeral => self.ephemeral_resources.get(type_name),
        }
    }
}

/// Schemas of every provider, by FQN.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ProviderSchemas {
    pub providers: BTreeMap<Provider, ProviderSchema>,
}

impl ProviderSchemas {
    pub fn get(&self, p: &Provider) -> Option<&ProviderSchema> {
        self.providers.get(p)
    }
    /// The schema for a resource of a provider.
    pub fn resource(
        &self,
        p: &Provider,
        mode: crate::addrs::ResourceMode,
        type_name: &str,
    ) -> Option<&Block> {
        self.providers.get(p)?.resource(mode, type_name)
    }
}

fn bad(detail: String) -> Diagnostic {
    Diagnostic::error("Invalid provider schemas JSON", detail, None)
}

/// Parses `tofu providers schema -json` output.
pub fn parse_schemas_json(text: &str) -> Result<ProviderSchemas, Diagnostic> {
    let v: Value = serde_json::from_str(text).map_err(|e| {
        let mut d = bad(crate::diag::json_error_message(&e));
        d.range = crate::diag::json_error_range(text, &e);
        d
    })?;
    if !v.is_object() {
        return Err(bad(
            "the schemas must be a JSON object, as \"tofu providers schema -json\" prints it"
                .into(),
        ));
    }
    let mut out = ProviderSchemas::default();
    let Some(ps) = v.get("provider_schemas") else {
        return Ok(out);
    };
    let ps = ps
        .as_object()
        .ok_or_else(|| bad("\"provider_schemas\" must be an object".into()))?;
    // A problem inside one provider's or type's schema points at its key in the text.
    let at = |needles: &[&str], mut d: Diagnostic| {
        d.range = crate::diag::json_value_range(text, needles);
        d
    };
    for (fqn, s) in ps {
        let provider = Provider::parse_source(fqn).map_err(|e| at(&[fqn], bad(e)))?;
        let mut schema = ProviderSchema::default();
        if let Some(b) = s.get("provider").and_then(|p| p.get("block")) {
            schema.provider = Some(
                Block::from_json(b)
                    .map_err(|e| at(&[fqn, "provider"], bad(format!("{fqn}: provider: {e}"))))?,
            );
        }
        for (key, map) in [
            ("resource_schemas", &mut schema.resource_types),
            ("data_source_schemas", &mut schema.data_sources),
            (
                "ephemeral_resource_schemas",
                &mut schema.ephemeral_resources,
            ),
        ] {
            if let Some(types) = s.get(key).and_then(Value::as_object) {
                for (t, ts) in types {
                    let block = match ts.get("block") {
                        Some(b) => Block::from_json(b)
                            .map_err(|e| at(&[fqn, key, t], bad(format!("{fqn}: {t}: {e}"))))?,
                        None => Block::default(),
                    };
                    map.insert(t.clone(), block);
                }
            }
        }
        out.providers.insert(provider, schema);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_schema() {
        let text = r#"{"format_version":"1.0","provider_schemas":{
          "registry.opentofu.org/hashicorp/test":{
            "provider":{"version":0,"block":{"attributes":{"a":{"type":"string","optional":true}},"description_kind":"plain"}},
            "resource_schemas":{"test_thing":{"version":0,"block":{
               "attributes":{"nested":{"type":["list",["object",{"foo":"string"}]],"optional":true}},
               "block_types":{"sub":{"nesting_mode":"set","block":{"attributes":{"x":{"type":["map","number"],"computed":true}}},"max_items":2}}}}}}}}"#;
        let s = parse_schemas_json(text).unwrap();
        let p = s.get(&Provider::default_for("test")).unwrap();
        assert!(p.provider.as_ref().unwrap().attributes["a"].optional);
        let r = &p.resource_types["test_thing"];
        assert!(r.attributes["nested"].ty.is_list_or_set_of_objects());
        assert_eq!(r.block_types["sub"].nesting, NestingMode::Set);
        assert_eq!(r.block_types["sub"].max_items, 2);
        assert!(parse_schemas_json("{").is_err());
    }

    #[test]
    fn conformance_schemas_parse() {
        // `../shared` beside the repository, as every corpus test finds it; missing, it fails
        // rather than passing without having read a schema.
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance/graph");
        let rd = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e} (the conformance corpus)", dir.display()));
        let mut read = 0;
        for e in rd.flatten() {
            let f = e.path().join("schemas.json");
            if let Ok(t) = std::fs::read_to_string(&f) {
                parse_schemas_json(&t).unwrap_or_else(|d| panic!("{}: {d}", f.display()));
                read += 1;
            }
        }
        assert!(read > 0, "no schemas.json under {}", dir.display());
    }
}
