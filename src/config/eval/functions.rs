//! The functions counts and for_each commonly use. hcl-rs ships none, so these are written here,
//! following OpenTofu's documented behaviour for the value shapes hcl-rs has.

use super::metering::{FUEL_FN, charge, f_fuel};
use hcl::Value;
use hcl::eval::{Context, FuncArgs, FuncDef, ParamType};
use std::collections::BTreeMap;

pub(super) fn declare_functions(ctx: &mut Context) {
    let one = |f| FuncDef::builder().param(ParamType::Any).build(f);
    let two = |f| {
        FuncDef::builder()
            .param(ParamType::Any)
            .param(ParamType::Any)
            .build(f)
    };
    let variadic = |f| FuncDef::builder().variadic_param(ParamType::Any).build(f);
    super::arith::declare(ctx);
    ctx.declare_func(FUEL_FN, one(f_fuel));
    ctx.declare_func("length", one(f_length));
    ctx.declare_func("toset", one(f_toset));
    ctx.declare_func("tolist", one(f_tolist));
    ctx.declare_func("tomap", one(f_tomap));
    ctx.declare_func("keys", one(f_keys));
    ctx.declare_func("values", one(f_values));
    ctx.declare_func("distinct", one(f_distinct));
    ctx.declare_func("compact", one(f_compact));
    ctx.declare_func("flatten", one(f_flatten));
    ctx.declare_func("tostring", one(f_tostring));
    ctx.declare_func("tonumber", one(f_tonumber));
    ctx.declare_func("tobool", one(f_tobool));
    ctx.declare_func("contains", two(f_contains));
    ctx.declare_func("range", variadic(f_range));
    ctx.declare_func("concat", variadic(f_concat));
    ctx.declare_func("merge", variadic(f_merge));
    ctx.declare_func("min", variadic(f_min));
    ctx.declare_func("max", variadic(f_max));
    ctx.declare_func("coalesce", variadic(f_coalesce));
    ctx.declare_func(
        "lookup",
        FuncDef::builder()
            .param(ParamType::Any)
            .param(ParamType::Any)
            .variadic_param(ParamType::Any)
            .build(f_lookup),
    );
}

pub(super) fn arg(args: &FuncArgs, i: usize) -> Result<&Value, String> {
    args.get(i)
        .ok_or_else(|| format!("missing argument {}", i + 1))
}

pub(super) fn array(v: &Value, what: &str) -> Result<Vec<Value>, String> {
    match v {
        Value::Array(a) => Ok(a.clone()),
        other => Err(format!("{what}: {other} is not a list or set")),
    }
}

pub(super) fn f_length(args: FuncArgs) -> Result<Value, String> {
    match arg(&args, 0)? {
        Value::Array(a) => Ok(Value::from(a.len() as u64)),
        Value::Object(o) => Ok(Value::from(o.len() as u64)),
        Value::String(s) => Ok(Value::from(s.chars().count() as u64)),
        other => Err(format!("length: {other} has no length")),
    }
}

/// A set: distinct elements, strings in lexical order (cty's order for a set of strings).
pub(super) fn set_of(items: Vec<Value>) -> Value {
    let mut out: Vec<Value> = Vec::new();
    for i in items {
        if !out.contains(&i) {
            out.push(i);
        }
    }
    if out.iter().all(Value::is_string) {
        out.sort_by(|a, b| a.as_str().cmp(&b.as_str()));
    }
    Value::Array(out)
}

pub(super) fn f_toset(args: FuncArgs) -> Result<Value, String> {
    Ok(set_of(array(arg(&args, 0)?, "toset")?))
}

pub(super) fn f_tolist(args: FuncArgs) -> Result<Value, String> {
    Ok(Value::Array(array(arg(&args, 0)?, "tolist")?))
}

pub(super) fn f_tomap(args: FuncArgs) -> Result<Value, String> {
    match arg(&args, 0)? {
        v @ Value::Object(_) => Ok(v.clone()),
        other => Err(format!("tomap: {other} is not an object")),
    }
}

pub(super) fn sorted_object(v: &Value, what: &str) -> Result<BTreeMap<String, Value>, String> {
    match v {
        Value::Object(o) => Ok(o.iter().map(|(k, v)| (k.clone(), v.clone())).collect()),
        other => Err(format!("{what}: {other} is not a map or object")),
    }
}

pub(super) fn f_keys(args: FuncArgs) -> Result<Value, String> {
    let m = sorted_object(arg(&args, 0)?, "keys")?;
    Ok(Value::Array(m.into_keys().map(Value::String).collect()))
}

pub(super) fn f_values(args: FuncArgs) -> Result<Value, String> {
    let m = sorted_object(arg(&args, 0)?, "values")?;
    Ok(Value::Array(m.into_values().collect()))
}

pub(super) fn f_distinct(args: FuncArgs) -> Result<Value, String> {
    let mut out: Vec<Value> = Vec::new();
    for i in array(arg(&args, 0)?, "distinct")? {
        if !out.contains(&i) {
            out.push(i);
        }
    }
    Ok(Value::Array(out))
}

pub(super) fn f_compact(args: FuncArgs) -> Result<Value, String> {
    Ok(Value::Array(
        array(arg(&args, 0)?, "compact")?
            .into_iter()
            .filter(|v| !v.is_null() && v.as_str() != Some(""))
            .collect(),
    ))
}

pub(super) fn flatten_into(v: Value, out: &mut Vec<Value>) {
    match v {
        Value::Array(a) => a.into_iter().for_each(|x| flatten_into(x, out)),
        other => out.push(other),
    }
}

pub(super) fn f_flatten(args: FuncArgs) -> Result<Value, String> {
    let mut out = Vec::new();
    for v in array(arg(&args, 0)?, "flatten")? {
        flatten_into(v, &mut out);
    }
    charge(out.len())?;
    Ok(Value::Array(out))
}

pub(super) fn f_tostring(args: FuncArgs) -> Result<Value, String> {
    match arg(&args, 0)? {
        Value::String(s) => Ok(Value::String(s.clone())),
        Value::Number(n) => Ok(Value::String(n.to_string())),
        Value::Bool(b) => Ok(Value::String(b.to_string())),
        Value::Null => Ok(Value::Null),
        other => Err(format!("tostring: cannot convert {other}")),
    }
}

pub(super) fn f_tonumber(args: FuncArgs) -> Result<Value, String> {
    match arg(&args, 0)? {
        v @ (Value::Number(_) | Value::Null) => Ok(v.clone()),
        Value::String(s) => s
            .trim()
            .parse::<f64>()
            .ok()
            .and_then(hcl::Number::from_f64)
            .map(Value::Number)
            .ok_or_else(|| format!("tonumber: {s:?} is not a number")),
        other => Err(format!("tonumber: cannot convert {other}")),
    }
}

pub(super) fn f_tobool(args: FuncArgs) -> Result<Value, String> {
    match arg(&args, 0)? {
        v @ (Value::Bool(_) | Value::Null) => Ok(v.clone()),
        Value::String(s) if s == "true" => Ok(Value::Bool(true)),
        Value::String(s) if s == "false" => Ok(Value::Bool(false)),
        other => Err(format!("tobool: cannot convert {other}")),
    }
}

pub(super) fn f_contains(args: FuncArgs) -> Result<Value, String> {
    let list = array(arg(&args, 0)?, "contains")?;
    Ok(Value::Bool(list.contains(arg(&args, 1)?)))
}

pub(super) fn num(v: &Value, what: &str) -> Result<f64, String> {
    v.as_f64()
        .ok_or_else(|| format!("{what}: {v} is not a number"))
}

pub(super) fn number(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        Value::from(x as i64)
    } else {
        hcl::Number::from_f64(x).map_or(Value::Null, Value::Number)
    }
}

pub(super) fn f_range(args: FuncArgs) -> Result<Value, String> {
    let n: Vec<f64> = args
        .iter()
        .map(|v| num(v, "range"))
        .collect::<Result<_, _>>()?;
    let (start, end, step) = match n.as_slice() {
        [e] => (0.0, *e, 1.0),
        [s, e] => (*s, *e, if s <= e { 1.0 } else { -1.0 }),
        [s, e, st] => (*s, *e, *st),
        _ => return Err("range: takes one to three numbers".into()),
    };
    if step == 0.0 {
        return Err("range: step must not be zero".into());
    }
    let mut out = Vec::new();
    let mut x = start;
    while (step > 0.0 && x < end) || (step < 0.0 && x > end) {
        charge(1)?;
        out.push(number(x));
        x += step;
        if out.len() > 1_000_000 {
            return Err("range: more than 1000000 elements".into());
        }
    }
    Ok(Value::Array(out))
}

pub(super) fn f_concat(args: FuncArgs) -> Result<Value, String> {
    let mut out = Vec::new();
    for a in args.iter() {
        let items = array(a, "concat")?;
        charge(items.len())?;
        out.extend(items);
    }
    Ok(Value::Array(out))
}

pub(super) fn f_merge(args: FuncArgs) -> Result<Value, String> {
    let mut out = hcl::Map::new();
    for a in args.iter() {
        match a {
            Value::Object(o) => {
                charge(o.len())?;
                out.extend(o.iter().map(|(k, v)| (k.clone(), v.clone())));
            }
            Value::Null => {}
            other => return Err(format!("merge: {other} is not a map or object")),
        }
    }
    Ok(Value::Object(out))
}

pub(super) fn extreme(args: &FuncArgs, what: &str, pick_max: bool) -> Result<Value, String> {
    let mut best: Option<f64> = None;
    for a in args.iter() {
        let x = num(a, what)?;
        best = Some(match best {
            Some(b) if (pick_max && b >= x) || (!pick_max && b <= x) => b,
            _ => x,
        });
    }
    best.map(number)
        .ok_or_else(|| format!("{what}: needs at least one number"))
}

pub(super) fn f_min(args: FuncArgs) -> Result<Value, String> {
    extreme(&args, "min", false)
}

pub(super) fn f_max(args: FuncArgs) -> Result<Value, String> {
    extreme(&args, "max", true)
}

pub(super) fn f_coalesce(args: FuncArgs) -> Result<Value, String> {
    args.iter()
        .find(|v| !v.is_null() && v.as_str() != Some(""))
        .cloned()
        .ok_or_else(|| "coalesce: no non-null, non-empty argument".into())
}

pub(super) fn f_lookup(args: FuncArgs) -> Result<Value, String> {
    let m = sorted_object(arg(&args, 0)?, "lookup")?;
    let key = match arg(&args, 1)? {
        Value::String(s) => s.clone(),
        other => return Err(format!("lookup: key {other} is not a string")),
    };
    match (m.get(&key), args.get(2)) {
        (Some(v), _) => Ok(v.clone()),
        (None, Some(d)) => Ok(d.clone()),
        (None, None) => Err(format!("lookup: no key {key:?}")),
    }
}
