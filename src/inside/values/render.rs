//! Values as OpenTofu's plan prints them, on one line and short, and the small text helpers the
//! values panel shares.

use hcl::Value;
use std::collections::BTreeMap;

/// Most elements of a list or map, or characters of a string, a rendered value shows.
const MAX_ELEMENTS: usize = 5;
const MAX_STRING: usize = 60;
pub(super) fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// `a, b, c` with at most [`MAX_ELEMENTS`] and a count of the rest; `(none)` when empty.
pub(super) fn list_text(items: &[String]) -> String {
    if items.is_empty() {
        return "(none)".to_string();
    }
    let mut s = items
        .iter()
        .take(MAX_ELEMENTS)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if items.len() > MAX_ELEMENTS {
        s.push_str(&format!(", … {} more", items.len() - MAX_ELEMENTS));
    }
    s
}

/// A value as OpenTofu's plan shows it, on one line and short: strings quoted, lists as
/// `["a", "b"]`, maps and objects as `{ key = value }`; more than a few elements, a long string
/// or deep nesting are cut with what was left out counted (`… 7 more`).
pub fn render(v: &Value) -> String {
    let mut out = String::new();
    render_into(v, 0, &mut out);
    out
}

fn render_into(v: &Value, depth: usize, out: &mut String) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(&b.to_string()),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => {
            let n = s.chars().count();
            if n > MAX_STRING {
                let cut: String = s.chars().take(MAX_STRING).collect();
                out.push_str(&crate::strconv::go_quote(&cut));
                out.pop();
                out.push_str(&format!("…\" ({n} characters)"));
            } else {
                out.push_str(&crate::strconv::go_quote(s));
            }
        }
        Value::Array(a) if a.is_empty() => out.push_str("[]"),
        Value::Array(a) if depth >= 2 => out.push_str(&format!("[… {} elements]", a.len())),
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().take(MAX_ELEMENTS).enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                render_into(x, depth + 1, out);
            }
            if a.len() > MAX_ELEMENTS {
                out.push_str(&format!(", … {} more", a.len() - MAX_ELEMENTS));
            }
            out.push(']');
        }
        Value::Object(m) if m.is_empty() => out.push_str("{}"),
        Value::Object(m) if depth >= 2 => out.push_str(&format!("{{… {} keys}}", m.len())),
        Value::Object(m) => {
            out.push_str("{ ");
            // cty orders a map's and an object's keys lexically.
            let sorted: BTreeMap<&String, &Value> = m.iter().collect();
            for (i, (k, x)) in sorted.iter().take(MAX_ELEMENTS).enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                if is_identifier(k) {
                    out.push_str(k);
                } else {
                    out.push_str(&crate::strconv::go_quote(k));
                }
                out.push_str(" = ");
                render_into(x, depth + 1, out);
            }
            if m.len() > MAX_ELEMENTS {
                out.push_str(&format!(", … {} more", m.len() - MAX_ELEMENTS));
            }
            out.push_str(" }");
        }
    }
}

fn is_identifier(s: &str) -> bool {
    let mut c = s.chars();
    c.next().is_some_and(|f| f.is_alphabetic() || f == '_')
        && c.all(|x| x.is_alphanumeric() || x == '_' || x == '-')
}
