use super::*;

/// The first error as OpenTofu prints it: `line,col: Summary: detail`.
fn first(text: &str) -> String {
    let e = first_error(text, "main.tf").expect("an error");
    let file = SourceFile::new("main.tf", text);
    let p = file.pos(e.range.0);
    format!("{},{}: {}: {}", p.line, p.column, e.summary, e.detail)
}

#[test]
fn valid_files_have_no_errors() {
    let text = "resource \"a_b\" \"c\" {\n  x = [1, 2.5e3, -3]\n  y = { a = 1, \"b\" = var.x[0].y[*].z }\n  z = <<-EOT\n    ${upper(\"x\")} %{ if true }a%{ else }b%{ endif }\n  EOT\n  w = [for k, v in local.m : \"${k}=${v}\" if v != null]\n  # comment\n  n { m = 1 }\n}\n";
    assert_eq!(check_config(text, "main.tf"), Some(vec![]));
}

#[test]
fn an_unclosed_block_is_reported_at_its_opening_brace() {
    // The later blocks become nested in the unclosed one; HCL reports the body that meets the
    // end of the file: the first block's.
    let text = "resource \"a\" \"b\" {\n  x = 1\n\nresource \"c\" \"d\" {\n  y = 2\n}\n\noutput \"o\" {\n  value = 1\n}\n";
    assert!(
        first(text).starts_with("1,18: Unclosed configuration block: There is no closing brace")
    );
    // The body left open: `nested` is closed by the last brace, so `module` is not.
    let text =
        "locals {\n  a = 1\n}\nmodule \"m\" {\n  source = \"./m\"\n  nested {\n    x = 1\n}\n";
    assert!(first(text).starts_with("4,12: Unclosed configuration block"));
}

#[test]
fn block_headers() {
    assert_eq!(
        first("resource \"a\" \"b\"\n{\n}\n"),
        "1,17: Invalid block definition: A block definition must have block content delimited by \"{\" and \"}\", starting on the same line as the block header."
    );
    // A top-level argument is syntax HCL accepts (OpenTofu refuses it later, by schema).
    assert_eq!(check_config("locals = {\n}\n", "main.tf"), Some(vec![]));
    assert_eq!(
        first("a b = 1\n"),
        "1,5: Invalid block definition: The equals sign \"=\" indicates an argument definition, and must not be used when defining a block."
    );
}

#[test]
fn templates_and_strings() {
    assert_eq!(
        first("locals {\n  a = \"%{ if x }a%{ endfor }\"\n}\n"),
        "2,18: Unexpected endfor directive: Expecting an endif directive for the if started at main.tf:2,8-17."
    );
    assert_eq!(
        first("locals {\n  a = \"\\q\"\n}\n"),
        "2,8: Invalid escape sequence: The symbol \"q\" is not a valid escape sequence selector."
    );
    assert_eq!(
        first("locals {\n  a = \"x\n}\n"),
        "2,9: Invalid multi-line string: Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape to represent a newline character or use the \"heredoc\" multi-line template syntax."
    );
    assert_eq!(
        first("locals {\n  a = \"${x\"\n}\n"),
        "2,8: Unclosed template interpolation sequence: There is no closing brace for this interpolation sequence before the end of the quoted template. This might be caused by incorrect nesting inside the given expression."
    );
}

#[test]
fn expressions() {
    assert_eq!(
        first("locals {\n  a = f(1 2)\n}\n"),
        "2,11: Missing argument separator: A comma is required to separate each function argument from the next."
    );
    assert_eq!(
        first("locals {\n  a = { b c }\n}\n"),
        "2,11: Missing key/value separator: Expected an equals sign (\"=\") to mark the beginning of the attribute value. If you intended to given an attribute name containing periods or spaces, write the name in quotes to create a string literal."
    );
    assert_eq!(
        first("locals {\n  a = 1 & 2\n}\n"),
        "2,9: Unsupported operator: Bitwise operators are not supported. Did you mean boolean AND (\"&&\")?"
    );
    assert_eq!(
        first("locals {\n  a = [1,\n"),
        "3,1: Missing expression: Expected the start of an expression, but found the end of the file."
    );
}

#[test]
fn deep_nesting_gives_up_without_overflowing() {
    let text = format!("a = {}1{}\n", "(".repeat(100_000), ")".repeat(100_000));
    assert_eq!(check_config(&text, "main.tf"), None);
    let text = format!("a = {}\n", "[".repeat(100_000));
    assert_eq!(check_config(&text, "main.tf"), None);
    let text = format!("{}\n", "b {\n".repeat(100_000));
    assert_eq!(check_config(&text, "main.tf"), None);
}

#[test]
fn an_unclosed_index_is_reported_where_recovery_stops() {
    // hclsyntax's subject points at the token variable that recovery then overwrites.
    assert_eq!(
        first("a = b[r\n}\n"),
        "3,1: Missing close bracket on index: The index operator must end with a closing bracket (\"]\")."
    );
}

#[test]
fn nesting_up_to_the_limit_fits_in_a_small_stack() {
    // The web app runs on wasm32's 1 MiB stack, shared with everything else; the checker must
    // reach its own limit (and give up there) within half of it, in every nesting shape, even
    // unoptimised.
    let depth = MAX_DEPTH - 2;
    let shapes = [
        format!("a = {}1{}\n", "(".repeat(depth), ")".repeat(depth)),
        format!("a = {}1{}\n", "[".repeat(depth), "]".repeat(depth)),
        format!("a = {}1{}\n", "{x = ".repeat(depth), "}".repeat(depth)),
        format!("a = {}1\n", "-".repeat(depth)),
        format!("a = \"{}x{}\"\n", "${\"".repeat(depth), "\"}".repeat(depth)),
        format!("{}{}", "b {\n".repeat(depth), "}\n".repeat(depth)),
        format!(
            "a = \"{}x{}\"\n",
            "%{ if true }".repeat(depth),
            "%{ endif }".repeat(depth)
        ),
        format!("a = {} (\n", "f(".repeat(depth)),
    ];
    for text in shapes {
        let t = text.clone();
        let r = std::thread::Builder::new()
            .stack_size(1 << 19)
            .spawn(move || check_config(&t, "main.tf").map(|e| e.len()))
            .unwrap()
            .join();
        assert!(r.is_ok(), "overflowed on {}", &text[..40]);
    }
}
