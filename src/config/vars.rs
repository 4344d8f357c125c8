//! Root module variable values as OpenTofu collects them (`internal/command/meta_vars.go`,
//! `collectVariableValues`, and `internal/backend/unparsed_value.go`, `ParseVariableValues`):
//!
//! 1. `TF_VAR_name` environment variables (lowest precedence);
//! 2. `terraform.tfvars`, then `terraform.tfvars.json`, then every `*.auto.tfvars` and
//!    `*.auto.tfvars.json` of the root folder in lexical order;
//! 3. `-var NAME=VALUE` and `-var-file FILE` in the order the command line gives them.
//!
//! A later source overrides an earlier one. Values from files are HCL (or JSON) expressions
//! evaluated with no variables or functions; values given as text (`-var`, `TF_VAR_`) are literal
//! strings for variables of no type or a primitive type and HCL expressions otherwise. A file that
//! assigns an undeclared variable gets OpenTofu's warning; a `-var` that does, its error; the
//! environment is allowed to.
//!
//! [`parse_tfvars`] is pure (a file's name and text in, assignments and diagnostics out) and never
//! panics, whatever the text.

use super::model::Variable;
use crate::diag::{Diagnostic, SourceFile, SourceRange};
use hcl::Value;
use std::collections::BTreeMap;

/// The file OpenTofu reads first (`DefaultVarsFilename`).
pub const DEFAULT_VARS_FILE: &str = "terraform.tfvars";

/// One source of root variable values, in the order of precedence (lowest first) when listed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VarInput {
    /// `TF_VAR_NAME=VALUE` in the environment: the name without the prefix and the value.
    Env { name: String, value: String },
    /// A variables file read because of its name (`terraform.tfvars`, `x.auto.tfvars.json`).
    AutoFile { name: String, text: String },
    /// A file given with `-var-file`.
    File { name: String, text: String },
    /// `-var NAME=VALUE`, as given.
    Var(String),
}

impl VarInput {
    /// A `-var` assignment.
    pub fn var(assignment: impl Into<String>) -> Self {
        VarInput::Var(assignment.into())
    }
}

/// Where a value came from (Go `tofu.ValueSourceType`), for the undeclared-variable rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VarSource {
    Env,
    AutoFile(String),
    NamedFile(String),
    Cli,
}

/// One assignment before it is checked against the declarations.
#[derive(Debug, Clone, PartialEq)]
pub struct Assigned {
    /// A value from a file, or text from the command line or the environment.
    pub value: Result<Value, String>,
    pub source: VarSource,
    /// Where the value is in its file.
    pub range: Option<SourceRange>,
}

/// One `NAME = value` of a variables file: the value, or why it has none (reported), and where
/// the value is.
pub type Assignment = (String, Result<Value, String>, SourceRange);

/// True for the names OpenTofu reads variable values from automatically (`isAutoVarFile` and
/// `DefaultVarsFilename`), and for any `.tfvars`/`.tfvars.json` file, which `-var-file` reads.
pub fn is_var_file_name(name: &str) -> bool {
    name.ends_with(".tfvars") || name.ends_with(".tfvars.json")
}

/// The variables files among `names` (file names in the root folder) that OpenTofu reads without
/// being told, in the order it reads them (`addVarsFromDir`): `terraform.tfvars`,
/// `terraform.tfvars.json`, then `*.auto.tfvars(.json)` sorted by name.
pub fn auto_var_files<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let names: Vec<&str> = names.into_iter().collect();
    let mut out = Vec::new();
    for fixed in [DEFAULT_VARS_FILE, "terraform.tfvars.json"] {
        if names.contains(&fixed) {
            out.push(fixed.to_string());
        }
    }
    let mut auto: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| n.ends_with(".auto.tfvars") || n.ends_with(".auto.tfvars.json"))
        .collect();
    // Go's os.ReadDir sorts by name, byte-wise.
    auto.sort_unstable();
    auto.dedup();
    out.extend(auto.into_iter().map(str::to_string));
    out
}

/// The `TF_VAR_` variables of an environment (`NAME=VALUE` pairs), as OpenTofu picks them.
pub fn env_inputs<I, K, V>(vars: I) -> Vec<VarInput>
where
    I: IntoIterator<Item = (K, V)>,
    K: AsRef<str>,
    V: AsRef<str>,
{
    let mut out: Vec<VarInput> = vars
        .into_iter()
        .filter_map(|(k, v)| {
            let name = k.as_ref().strip_prefix("TF_VAR_")?;
            Some(VarInput::Env {
                name: name.to_string(),
                value: v.as_ref().to_string(),
            })
        })
        .collect();
    // The environment has no order; sort so the result is the same on every run.
    out.sort_by(|a, b| format!("{a:?}").cmp(&format!("{b:?}")));
    out
}

/// Reads a variables file (Go `addVarsFromFile`): JSON when the name ends in `.json` (or, for a
/// name that is neither `.json` nor `.tfvars`, when the text starts with `{`), HCL otherwise.
/// Returns each assignment (name, value or the reason it has none, range of its expression) in
/// file order, with the file's diagnostics.
pub fn parse_tfvars(name: &str, text: &str) -> (Vec<Assignment>, Vec<Diagnostic>) {
    let json = name.ends_with(".json")
        || (!name.ends_with(".tfvars") && text.trim_start().starts_with('{'));
    if json {
        parse_json_vars(name, text)
    } else {
        parse_hcl_vars(name, text)
    }
}

fn parse_hcl_vars(name: &str, text: &str) -> (Vec<Assignment>, Vec<Diagnostic>) {
    let file = SourceFile::new(name, text);
    let mut diags = Vec::new();
    // A byte-order mark is blanked out, as the configuration reader does.
    let mut padded = text.to_string();
    if padded.starts_with('\u{feff}') {
        padded.replace_range(0..3, "   ");
    }
    if let Some(errors) = super::decode::refused(&file) {
        diags.extend(errors);
        return (Vec::new(), diags);
    }
    let body = match hcl::edit::parser::parse_body(&padded) {
        Ok(b) => b,
        Err(e) => {
            diags.extend(super::decode::parse_errors(&file, &e));
            return (Vec::new(), diags);
        }
    };
    // HCL's own syntax errors were asked for before the parse (`refused`): none.
    use hcl::edit::Span as _;
    // OpenTofu first looks for `variable` blocks, a common mistake, and stops there if any.
    for b in body.blocks() {
        if b.ident.as_str() == "variable" {
            let var = b
                .labels
                .first()
                .map(|l| match l {
                    hcl::edit::structure::BlockLabel::String(s) => s.value().to_string(),
                    hcl::edit::structure::BlockLabel::Ident(i) => i.as_str().to_string(),
                })
                .unwrap_or_default();
            diags.push(Diagnostic::error(
                "Variable declaration in .tfvars file",
                format!(
                    "A .tfvars file is used to assign values to variables that have already been declared in .tf files, not to declare new variables. To declare variable {var:?}, place this block in one of your .tf files, such as variables.tf.\n\nTo set a value for this variable in {name}, use the definition syntax instead:\n    {var} = <value>"
                ),
                Some(file.range_opt(b.ident.span())),
            ));
        }
    }
    if !diags.is_empty() {
        return (Vec::new(), diags);
    }
    // Go's `Body.JustAttributes`: any other block is an error.
    for b in body.blocks() {
        diags.push(Diagnostic::error(
            format!("Unexpected {:?} block", b.ident.as_str()),
            "Blocks are not allowed here.",
            Some(file.range_opt(b.ident.span())),
        ));
    }
    let mut out = Vec::new();
    for a in body.attributes() {
        let range = file.range_opt(a.value.span());
        let value = super::eval::evaluate_constant(&a.value).map_err(|e| {
            if let Some(op) = super::eval::operation_error(&e) {
                let at = op
                    .span
                    .map_or_else(|| range.clone(), |s| file.range_opt(Some(s)));
                diags.push(Diagnostic::error(op.summary, op.detail.clone(), Some(at)));
                return op.detail;
            }
            let (summary, detail) = match e.kind() {
                hcl::eval::ErrorKind::UndefinedVar(_) => {
                    ("Variables not allowed", "Variables may not be used here.")
                }
                hcl::eval::ErrorKind::UndefinedFunc(_) => (
                    "Function calls not allowed",
                    "Functions may not be called here.",
                ),
                _ => ("Invalid expression", ""),
            };
            let detail = if detail.is_empty() {
                super::eval::error_text(&e)
            } else {
                detail.to_string()
            };
            diags.push(Diagnostic::error(
                summary,
                detail.clone(),
                Some(range.clone()),
            ));
            detail
        });
        out.push((a.key.as_str().to_string(), value, range));
    }
    (out, diags)
}

fn parse_json_vars(name: &str, text: &str) -> (Vec<Assignment>, Vec<Diagnostic>) {
    let file = SourceFile::new(name, text);
    let at_start = file.range(0..0);
    let v: serde_json::Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            let range = crate::diag::json_error_range(text, &e).map(|mut r| {
                r.file = name.into();
                r
            });
            return (
                Vec::new(),
                vec![Diagnostic::error(
                    "Invalid JSON",
                    format!(
                        "The file is not valid JSON: {}.",
                        crate::diag::json_error_message(&e)
                    ),
                    range.or(Some(at_start)),
                )],
            );
        }
    };
    let serde_json::Value::Object(map) = v else {
        // hcl/json's JustAttributes on a body that is not an object.
        return (
            Vec::new(),
            vec![Diagnostic::error(
                "Incorrect JSON value type",
                "A JSON object is required here, setting the arguments for this block.",
                Some(at_start),
            )],
        );
    };
    let out = map
        .into_iter()
        .map(|(k, v)| {
            let range = crate::diag::json_value_range(text, &[k.as_str()])
                .map(|mut r| {
                    r.file = name.into();
                    r
                })
                .unwrap_or_else(|| at_start.clone());
            (k, Ok(json_to_value(v)), range)
        })
        .collect();
    (out, Vec::new())
}

fn json_to_value(v: serde_json::Value) -> Value {
    match v {
        serde_json::Value::Null => Value::Null,
        serde_json::Value::Bool(b) => Value::Bool(b),
        serde_json::Value::Number(n) => n
            .as_i64()
            .map(Value::from)
            .or_else(|| n.as_u64().map(Value::from))
            .or_else(|| n.as_f64().map(Value::from))
            .unwrap_or(Value::Null),
        serde_json::Value::String(s) => Value::String(s),
        serde_json::Value::Array(a) => Value::Array(a.into_iter().map(json_to_value).collect()),
        serde_json::Value::Object(o) => {
            Value::Object(o.into_iter().map(|(k, v)| (k, json_to_value(v))).collect())
        }
    }
}

/// Applies `inputs` in order (later ones win) as `collectVariableValues` does: each name's last
/// assignment, and the diagnostics of reading them (files that do not parse, malformed `-var`).
pub fn collect(inputs: &[VarInput]) -> (BTreeMap<String, Assigned>, Vec<Diagnostic>) {
    let mut out = BTreeMap::new();
    let mut diags = Vec::new();
    for input in inputs {
        match input {
            VarInput::Env { name, value } => {
                out.insert(
                    name.clone(),
                    Assigned {
                        value: Err(value.clone()),
                        source: VarSource::Env,
                        range: None,
                    },
                );
            }
            VarInput::Var(raw) => {
                let Some((name, value)) = raw.split_once('=') else {
                    diags.push(Diagnostic::error(
                        "Invalid -var option",
                        format!(
                            "The given -var option {raw:?} is not correctly specified. Must be a variable name and value separated by an equals sign, like -var=\"key=value\"."
                        ),
                        None,
                    ));
                    continue;
                };
                if name.ends_with(' ') {
                    diags.push(Diagnostic::error(
                        "Invalid -var option",
                        format!(
                            "Variable name {name:?} is invalid due to trailing space. Did you mean -var=\"{}={}\"?",
                            name.trim_end_matches(' '),
                            value.trim_start_matches(' ')
                        ),
                        None,
                    ));
                    continue;
                }
                out.insert(
                    name.to_string(),
                    Assigned {
                        value: Err(value.to_string()),
                        source: VarSource::Cli,
                        range: None,
                    },
                );
            }
            VarInput::AutoFile { name, text } | VarInput::File { name, text } => {
                let (values, d) = parse_tfvars(name, text);
                diags.extend(d);
                let source = match input {
                    VarInput::AutoFile { .. } => VarSource::AutoFile(name.clone()),
                    _ => VarSource::NamedFile(name.clone()),
                };
                for (var, value, range) in values {
                    // A value that did not evaluate was reported; it assigns nothing.
                    if value.is_err() {
                        continue;
                    }
                    out.insert(
                        var,
                        Assigned {
                            value,
                            source: source.clone(),
                            range: Some(range),
                        },
                    );
                }
            }
        }
    }
    (out, diags)
}

/// Where each variable's value comes from when `inputs` are applied in order: the last input
/// that assigns it (files whose values did not evaluate assign nothing). Diagnostics are
/// [`collect`]'s and [`resolve`]'s to report.
pub fn sources(inputs: &[VarInput]) -> BTreeMap<String, VarSource> {
    collect(inputs)
        .0
        .into_iter()
        .map(|(name, a)| (name, a.source))
        .collect()
}

impl VarSource {
    /// Where a value came from, in a few words: `TF_VAR_region`, `terraform.tfvars`, `-var`,
    /// `-var-file prod.tfvars`.
    pub fn describe(&self, name: &str) -> String {
        match self {
            VarSource::Env => format!("TF_VAR_{name}"),
            VarSource::AutoFile(f) => f.clone(),
            VarSource::NamedFile(f) => format!("-var-file {f}"),
            VarSource::Cli => "-var".to_string(),
        }
    }
}

/// The root variable values that `inputs` give for the declared `variables`, with OpenTofu's
/// diagnostics (`ParseVariableValues`): a value from a file for an undeclared variable is a
/// warning (two at most, then one that counts the rest), from `-var` an error, from the
/// environment nothing.
pub fn resolve(
    variables: &BTreeMap<String, Variable>,
    inputs: &[VarInput],
) -> (BTreeMap<String, Value>, Vec<Diagnostic>) {
    let (assigned, mut diags) = collect(inputs);
    let mut values = BTreeMap::new();
    let mut undeclared_in_files = 0;
    for (name, a) in assigned {
        let Some(decl) = variables.get(&name) else {
            match &a.source {
                VarSource::AutoFile(file) | VarSource::NamedFile(file) => {
                    if undeclared_in_files < 2 {
                        diags.push(Diagnostic::warning(
                            "Value for undeclared variable",
                            format!(
                                "The root module does not declare a variable named {name:?} but a value was found in file {file:?}. If you meant to use this value, add a \"variable\" block to the configuration.\n\nTo silence these warnings, use TF_VAR_... environment variables to provide certain \"global\" settings to all configurations in your organization. To reduce the verbosity of these warnings, use the -compact-warnings option."
                            ),
                            None,
                        ));
                    }
                    undeclared_in_files += 1;
                }
                VarSource::Env => {}
                VarSource::Cli => diags.push(Diagnostic::error(
                    "Value for undeclared variable",
                    format!(
                        "A variable named {name:?} was assigned on the command line, but the root module does not declare a variable of that name. To use this value, add a \"variable\" block to the configuration."
                    ),
                    None,
                )),
            }
            continue;
        };
        let value = match a.value {
            Ok(v) => convert(decl, v),
            Err(text) => super::eval::parse_var_value(Some(decl), &text),
        };
        values.insert(name, value);
    }
    if undeclared_in_files > 2 {
        diags.push(Diagnostic::warning(
            "Values for undeclared variables",
            format!(
                "In addition to the other similar warnings shown, {} other variable(s) defined without being declared.",
                undeclared_in_files - 2
            ),
            None,
        ));
    }
    (values, diags)
}

/// The conversions OpenTofu makes to a primitive type constraint that matter to static
/// evaluation: a string holding a number or a boolean, for `number` and `bool`.
fn convert(decl: &Variable, v: Value) -> Value {
    let ty = decl.type_expr.as_ref().map(|t| t.text().trim().to_string());
    match (ty.as_deref(), &v) {
        (Some("number"), Value::String(s)) => s
            .trim()
            .parse::<i64>()
            .map(Value::from)
            .or_else(|_| s.trim().parse::<f64>().map(Value::from))
            .unwrap_or(v),
        (Some("bool"), Value::String(s)) => match s.as_str() {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            _ => v,
        },
        _ => v,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decls(text: &str) -> BTreeMap<String, Variable> {
        let files = BTreeMap::from([("main.tf".to_string(), text.to_string())]);
        let (cfg, diags) = super::super::load_files(&files);
        assert!(!super::super::has_errors(&diags), "{diags:?}");
        cfg.unwrap().module.variables
    }

    fn file(name: &str, text: &str) -> VarInput {
        VarInput::AutoFile {
            name: name.into(),
            text: text.into(),
        }
    }

    // Found by the var_files fuzzer: object constructors left open after operators sent
    // hcl-edit's parser into exponential backtracking (202 bytes: 18 s natively, minutes under
    // the fuzzer). HCL's parser reads them in one pass and its error is what is reported; the
    // same text as a configuration file gets the same error.
    #[test]
    fn open_object_constructors_after_operators_get_hcls_error() {
        let text = "r =!!!!!!!9-0%{9-{9-0%{9-P%P%{9-{!!!!!!!9-0%{9-{9-0%{9-P%{9-{9-0%{9-P%PP-0%{9-{9-0%{9-P%{9-{9-9-0%{9-P%{9-{!!!!!!!9-0%{9-{9-0%{9-P%{9-{9-0%{9-P%PP-0%{9-{9-0%{9-P%{9-{9-9-0%{9-P%PP-0%{9-{9-0%{9-P%{9-{9-0".to_string();
        let (assignments, diags) = parse_tfvars("terraform.tfvars", &text);
        assert!(assignments.is_empty());
        assert_eq!(diags.len(), 1, "{diags:?}");
        assert_eq!(
            diags[0].summary,
            "Unterminated object constructor expression"
        );
        let at = diags[0].range.as_ref().expect("a position");
        assert_eq!(
            (&*at.file, at.start.line, at.start.column),
            ("terraform.tfvars", 1, 199)
        );
        let files = BTreeMap::from([("main.tf".to_string(), text)]);
        let (_, config_diags) = super::super::load_files(&files);
        assert_eq!(config_diags.len(), 1, "{config_diags:?}");
        assert_eq!(config_diags[0].summary, diags[0].summary);
    }

    // internal/command/meta_vars.go, addVarsFromDir: the fixed names first, then *.auto.* sorted.
    #[test]
    fn auto_files_in_opentofu_order() {
        assert_eq!(
            auto_var_files([
                "z.auto.tfvars",
                "main.tf",
                "terraform.tfvars.json",
                "a.auto.tfvars.json",
                "terraform.tfvars",
                "prod.tfvars",
                "B.auto.tfvars",
            ]),
            [
                "terraform.tfvars",
                "terraform.tfvars.json",
                "B.auto.tfvars",
                "a.auto.tfvars.json",
                "z.auto.tfvars"
            ]
        );
        assert!(is_var_file_name("prod.tfvars") && is_var_file_name("x.tfvars.json"));
        assert!(!is_var_file_name("main.tf"));
    }

    #[test]
    fn later_sources_win_in_opentofu_precedence() {
        let d = decls(
            "variable \"a\" {}\nvariable \"b\" {}\nvariable \"c\" {}\nvariable \"d\" {}\nvariable \"n\" {\n  type = number\n}\n",
        );
        let inputs = [
            VarInput::Env {
                name: "a".into(),
                value: "env".into(),
            },
            VarInput::Env {
                name: "b".into(),
                value: "env".into(),
            },
            file(
                "terraform.tfvars",
                "b = \"tfvars\"\nc = \"tfvars\"\nn = 2\n",
            ),
            file("terraform.tfvars.json", "{\"c\": \"json\", \"d\": [1, 2]}"),
            VarInput::var("d=cli"),
            VarInput::File {
                name: "prod.tfvars".into(),
                text: "d = \"file\"\nn = \"7\"\n".into(),
            },
        ];
        let (v, diags) = resolve(&d, &inputs);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(v["a"], Value::from("env"));
        assert_eq!(v["b"], Value::from("tfvars"));
        assert_eq!(v["c"], Value::from("json"));
        // -var and -var-file in command-line order: the file came last.
        assert_eq!(v["d"], Value::from("file"));
        assert_eq!(v["n"], Value::from(7));
        // Swapped, -var wins.
        let mut swapped = inputs.to_vec();
        swapped.swap(4, 5);
        assert_eq!(resolve(&d, &swapped).0["d"], Value::from("cli"));
    }

    // internal/backend/unparsed_value.go, ParseUndeclaredVariableValues.
    #[test]
    fn undeclared_values_warn_from_files_and_fail_from_the_command_line() {
        let d = decls("variable \"a\" {}\n");
        let (_, diags) = resolve(
            &d,
            &[
                file("terraform.tfvars", "w = 1\nx = 2\ny = 3\nz = 4\n"),
                VarInput::Env {
                    name: "e".into(),
                    value: "1".into(),
                },
            ],
        );
        let text: Vec<String> = diags.iter().map(|d| d.to_string()).collect();
        assert_eq!(text.len(), 3, "{text:?}");
        assert!(text[0].starts_with("Warning: Value for undeclared variable: The root module does not declare a variable named \"w\" but a value was found in file \"terraform.tfvars\". If you meant to use this value, add a \"variable\" block to the configuration."), "{}", text[0]);
        assert_eq!(
            text[2],
            "Warning: Values for undeclared variables: In addition to the other similar warnings shown, 2 other variable(s) defined without being declared."
        );
        let (_, diags) = resolve(&d, &[VarInput::var("b=1"), VarInput::var("a")]);
        let text: Vec<String> = diags.iter().map(|d| d.to_string()).collect();
        assert_eq!(
            text,
            [
                "Invalid -var option: The given -var option \"a\" is not correctly specified. Must be a variable name and value separated by an equals sign, like -var=\"key=value\".",
                "Value for undeclared variable: A variable named \"b\" was assigned on the command line, but the root module does not declare a variable of that name. To use this value, add a \"variable\" block to the configuration."
            ]
        );
    }

    #[test]
    fn bad_variable_files_are_positioned_diagnostics() {
        let (_, d) = parse_tfvars("terraform.tfvars", "a = 1\nvariable \"b\" {\n}\n");
        assert_eq!(
            d[0].to_string().lines().next().unwrap(),
            "terraform.tfvars:2,1: Variable declaration in .tfvars file: A .tfvars file is used to assign values to variables that have already been declared in .tf files, not to declare new variables. To declare variable \"b\", place this block in one of your .tf files, such as variables.tf."
        );
        let (v, d) = parse_tfvars("x.auto.tfvars", "a = var.b\nc = max(1, 2)\n");
        assert_eq!(v.len(), 2);
        assert_eq!(
            d.iter().map(|d| d.to_string()).collect::<Vec<_>>(),
            [
                "x.auto.tfvars:1,5: Variables not allowed: Variables may not be used here.",
                "x.auto.tfvars:2,5: Function calls not allowed: Functions may not be called here."
            ]
        );
        // A syntax error is placed as in configuration files (decode::parse_errors).
        let (_, d) = parse_tfvars("terraform.tfvars", "a = 1\nb = \n");
        assert_eq!(d[0].range.as_ref().map(|r| r.start.line), Some(2));
        let (_, d) = parse_tfvars("v.tfvars.json", "{\"a\": 1,\n \"b\": }");
        assert_eq!(
            d[0].to_string(),
            "v.tfvars.json:2,7: Invalid JSON: The file is not valid JSON: expected value."
        );
        let (_, d) = parse_tfvars("v.tfvars.json", "[1]");
        assert_eq!(d[0].summary, "Incorrect JSON value type");
        // A -var-file with neither extension is JSON when it looks like JSON.
        let (v, d) = parse_tfvars("/dev/fd/63", "{\"a\": {\"k\": [true]}}");
        assert!(d.is_empty());
        assert_eq!(
            v[0].1,
            Ok(Value::Object(
                [("k".to_string(), Value::Array(vec![Value::Bool(true)]))]
                    .into_iter()
                    .collect()
            ))
        );
    }

    #[test]
    fn arithmetic_that_fails_is_placed_where_hcl_places_it_and_never_panics() {
        // hclsyntax/expression_ops.go BinaryOpExpr.Value: "Operation failed" at the operation,
        // "Invalid operand" at the operand that is not a number. Found by fuzzing: `0/0` here
        // tripped hcl-rs's assertion on a non-finite number, and `5 % 0` panics in any build.
        let (v, d) = parse_tfvars("t.tfvars", "a = 5 % 0\nb = 1 + (0/0)\nc = \"x\" * 2\n");
        assert_eq!(v[0].1, Ok(Value::from(5)));
        assert_eq!(
            d.iter().map(|d| d.to_string()).collect::<Vec<_>>(),
            [
                "t.tfvars:2,10: Operation failed: Error during operation: can't divide zero by zero or infinity by infinity.",
                "t.tfvars:3,5: Invalid operand: Unsuitable value for left operand: a number is required."
            ]
        );
    }

    #[test]
    fn env_inputs_take_only_tf_var_names() {
        let inputs = env_inputs([("TF_VAR_n", "3"), ("PATH", "/bin"), ("TF_VAR_", "x")]);
        assert_eq!(
            inputs,
            [
                VarInput::Env {
                    name: "".into(),
                    value: "x".into()
                },
                VarInput::Env {
                    name: "n".into(),
                    value: "3".into()
                }
            ]
        );
    }
}
