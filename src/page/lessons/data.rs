//! The lessons, in order. Words only say what our engine does and OpenTofu v1.12.6 does; every
//! answer comes from [`super::solve`].

use super::{Lesson, Rule, Source, Stage, StageMode};
use crate::builder::BuilderKind;
use crate::page::examples::Example;

pub const LESSONS: &[Lesson] = &[
    Lesson {
        id: "vertices-edges",
        title: "Vertices and edges",
        text: &[
            "The configuration's objects become vertices: resources, data sources, variables, locals, outputs, provider configurations.",
            "An edge from A to B means A depends on B, so B is dealt with first; tofu graph draws it as an arrow from A to B.",
            "In a plan graph a resource is one vertex named NAME (expand): it expands into its instances only when the graph is walked.",
        ],
        source: Source::Example("references"),
        stage: Stage {
            highlight: &["aws_eip.web (expand)"],
            ..Stage::INSPECT
        },
        question: "Click the vertex that aws_eip.web (expand) depends on.",
        rule: Rule::DependencyOf("aws_eip.web (expand)"),
        hint: "Follow the arrow that leaves aws_eip.web (expand): it points at what it depends on.",
    },
    Lesson {
        id: "references",
        title: "References and depends_on",
        text: &[
            "Writing aws_instance.web.id in another block is a reference, and a reference is enough to order the two blocks.",
            "depends_on lists more dependencies by hand, for an order no expression shows.",
            "The builder's ReferenceTransformer turns both into edges: here aws_instance.app refers to nothing, yet its depends_on orders it.",
        ],
        source: Source::Example("depends-on"),
        stage: Stage {
            highlight: &["aws_instance.app (expand)"],
            ..Stage::INSPECT
        },
        question: "Click the vertex aws_instance.app (expand) waits for because of its depends_on.",
        rule: Rule::ReferencedBy("aws_instance.app (expand)"),
        hint: "Look at main.tf: which resource does depends_on name? Its provider is an edge of another kind.",
    },
    Lesson {
        id: "transforms",
        title: "Building by transforms",
        text: &[
            "OpenTofu does not draw the graph in one go: its builder runs a fixed list of transforms, each adding or removing vertices and edges.",
            "ConfigTransformer adds the resources, ProviderTransformer connects each to its provider, ReferenceTransformer adds the references' edges, and so on.",
            "The Build steps tab replays them one at a time; the Vertex tab says which transform added each edge.",
        ],
        source: Source::Example("locals"),
        stage: Stage {
            build_step: Some("ProviderTransformer"),
            highlight: &["aws_s3_bucket.assets (expand)"],
            ..Stage::INSPECT
        },
        question: "Which transform added the edge from aws_s3_bucket.assets (expand) to its provider?",
        rule: Rule::TransformOf(
            "aws_s3_bucket.assets (expand)",
            "provider[\"registry.opentofu.org/hashicorp/aws\"]",
        ),
        hint: "Step through the build steps and watch when that edge appears.",
    },
    Lesson {
        id: "providers",
        title: "Providers and their close vertices",
        text: &[
            "Each resource depends on the provider configuration that serves it; provider = aws.west picks the aliased one.",
            "CloseProviderTransformer adds a close vertex for each provider configuration, depending on every resource that uses it: the provider is shut down only after its last user.",
            "The root vertex depends on the close vertices, so it is the last vertex of the walk.",
        ],
        source: Source::Example("providers"),
        stage: Stage {
            highlight: &["aws_s3_bucket.us (expand)"],
            ..Stage::INSPECT
        },
        question: "Click the vertex that closes the provider configuration aws_s3_bucket.us (expand) uses.",
        rule: Rule::ProviderCloseOf("aws_s3_bucket.us (expand)"),
        hint: "aws_s3_bucket.us uses the aliased configuration aws.west; its close vertex carries the same name with (close).",
    },
    Lesson {
        id: "reduction",
        title: "Transitive reduction",
        text: &[
            "When A depends on B and B on C, an edge from A to C says nothing new: A waits for C anyway.",
            "TransitiveReductionTransformer removes such edges, so the graph keeps only the ones that order something.",
            "Untick Transitive reduction above the graph to see the edges it removed, dashed.",
        ],
        source: Source::Own(Example {
            id: "lesson-reduction",
            title: "Transitive reduction",
            about: "A subnet in a VPC and an instance that refers to both.",
            kind: BuilderKind::Plan,
            files: &[(
                "main.tf",
                r#"resource "aws_vpc" "main" {
  cidr_block = "10.0.0.0/16"
}

resource "aws_subnet" "a" {
  vpc_id     = aws_vpc.main.id
  cidr_block = "10.0.1.0/24"
}

resource "aws_instance" "web" {
  subnet_id = aws_subnet.a.id
  tags      = { vpc = aws_vpc.main.id }
}
"#,
            )],
        }),
        stage: Stage {
            highlight: &["aws_instance.web (expand)"],
            ..Stage::INSPECT
        },
        question: "Which of these reference edges does transitive reduction remove?",
        rule: Rule::ReducedEdge,
        hint: "An edge goes when another path already leads from its start to its end.",
    },
    Lesson {
        id: "cycles",
        title: "Cycles",
        text: &[
            "A walk needs an order, and a graph with a cycle has none: each vertex of the cycle waits for another.",
            "OpenTofu checks the graph before walking it and stops with a Cycle error naming the vertices, found as strongly connected components (Tarjan's algorithm).",
            "Here two security groups refer to each other.",
        ],
        source: Source::Example("cycle"),
        stage: Stage::INSPECT,
        question: "Click a vertex that is part of the cycle.",
        rule: Rule::InCycle,
        hint: "A vertex is in the cycle only if following edges from it leads back to it.",
    },
    Lesson {
        id: "walk",
        title: "Topological order and the walk",
        text: &[
            "The walk runs a vertex once everything it depends on has finished, many vertices at once when they can.",
            "So the walk follows a topological order: every vertex comes after what it depends on.",
            "Here the load balancer needs the subnets, which need the VPC, which needs the provider. Press Play to watch (durations are simulated).",
        ],
        source: Source::Example("data"),
        stage: Stage {
            mode: StageMode::Walk,
            ..Stage::INSPECT
        },
        question: "Click the resource or data source that starts first in the walk.",
        rule: Rule::FirstResourceToStart,
        hint: "Which of them depends on no other resource or data source?",
    },
    Lesson {
        id: "parallelism",
        title: "Parallelism and the semaphore",
        text: &[
            "Vertices that are ready still need a permit: -parallelism (10 by default) permits are shared by the whole walk, as a semaphore.",
            "With too few, ready vertices wait and the walk takes longer; past the graph's width, more permits change nothing.",
            "Here three buckets, then three instances, can run side by side. Try walks at several settings.",
        ],
        source: Source::Example("count"),
        stage: Stage {
            mode: StageMode::Walk,
            parallelism: Some(1),
            ..Stage::INSPECT
        },
        question: "Choose the smallest -parallelism that reaches the shortest makespan.",
        rule: Rule::SmallestFastestParallelism,
        hint: "Count how many instances are ready at the same moment.",
    },
    Lesson {
        id: "critical-path",
        title: "The critical path",
        text: &[
            "The critical path is the chain of dependencies that takes longest; no parallelism makes the walk shorter than it.",
            "A vertex off that path can take a little longer without making the walk longer.",
            "The walk below marks the critical path once it has finished.",
        ],
        source: Source::Example("depends-on"),
        stage: Stage {
            mode: StageMode::Walk,
            walk: true,
            ..Stage::INSPECT
        },
        question: "Click the resource that is not on the critical path.",
        rule: Rule::OffCriticalPath,
        hint: "The critical path runs through the vertices that wait for one another longest.",
    },
    Lesson {
        id: "destroy-edges",
        title: "create_before_destroy and destroy edges",
        text: &[
            "To replace an object, the apply graph has a vertex to create the new one and one to destroy the old.",
            "By default DestroyEdgeTransformer makes the creation wait for the destruction (the Replacement example).",
            "With create_before_destroy the old object is first deposed, and CBDEdgeTransformer reverses that order: the deposed object is destroyed after the new one is created and what used it is updated.",
        ],
        source: Source::Example("replace-cbd"),
        stage: Stage {
            mode: StageMode::Walk,
            highlight: &["aws_launch_template.app"],
            ..Stage::INSPECT
        },
        question: "Which of the launch template's vertices runs first: the one that creates the new object, or the one that destroys the old?",
        rule: Rule::FirstOfResource("aws_launch_template.app"),
        hint: "Follow the edges: which of the two depends on the other, through the autoscaling group?",
    },
    Lesson {
        id: "expansion",
        title: "Modules and expansion",
        text: &[
            "A module call brings a module (expand) and a module (close) vertex; the module's objects sit between them.",
            "count and for_each are not evaluated while the graph is built: an (expand) vertex makes its instances when the walk reaches it (OpenTofu's DynamicExpand).",
            "Here the module is called twice and its subnet has count = 2.",
        ],
        source: Source::Own(Example {
            id: "lesson-expansion",
            title: "Modules and expansion",
            about: "A module called with count, holding a resource with count.",
            kind: BuilderKind::Plan,
            files: &[
                (
                    "main.tf",
                    r#"module "net" {
  source = "./modules/net"
  count  = 2
}
"#,
                ),
                (
                    "modules/net/main.tf",
                    r#"resource "aws_subnet" "a" {
  count      = 2
  cidr_block = "10.0.${count.index}.0/24"
}
"#,
                ),
            ],
        }),
        stage: Stage {
            mode: StageMode::Walk,
            highlight: &["module.net.aws_subnet.a (expand)"],
            ..Stage::INSPECT
        },
        question: "How many instances of aws_subnet.a does the walk make, in all module instances together?",
        rule: Rule::InstanceCount("module.net.aws_subnet.a (expand)"),
        hint: "Each instance of the module has its own instances of the resource.",
    },
    Lesson {
        id: "inside",
        title: "Evaluation inside a vertex",
        text: &[
            "When the walk reaches a vertex, OpenTofu runs its Execute method (an (expand) vertex's DynamicExpand makes instances that run theirs): steps that depend on the vertex's kind and the operation.",
            "For a resource instance during plan these read the provider configured earlier, the prior state and the configuration, and ask the provider for the planned change.",
            "Select a vertex: the Vertex tab lists its steps, each citing the Go function it comes from.",
        ],
        source: Source::Example("references"),
        stage: Stage {
            highlight: &["aws_instance.web (expand)"],
            ..Stage::INSPECT
        },
        question: "Which step does an instance of aws_instance.web run first in the plan walk?",
        rule: Rule::FirstStep("aws_instance.web (expand)"),
        hint: "Nothing can be asked of a provider before the instance has it.",
    },
];
