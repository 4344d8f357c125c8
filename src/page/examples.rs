//! The examples gallery: small configurations that each show one thing about graphs. Each is
//! built by the engine in a test here, so none of them can stop building unnoticed.

use crate::builder::BuilderKind;

/// The example loaded on first visit: small, but it shows references, a data source, a variable and
/// an output, so the first graph has something to say.
pub const EXAMPLE: &str = r#"variable "region" {
  default = "eu-west-1"
}

provider "aws" {
  region = var.region
}

data "aws_ami" "ubuntu" {
  most_recent = true
}

resource "aws_instance" "web" {
  ami           = data.aws_ami.ubuntu.id
  instance_type = "t3.micro"
}

resource "aws_eip" "web" {
  instance = aws_instance.web.id
}

output "public_ip" {
  value = aws_eip.web.public_ip
}
"#;

/// One example: a title, one sentence, and its files (path relative to the root module).
pub struct Example {
    pub id: &'static str,
    pub title: &'static str,
    pub about: &'static str,
    /// The graph builder the example is shown with.
    pub kind: BuilderKind,
    pub files: &'static [(&'static str, &'static str)],
}

pub const EXAMPLES: &[Example] = &[
    Example {
        id: "references",
        title: "Implicit references",
        about: "Referring to another object's attribute is enough to order the two: no depends_on needed.",
        kind: BuilderKind::Plan,
        files: &[("main.tf", EXAMPLE)],
    },
    Example {
        id: "depends-on",
        title: "depends_on",
        about: "An explicit depends_on orders things that share no reference, here a policy the app needs at run time.",
        kind: BuilderKind::Plan,
        files: &[(
            "main.tf",
            r#"resource "aws_iam_role_policy" "logs" {
  role   = "app"
  policy = "{}"
}

resource "aws_instance" "app" {
  ami           = "ami-123"
  instance_type = "t3.small"

  depends_on = [aws_iam_role_policy.logs]
}

resource "aws_s3_bucket" "assets" {
  bucket = "assets"
}
"#,
        )],
    },
    Example {
        id: "providers",
        title: "Providers and aliases",
        about: "Each resource connects to the provider configuration that serves it; provider = aws.west picks the alias.",
        kind: BuilderKind::Plan,
        files: &[(
            "main.tf",
            r#"provider "aws" {
  region = "eu-west-1"
}

provider "aws" {
  alias  = "west"
  region = "us-west-2"
}

resource "aws_s3_bucket" "eu" {
  bucket = "logs-eu"
}

resource "aws_s3_bucket" "us" {
  provider = aws.west
  bucket   = "logs-us"
}
"#,
        )],
    },
    Example {
        id: "modules",
        title: "Modules and provider inheritance",
        about: "The module's resources sit in a box between its expand and close vertices and use the provider the root configures.",
        kind: BuilderKind::Plan,
        files: &[
            (
                "main.tf",
                r#"provider "aws" {
  region = "eu-west-1"
}

variable "cidr" {
  default = "10.0.0.0/16"
}

module "net" {
  source = "./modules/net"
  cidr   = var.cidr
}

resource "aws_instance" "app" {
  ami       = "ami-123"
  subnet_id = module.net.subnet_id
}
"#,
            ),
            (
                "modules/net/main.tf",
                r#"variable "cidr" {}

resource "aws_vpc" "this" {
  cidr_block = var.cidr
}

resource "aws_subnet" "a" {
  vpc_id     = aws_vpc.this.id
  cidr_block = cidrsubnet(var.cidr, 8, 1)
}

output "subnet_id" {
  value = aws_subnet.a.id
}
"#,
            ),
        ],
    },
    Example {
        id: "count",
        title: "count and for_each",
        about: "A resource with count or for_each is still one vertex in the graph: it expands into instances while the graph is walked.",
        kind: BuilderKind::Plan,
        files: &[(
            "main.tf",
            r#"variable "names" {
  default = ["a", "b", "c"]
}

resource "aws_s3_bucket" "per_name" {
  for_each = toset(var.names)
  bucket   = each.key
}

resource "aws_instance" "workers" {
  count = 3
  ami   = "ami-123"
  tags  = { bucket = aws_s3_bucket.per_name["a"].id }
}

output "worker_ids" {
  value = aws_instance.workers[*].id
}
"#,
        )],
    },
    Example {
        id: "data",
        title: "Data sources",
        about: "A data source is read during planning, so whatever uses its result waits for it.",
        kind: BuilderKind::Plan,
        files: &[(
            "main.tf",
            r#"data "aws_vpc" "default" {
  default = true
}

data "aws_subnets" "all" {
  filter {
    name   = "vpc-id"
    values = [data.aws_vpc.default.id]
  }
}

resource "aws_lb" "front" {
  subnets = data.aws_subnets.all.ids
}
"#,
        )],
    },
    Example {
        id: "locals",
        title: "Locals and outputs",
        about: "Local values and outputs are vertices too, so a chain of locals is a chain in the graph.",
        kind: BuilderKind::Plan,
        files: &[(
            "main.tf",
            r#"variable "env" {
  default = "prod"
}

locals {
  prefix = "app-${var.env}"
  bucket = "${local.prefix}-assets"
}

resource "aws_s3_bucket" "assets" {
  bucket = local.bucket
}

output "bucket" {
  value = aws_s3_bucket.assets.id
}
"#,
        )],
    },
    Example {
        id: "cycle",
        title: "A cycle",
        about: "Two resources that each depend on the other cannot be ordered: the build stops with a Cycle error.",
        kind: BuilderKind::Plan,
        files: &[(
            "main.tf",
            r#"resource "aws_security_group" "a" {
  name = "a"
  tags = { peer = aws_security_group.b.id }
}

resource "aws_security_group" "b" {
  name = "b"
  tags = { peer = aws_security_group.a.id }
}

resource "aws_instance" "app" {
  vpc_security_group_ids = [aws_security_group.a.id]
}
"#,
        )],
    },
    Example {
        id: "orphans",
        title: "Orphans from state",
        about: "The state remembers aws_instance.old, which the configuration no longer has: the plan adds an orphan vertex to destroy it (try plan-destroy too).",
        kind: BuilderKind::Plan,
        files: &[
            (
                "main.tf",
                r#"resource "aws_instance" "web" {
  ami = "ami-123"
}
"#,
            ),
            (
                "terraform.tfstate",
                r#"{
  "version": 4,
  "terraform_version": "1.12.6",
  "serial": 3,
  "lineage": "example",
  "outputs": {},
  "resources": [
    {
      "mode": "managed",
      "type": "aws_instance",
      "name": "web",
      "provider": "provider[\"registry.opentofu.org/hashicorp/aws\"]",
      "instances": [{ "schema_version": 0, "attributes": { "id": "i-1" } }]
    },
    {
      "mode": "managed",
      "type": "aws_instance",
      "name": "old",
      "provider": "provider[\"registry.opentofu.org/hashicorp/aws\"]",
      "instances": [{ "schema_version": 0, "attributes": { "id": "i-0" } }]
    }
  ]
}
"#,
            ),
        ],
    },
    Example {
        id: "replace",
        title: "Replacement: destroy, then create",
        about: "A launch template that must be replaced is destroyed before its successor is created (the apply graph, with a state and a plan): for a while there is none.",
        kind: BuilderKind::Apply,
        files: &[
            (
                "main.tf",
                r#"resource "aws_launch_template" "app" {
  image_id      = "ami-new"
  instance_type = "t3.micro"
}

resource "aws_autoscaling_group" "app" {
  max_size = 3
  min_size = 1

  launch_template {
    id = aws_launch_template.app.id
  }
}
"#,
            ),
            ("terraform.tfstate", REPLACE_STATE),
            (
                "plan.json",
                r#"{
  "format_version": "1.2",
  "terraform_version": "1.12.6",
  "resource_changes": [
    {
      "address": "aws_launch_template.app",
      "mode": "managed",
      "type": "aws_launch_template",
      "name": "app",
      "provider_name": "registry.opentofu.org/hashicorp/aws",
      "change": { "actions": ["delete", "create"] },
      "action_reason": "replace_because_cannot_update"
    },
    {
      "address": "aws_autoscaling_group.app",
      "mode": "managed",
      "type": "aws_autoscaling_group",
      "name": "app",
      "provider_name": "registry.opentofu.org/hashicorp/aws",
      "change": { "actions": ["update"] }
    }
  ]
}
"#,
            ),
        ],
    },
    Example {
        id: "replace-cbd",
        title: "Replacement with create_before_destroy",
        about: "With create_before_destroy the new launch template is created first, the group is moved to it, and only then is the old one destroyed (as a deposed object).",
        kind: BuilderKind::Apply,
        files: &[
            (
                "main.tf",
                r#"resource "aws_launch_template" "app" {
  image_id      = "ami-new"
  instance_type = "t3.micro"

  lifecycle {
    create_before_destroy = true
  }
}

resource "aws_autoscaling_group" "app" {
  max_size = 3
  min_size = 1

  launch_template {
    id = aws_launch_template.app.id
  }
}
"#,
            ),
            ("terraform.tfstate", REPLACE_STATE),
            (
                "plan.json",
                r#"{
  "format_version": "1.2",
  "terraform_version": "1.12.6",
  "resource_changes": [
    {
      "address": "aws_launch_template.app",
      "mode": "managed",
      "type": "aws_launch_template",
      "name": "app",
      "provider_name": "registry.opentofu.org/hashicorp/aws",
      "change": { "actions": ["create", "delete"] },
      "action_reason": "replace_because_cannot_update"
    },
    {
      "address": "aws_autoscaling_group.app",
      "mode": "managed",
      "type": "aws_autoscaling_group",
      "name": "app",
      "provider_name": "registry.opentofu.org/hashicorp/aws",
      "change": { "actions": ["update"] }
    }
  ]
}
"#,
            ),
        ],
    },
];

/// The state both replacement examples start from: the template and the group that uses it.
const REPLACE_STATE: &str = r#"{
  "version": 4,
  "terraform_version": "1.12.6",
  "serial": 7,
  "lineage": "example",
  "outputs": {},
  "resources": [
    {
      "mode": "managed",
      "type": "aws_launch_template",
      "name": "app",
      "provider": "provider[\"registry.opentofu.org/hashicorp/aws\"]",
      "instances": [{ "schema_version": 0, "attributes": { "id": "lt-1", "image_id": "ami-old" } }]
    },
    {
      "mode": "managed",
      "type": "aws_autoscaling_group",
      "name": "app",
      "provider": "provider[\"registry.opentofu.org/hashicorp/aws\"]",
      "instances": [
        {
          "schema_version": 0,
          "attributes": { "id": "asg-1" },
          "dependencies": ["aws_launch_template.app"]
        }
      ]
    }
  ]
}
"#;

/// The files of an example, by path.
pub fn files_of(e: &Example) -> std::collections::BTreeMap<String, String> {
    e.files
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect()
}

/// The example whose files these are, untouched (the gallery marks it as the one shown).
pub fn shown_example(files: &std::collections::BTreeMap<String, String>) -> Option<&'static str> {
    EXAMPLES
        .iter()
        .find(|e| {
            e.files.len() == files.len()
                && e.files
                    .iter()
                    .all(|(p, t)| files.get(*p).is_some_and(|f| f == t))
        })
        .map(|e| e.id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::analysis::{Options, analyze};

    #[test]
    fn every_example_builds_with_its_graph_type() {
        let mut ids = std::collections::BTreeSet::new();
        for e in EXAMPLES {
            assert!(ids.insert(e.id), "two examples are called {}", e.id);
            let a = analyze(&files_of(e), e.kind, &Options::default());
            let g = a
                .graph
                .as_ref()
                .unwrap_or_else(|| panic!("{}: {:?}", e.id, a.errors));
            assert!(g.len() > 1, "{}", e.id);
            if e.id == "cycle" {
                assert!(!a.cycles.is_empty(), "the cycle example has a cycle");
            } else {
                assert!(a.errors.is_empty(), "{}: {:?}", e.id, a.errors);
            }
        }
        assert_eq!(EXAMPLES[0].files, &[("main.tf", EXAMPLE)]);
    }

    #[test]
    fn the_shown_example_is_the_one_whose_files_are_untouched() {
        for e in EXAMPLES {
            assert_eq!(shown_example(&files_of(e)), Some(e.id));
        }
        let mut edited = files_of(&EXAMPLES[0]);
        edited.values_mut().for_each(|t| t.push_str("# mine\n"));
        assert_eq!(shown_example(&edited), None);
        let mut more = files_of(&EXAMPLES[0]);
        more.insert("extra.tf".into(), String::new());
        assert_eq!(shown_example(&more), None);
    }
}
