//! What every runner does before it runs a case: check that the case says nothing the runner does
//! not understand. The corpus README's rule is that a runner fails, rather than skips or ignores,
//! a case whose fields, operation, check or actions it does not understand: a case that silently
//! does less than it says proves nothing. These helpers turn each such thing into an error that
//! names it.

use serde_json::{Map, Value};

/// `v` as a JSON object, or an error naming `what`.
pub(crate) fn object<'a>(v: &'a Value, what: &str) -> Result<&'a Map<String, Value>, String> {
    v.as_object()
        .ok_or_else(|| format!("{what} is not a JSON object"))
}

/// Fails on the first key of the object `v` that is not in `allowed`.
pub(crate) fn keys(v: &Value, what: &str, allowed: &[&str]) -> Result<(), String> {
    for k in object(v, what)?.keys() {
        if !allowed.contains(&k.as_str()) {
            return Err(format!("{what}: unknown field {k:?}"));
        }
    }
    Ok(())
}

/// The string at `key`, which must be there.
pub(crate) fn req_str<'a>(v: &'a Value, key: &str, what: &str) -> Result<&'a str, String> {
    match v.get(key) {
        Some(Value::String(s)) => Ok(s),
        Some(other) => Err(format!("{what}: {key} is not a string: {other}")),
        None => Err(format!("{what}: {key} missing")),
    }
}

/// The string at `key` if there is one (an error when it is there but not a string).
pub(crate) fn opt_str<'a>(v: &'a Value, key: &str, what: &str) -> Result<Option<&'a str>, String> {
    match v.get(key) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(format!("{what}: {key} is not a string: {other}")),
    }
}

/// The boolean at `key` if there is one.
pub(crate) fn opt_bool(v: &Value, key: &str, what: &str) -> Result<Option<bool>, String> {
    match v.get(key) {
        None => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(other) => Err(format!("{what}: {key} is not a boolean: {other}")),
    }
}

/// The array at `key` (empty when absent).
pub(crate) fn opt_array<'a>(v: &'a Value, key: &str, what: &str) -> Result<&'a [Value], String> {
    match v.get(key) {
        None => Ok(&[]),
        Some(Value::Array(a)) => Ok(a),
        Some(other) => Err(format!("{what}: {key} is not an array: {other}")),
    }
}

/// The strings of the array at `key` (empty when absent; an error for a non-string entry).
pub(crate) fn opt_strings(v: &Value, key: &str, what: &str) -> Result<Vec<String>, String> {
    opt_array(v, key, what)?
        .iter()
        .map(|x| {
            x.as_str()
                .map(str::to_string)
                .ok_or_else(|| format!("{what}: {key} holds a non-string: {x}"))
        })
        .collect()
}

/// A `[from, to]` pair of strings.
pub(crate) fn pair(v: &Value, what: &str) -> Result<(String, String), String> {
    match v.as_array().map(Vec::as_slice) {
        Some([Value::String(a), Value::String(b)]) => Ok((a.clone(), b.clone())),
        _ => Err(format!("{what}: expected [from, to], got {v}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn unknown_keys_and_wrong_types_are_errors() {
        let v = json!({"a": "x", "b": true, "c": ["1", "2"]});
        assert!(keys(&v, "case", &["a", "b", "c"]).is_ok());
        let e = keys(&v, "case", &["a", "b"]).unwrap_err();
        assert_eq!(e, "case: unknown field \"c\"");
        assert_eq!(req_str(&v, "a", "case"), Ok("x"));
        assert!(req_str(&v, "b", "case").is_err());
        assert!(req_str(&v, "z", "case").is_err());
        assert_eq!(opt_bool(&v, "b", "case"), Ok(Some(true)));
        assert!(opt_bool(&v, "a", "case").is_err());
        assert_eq!(pair(&v["c"], "edge"), Ok(("1".into(), "2".into())));
        assert!(pair(&json!(["1"]), "edge").is_err());
        assert!(opt_strings(&json!({"s": [1]}), "s", "case").is_err());
    }
}
