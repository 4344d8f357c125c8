//! Simple support for `.tf.json` files: the JSON is rewritten as native syntax and parsed again.
//!
//! Hand-written because no crate maps Terraform's JSON syntax (whose block/attribute split
//! depends on the block type) to HCL. Which keys are blocks is decided by a fixed table of
//! OpenTofu's own block types; provider-defined nested blocks inside resource bodies are read as
//! attributes (object values), which is what references need. Source positions in diagnostics
//! refer to the rewritten text, not the JSON.

use serde_json::Value;

/// Labels and nested block types of a block type, at the level where it appears.
fn block_spec(parent: &str, key: &str) -> Option<usize> {
    match (parent, key) {
        ("", "resource" | "data" | "ephemeral") => Some(2),
        ("", "module" | "variable" | "output" | "provider" | "check") => Some(1),
        ("", "locals" | "terraform" | "moved" | "import" | "removed") => Some(0),
        ("resource" | "data" | "ephemeral", "lifecycle" | "connection") => Some(0),
        ("resource" | "data" | "ephemeral" | "provider" | "module" | "content", "dynamic") => {
            Some(1)
        }
        ("dynamic", "content") => Some(0),
        ("resource", "provisioner") => Some(1),
        ("lifecycle", "precondition" | "postcondition") => Some(0),
        ("variable", "validation") => Some(0),
        ("output", "precondition") => Some(0),
        ("terraform", "required_providers") => Some(0),
        ("terraform", "backend") => Some(1),
        ("terraform", "cloud") => Some(0),
        ("check", "data") => Some(2),
        ("check", "assert") => Some(0),
        ("removed", "lifecycle" | "provisioner") => Some(if key == "provisioner" { 1 } else { 0 }),
        _ => None,
    }
}

/// A JSON string (a template, as OpenTofu reads it) as a native quoted template. The literal
/// parts are escaped; what is inside `${…}` and `%{…}` is an expression, copied as it is: its own
/// string literals keep their quotes (`"${upper("x")}"`), which escaping would turn into the
/// invalid `\"` of an expression.
fn quote_template(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        // `$${` and `%%{` are a literal `${` and `%{` in both syntaxes.
        if (b[i] == b'$' || b[i] == b'%')
            && b.get(i + 1) == Some(&b[i])
            && b.get(i + 2) == Some(&b'{')
        {
            out.push_str(&s[i..i + 3]);
            i += 3;
            continue;
        }
        if (b[i] == b'$' || b[i] == b'%') && b.get(i + 1) == Some(&b'{') {
            let end = sequence_end(b, i + 2);
            out.push_str(&s[i..end]);
            i = end;
            continue;
        }
        let Some(c) = s[i..].chars().next() else {
            break;
        };
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
        i += c.len_utf8();
    }
    out.push('"');
    out
}

/// Where the template sequence whose body starts at `from` (just after its `${` or `%{`) ends:
/// after its closing `}`, skipping the braces of object constructors and what is inside the
/// expression's own quoted strings (with their escapes and their own sequences). An unclosed
/// sequence runs to the end, for the native parser to report.
fn sequence_end(b: &[u8], from: usize) -> usize {
    let mut depth = 1usize;
    let mut i = from;
    while i < b.len() {
        match b[i] {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    match b[i] {
                        b'\\' => i += 1,
                        b'$' | b'%'
                            if b.get(i + 1) == Some(&b[i]) && b.get(i + 2) == Some(&b'{') =>
                        {
                            i += 2
                        }
                        b'$' | b'%' if b.get(i + 1) == Some(&b'{') => {
                            i = sequence_end(b, i + 2);
                            continue;
                        }
                        _ => {}
                    }
                    i += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    b.len()
}

/// A block label: a literal string, never a template.
fn quote_label(s: &str) -> String {
    quote_template(&s.replace("${", "$${").replace("%{", "%%{"))
}

fn expr(v: &Value, out: &mut String) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => out.push_str(&quote_template(s)),
        Value::Array(a) => {
            out.push('[');
            for (i, e) in a.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                expr(e, out);
            }
            out.push(']');
        }
        Value::Object(o) => {
            out.push_str("{\n");
            for (k, e) in o {
                out.push_str(&quote_template(k));
                out.push_str(" = ");
                expr(e, out);
                out.push('\n');
            }
            out.push('}');
        }
    }
}

fn is_ident(s: &str) -> bool {
    crate::addrs::is_identifier(s)
}

fn body(kind: &str, v: &Value, out: &mut String) -> Result<(), String> {
    let obj = v
        .as_object()
        .ok_or_else(|| format!("The body of a {kind:?} block must be a JSON object."))?;
    for (k, val) in obj {
        if k == "//" {
            continue; // comments
        }
        match block_spec(kind, k) {
            Some(labels) => blocks(k, labels, val, &mut Vec::new(), out)?,
            None => {
                if !is_ident(k) {
                    return Err(format!("Invalid argument name {k:?}."));
                }
                // Meta-arguments that take references are written as strings in JSON.
                let is_ref_list = matches!(
                    k.as_str(),
                    "depends_on" | "ignore_changes" | "replace_triggered_by"
                );
                let is_ref = matches!(
                    k.as_str(),
                    "provider" | "from" | "to" | "when" | "on_failure"
                ) && !kind.is_empty();
                out.push_str(k);
                out.push_str(" = ");
                match (val, is_ref, is_ref_list) {
                    (Value::String(s), true, _) => out.push_str(s),
                    (Value::Array(a), _, true) => {
                        out.push('[');
                        for (i, e) in a.iter().enumerate() {
                            if i > 0 {
                                out.push_str(", ");
                            }
                            match e {
                                Value::String(s) => out.push_str(s),
                                other => expr(other, out),
                            }
                        }
                        out.push(']');
                    }
                    _ => expr(val, out),
                }
                out.push('\n');
            }
        }
    }
    Ok(())
}

fn blocks(
    kind: &str,
    labels: usize,
    v: &Value,
    prefix: &mut Vec<String>,
    out: &mut String,
) -> Result<(), String> {
    if prefix.len() == labels {
        let items: Vec<&Value> = match v {
            Value::Array(a) => a.iter().collect(),
            other => vec![other],
        };
        for item in items {
            out.push_str(kind);
            for l in prefix.iter() {
                out.push(' ');
                out.push_str(&quote_label(l));
            }
            out.push_str(" {\n");
            body(kind, item, out)?;
            out.push_str("}\n");
        }
        return Ok(());
    }
    let items: Vec<&Value> = match v {
        Value::Array(a) => a.iter().collect(),
        other => vec![other],
    };
    for item in items {
        let obj = item.as_object().ok_or_else(|| {
            format!("A {kind:?} block needs {labels} label(s) given as nested JSON object keys.")
        })?;
        for (k, inner) in obj {
            prefix.push(k.clone());
            blocks(kind, labels, inner, prefix, out)?;
            prefix.pop();
        }
    }
    Ok(())
}

/// Rewrites a `.tf.json` document as native syntax.
pub fn json_to_native(text: &str) -> Result<String, String> {
    let v: Value =
        serde_json::from_str(text).map_err(|e| format!("The file is not valid JSON: {e}."))?;
    let mut out = String::new();
    body("", &v, &mut out)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts() {
        let t = r#"{"resource":{"aws_instance":{"a":{"ami":"${var.ami}","count":2,"depends_on":["aws_vpc.x"],
                 "lifecycle":{"create_before_destroy":true}}}},
                 "variable":{"ami":{"default":"x"}},"locals":{"l":[1,2]}}"#;
        let n = json_to_native(t).unwrap();
        let body = hcl::edit::parser::parse_body(&n).unwrap();
        assert_eq!(body.blocks().count(), 3, "{n}");
        assert!(n.contains("depends_on = [aws_vpc.x]"), "{n}");
        let d = json_to_native(
            r#"{"resource":{"x_y":{"z":{"dynamic":{"s":{"for_each":"${var.l}","content":{"v":"${s.value}"}}}}}}}"#,
        )
        .unwrap();
        assert!(d.contains("dynamic \"s\" {"), "{d}");
        assert!(d.contains("content {"), "{d}");
    }

    #[test]
    fn quotes_inside_template_sequences_stay_quotes() {
        // The JSON strings, as they decode: `${upper("x")}`, `say "hi" ${var.x}`, `$${literal}`,
        // `${{k = "}"}["k"]}`, `${"a${var.b}"}`, `%{ if var.c == "y" }yes%{ endif }`.
        let t = r#"{"locals":{"a":"${upper(\"x\")}","b":"say \"hi\" ${var.x}","c":"$${literal}",
                 "d":"${{k = \"}\"}[\"k\"]}","e":"${\"a${var.b}\"}",
                 "f":"%{ if var.c == \"y\" }yes%{ endif }","g":"back\\slash ${var.h}"}}"#;
        let n = json_to_native(t).unwrap();
        for line in [
            r#"a = "${upper("x")}""#,
            r#"b = "say \"hi\" ${var.x}""#,
            r#"c = "$${literal}""#,
            r#"d = "${{k = "}"}["k"]}""#,
            r#"e = "${"a${var.b}"}""#,
            r#"f = "%{ if var.c == "y" }yes%{ endif }""#,
            r#"g = "back\\slash ${var.h}""#,
        ] {
            assert!(n.lines().any(|l| l == line), "{line} in\n{n}");
        }
        hcl::edit::parser::parse_body(&n).unwrap();
        // An unclosed sequence is copied to the end, for the parser to report.
        let u = json_to_native(r#"{"locals":{"a":"${upper(\"x\")"}}"#).unwrap();
        assert!(u.contains(r#"a = "${upper("x")""#), "{u}");
        assert!(hcl::edit::parser::parse_body(&u).is_err());
    }

    #[test]
    fn labels_are_literal() {
        let n = json_to_native(r#"{"variable":{"a${b}":{}}}"#).unwrap();
        assert!(n.contains(r#"variable "a$${b}" {"#), "{n}");
    }
}
