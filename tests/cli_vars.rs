//! Root variable values on the command line as OpenTofu reads them
//! (`internal/command/meta_vars.go`, `collectVariableValues`): `TF_VAR_` environment variables,
//! then `terraform.tfvars`, `terraform.tfvars.json` and `*.auto.tfvars(.json)` in lexical order,
//! then `--var` and `--var-file` in command-line order, each overriding what came before. The
//! walk expands `count` with the value that wins.

mod support;

use std::path::Path;
use support::tfgraph_env;
use support::workdir;

const MAIN: &str = "variable \"n\" {\n  type = number\n}\nresource \"null_resource\" \"r\" {\n  count = var.n\n}\n";

/// How many instances of `null_resource.r` the walk ran.
fn instances(dir: &Path, extra: &[&str], env: &[(&str, &str)]) -> usize {
    let mut args = vec!["walk", dir.to_str().unwrap()];
    args.extend_from_slice(extra);
    let (code, out, err) = tfgraph_env(&args, env);
    assert_eq!(code, 0, "{err}");
    out.lines()
        .filter(|l| l.contains("null_resource.r[") && l.ends_with("  running"))
        .count()
}

#[test]
fn each_source_overrides_the_ones_before_it() {
    let d = workdir::temp_dir("precedence");
    workdir::write(&d, "main.tf", MAIN);
    let env = [("TF_VAR_n", "1")];
    assert_eq!(instances(&d, &[], &env), 1);
    workdir::write(&d, "terraform.tfvars", "n = 2\n");
    assert_eq!(instances(&d, &[], &env), 2);
    workdir::write(&d, "terraform.tfvars.json", "{\"n\": 3}\n");
    assert_eq!(instances(&d, &[], &env), 3);
    // *.auto.tfvars(.json) after the fixed names, by name: b wins over a.
    workdir::write(&d, "b.auto.tfvars.json", "{\"n\": 5}\n");
    workdir::write(&d, "a.auto.tfvars", "n = 4\n");
    assert_eq!(instances(&d, &[], &env), 5);
    workdir::write(&d, "seven.tfvars", "n = 7\n");
    workdir::write(&d, "eight.json", "{\"n\": 8}\n");
    let seven = d.join("seven.tfvars");
    let seven = seven.to_str().unwrap();
    let eight = d.join("eight.json");
    let eight = eight.to_str().unwrap();
    assert_eq!(instances(&d, &["--var", "n=6"], &env), 6);
    // --var and --var-file: the later on the command line wins.
    assert_eq!(
        instances(&d, &["--var", "n=6", "--var-file", seven], &env),
        7
    );
    assert_eq!(
        instances(&d, &["--var-file", seven, "--var", "n=6"], &env),
        6
    );
    assert_eq!(
        instances(&d, &["--var-file", seven, "--var-file", eight], &env),
        8
    );
}

#[test]
fn every_folder_subcommand_takes_var_and_var_file() {
    let d = workdir::temp_dir("subcommands");
    workdir::write(&d, "main.tf", MAIN);
    workdir::write(&d, "two.tfvars", "n = 2\n");
    let file = d.join("two.tfvars");
    let dir = d.to_str().unwrap();
    for sub in ["graph", "steps", "walk", "layout"] {
        let (code, _, err) = tfgraph_env(
            &[
                sub,
                dir,
                "--var-file",
                file.to_str().unwrap(),
                "--var",
                "n=1",
            ],
            &[],
        );
        assert_eq!(code, 0, "{sub}: {err}");
        assert!(
            !err.contains("Error") && !err.contains("Warning"),
            "{sub}: {err}"
        );
    }
}

// internal/backend/unparsed_value.go, ParseUndeclaredVariableValues.
#[test]
fn undeclared_values_as_opentofu_reports_them() {
    let d = workdir::temp_dir("undeclared");
    workdir::write(&d, "main.tf", MAIN);
    workdir::write(&d, "terraform.tfvars", "n = 1\nregion = \"eu-west-1\"\n");
    let (code, _, err) = tfgraph_env(&["graph", d.to_str().unwrap()], &[("TF_VAR_other", "x")]);
    assert_eq!(code, 0);
    assert_eq!(
        err,
        "Warning: Value for undeclared variable: The root module does not declare a variable named \"region\" but a value was found in file \"terraform.tfvars\". If you meant to use this value, add a \"variable\" block to the configuration.\n\nTo silence these warnings, use TF_VAR_... environment variables to provide certain \"global\" settings to all configurations in your organization. To reduce the verbosity of these warnings, use the -compact-warnings option.\n"
    );
    let (code, _, err) = tfgraph_env(&["graph", d.to_str().unwrap(), "--var", "zone=a"], &[]);
    assert_eq!(code, 1);
    assert!(err.ends_with("Error: Value for undeclared variable: A variable named \"zone\" was assigned on the command line, but the root module does not declare a variable of that name. To use this value, add a \"variable\" block to the configuration.\n"), "{err}");
    let (code, _, err) = tfgraph_env(
        &["graph", d.to_str().unwrap(), "--var-file", "missing.tfvars"],
        &[],
    );
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "Error: Failed to read variables file: Given variables file missing.tfvars does not exist.\n"
    );
    workdir::write(&d, "terraform.tfvars", "n = var.x\n");
    let (code, _, err) = tfgraph_env(&["graph", d.to_str().unwrap()], &[]);
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "Error: terraform.tfvars:1,5: Variables not allowed: Variables may not be used here.\n"
    );
}
