//! A working directory after `tofu init` opened through the Folder input.

use crate::harness::*;

/// The working directory of `tests/support/workdir.rs` (terraform-aws-vpc installed three times,
/// a nested registry call, a provider binary, a lock file) with the walk test's
/// `terraform.tfvars`, opened through the Folder input of the release bundle; then a repository
/// with two root modules and a call that is not installed. Screenshots at desktop and phone sizes.
#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs dist/ from `trunk build --release`, Chromium and chromedriver: run by scripts/test"]
async fn working_directories_open_through_the_folder_input() {
    use support::workdir;
    let vpc = workdir::tree_files(&support::realworld().join("terraform-aws-vpc"));
    let mut files = workdir::vpc_workdir_files(&vpc);
    files.push(("terraform.tfvars".into(), workdir::VPC_TFVARS.into()));
    let (_, _, _driver, c) = open_app().await;
    open_folder(&c, "wd", &files).await;
    // 2,040 vertices: it opens with its three module calls collapsed (`COLLAPSE_ABOVE`).
    wait_count(&c, "#expand-all", 1).await;
    let collapsed = texts(&c, ".graph-svg g.vertex").await.len();
    assert!((3..100).contains(&collapsed), "{collapsed} vertices drawn");
    tokio::time::sleep(Duration::from_millis(800)).await;
    screenshot(&c, "app-workdir-collapsed.png").await;
    click(&c, "#expand-all").await;
    let drawn = wait_vertices(&c, 2000, 120).await;
    assert_eq!(drawn, 2040);
    let notices = texts(&c, ".notice").await;
    assert!(
        notices.iter().any(|n| n.starts_with(
            "Skipped 5 files without reading them (130.6 KB), as tfgraph does not use them: "
        )),
        "{notices:?}"
    );
    assert!(texts(&c, ".diagnostic.error").await.is_empty());
    // Let the fit settle, then look at it.
    tokio::time::sleep(Duration::from_millis(800)).await;
    screenshot(&c, "app-workdir.png").await;
    c.set_window_size(390, 844).await.expect("small window");
    tokio::time::sleep(Duration::from_millis(800)).await;
    screenshot(&c, "app-workdir-small.png").await;
    c.set_window_size(1400, 900).await.expect("window size");

    let repo: Vec<(String, Vec<u8>)> = [
        (
            "main.tf",
            "variable \"n\" {\n  default = 1\n}\nmodule \"vpc\" {\n  source = \"terraform-aws-modules/vpc/aws\"\n  cidr   = \"10.0.0.0/16\"\n}\nmodule \"eks\" {\n  source = \"terraform-aws-modules/eks/aws\"\n  vpc_id = module.vpc.vpc_id\n}\nresource \"aws_instance\" \"web\" {\n  count     = var.n\n  subnet_id = module.vpc.vpc_id\n}\noutput \"cluster\" {\n  value = module.eks.cluster_name\n}\n",
        ),
        ("terraform.tfvars", "n = 2\n"),
        ("prod.tfvars", "n = 5\n"),
        (
            "examples/one/main.tf",
            "variable \"k\" {}\nresource \"aws_s3_bucket\" \"b\" {\n  count = var.k\n}\n",
        ),
        ("examples/one/terraform.tfvars", "k = 3\n"),
        ("README.md", "# a module\n"),
    ]
    .into_iter()
    .map(|(p, t)| (p.to_string(), t.as_bytes().to_vec()))
    .collect();
    open_folder(&c, "repo", &repo).await;
    wait_texts(&c, "#root-module option", &[".", "examples/one"]).await;
    wait_count(&c, ".graph-svg g.vertex.not-installed", 4).await;
    assert_eq!(texts(&c, ".not-installed-note").await.len(), 1);
    tokio::time::sleep(Duration::from_millis(800)).await;
    screenshot(&c, "app-repo-not-installed.png").await;
}
