//! The part of provider schemas (`tofu providers schema -json`) that graph building reads: which
//! attributes and nested block types a body declares.

use serde_json::Value;
use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Nesting {
    Single,
    Group,
    List,
    Set,
    Map,
}

#[derive(Clone, Debug, Default)]
pub struct Block {
    /// Attribute name → its cty type in JSON form.
    pub attributes: BTreeMap<String, AttrType>,
    pub block_types: BTreeMap<String, NestedBlock>,
    /// Stands in for an unknown schema: every attribute and nested block counts (used when the
    /// caller has no provider schemas but still wants body references).
    pub any: bool,
}

impl Block {
    /// A block that declares everything (see [`Block::any`]).
    pub fn permissive() -> Self {
        Block {
            any: true,
            ..Default::default()
        }
    }
}

#[derive(Clone, Debug)]
pub struct AttrType(pub Value);

impl AttrType {
    /// True for `list(object(...))` / `set(object(...))` (the blocks-as-attributes fixup applies).
    pub fn is_collection_of_objects(&self) -> bool {
        match &self.0 {
            Value::Array(a) if a.len() == 2 => {
                matches!(a[0].as_str(), Some("list") | Some("set"))
                    && matches!(&a[1], Value::Array(inner) if inner.first().and_then(|v| v.as_str()) == Some("object"))
            }
            _ => false,
        }
    }
}

#[derive(Clone, Debug)]
pub struct NestedBlock {
    pub nesting: Nesting,
    pub block: Block,
}

/// One provider's schemas.
#[derive(Clone, Debug, Default)]
pub struct ProviderSchema {
    pub provider: Option<Block>,
    pub resources: BTreeMap<String, Block>,
    pub data_sources: BTreeMap<String, Block>,
    pub ephemeral: BTreeMap<String, Block>,
}

/// Schemas keyed by provider FQN string (`registry.opentofu.org/hashicorp/aws`).
#[derive(Clone, Debug, Default)]
pub struct Schemas {
    pub providers: BTreeMap<String, ProviderSchema>,
}

fn parse_block(v: &Value) -> Block {
    let mut b = Block::default();
    if let Some(attrs) = v.get("attributes").and_then(|a| a.as_object()) {
        for (k, a) in attrs {
            b.attributes.insert(
                k.clone(),
                AttrType(a.get("type").cloned().unwrap_or(Value::Null)),
            );
        }
    }
    if let Some(bts) = v.get("block_types").and_then(|a| a.as_object()) {
        for (k, bt) in bts {
            let nesting = match bt
                .get("nesting_mode")
                .and_then(|n| n.as_str())
                .unwrap_or("single")
            {
                "list" => Nesting::List,
                "set" => Nesting::Set,
                "map" => Nesting::Map,
                "group" => Nesting::Group,
                _ => Nesting::Single,
            };
            let block = bt.get("block").map(parse_block).unwrap_or_default();
            b.block_types
                .insert(k.clone(), NestedBlock { nesting, block });
        }
    }
    b
}

fn parse_map(v: Option<&Value>) -> BTreeMap<String, Block> {
    let mut m = BTreeMap::new();
    if let Some(obj) = v.and_then(|v| v.as_object()) {
        for (k, s) in obj {
            m.insert(
                k.clone(),
                s.get("block").map(parse_block).unwrap_or_default(),
            );
        }
    }
    m
}

impl Schemas {
    /// Reads the JSON printed by `tofu providers schema -json`.
    pub fn from_json(v: &Value) -> Result<Self, String> {
        let ps = v
            .get("provider_schemas")
            .and_then(|p| p.as_object())
            .ok_or_else(|| "provider schemas: missing \"provider_schemas\" object".to_string())?;
        let mut out = Schemas::default();
        for (fqn, p) in ps {
            out.providers.insert(
                fqn.clone(),
                ProviderSchema {
                    provider: p
                        .get("provider")
                        .map(|pv| pv.get("block").map(parse_block).unwrap_or_default()),
                    resources: parse_map(p.get("resource_schemas")),
                    data_sources: parse_map(p.get("data_source_schemas")),
                    ephemeral: parse_map(p.get("ephemeral_resource_schemas")),
                },
            );
        }
        Ok(out)
    }
}
