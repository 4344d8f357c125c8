//! Provider vertices:
//!
//! - `NodeApplyableProvider` (`node_provider.go`): `provider["registry.opentofu.org/hashicorp/aws"]`;
//!   starts and configures the provider plugin (validates its configuration in validate walks);
//!   every resource that uses it has an edge to it, so it is ready before they run;
//! - `NodeEvalableProvider` (`node_provider_eval.go`): a provider with no configuration that is
//!   only needed for its provider-defined functions; started, never configured;
//! - `graphNodeProxyProvider` (`transform_provider.go`): stands for a configuration passed into a
//!   module; it has no `Execute`;
//! - `graphNodeCloseProvider` (`transform_provider.go`): `provider[…] (close)`, which stops the
//!   plugin once every vertex using it is done.

use super::common::*;
use super::types::{Evaluation, GoNode, GoRef, Item, Operation, Step, StepKind};

const FILE: &str = "node_provider.go";

const BUILD_CONFIG: Step = step(
    "build-config",
    "Gather the configuration",
    "Take the provider block's body (an empty one when the configuration has no provider block), \
     merged with anything entered interactively.",
    &[Item::Config],
    &[],
    GoRef::new("eval_provider.go", "buildProviderConfig"),
    StepKind::Bookkeeping,
);

const GET_SCHEMA: Step = step(
    "get-schema",
    "Get the provider's schema",
    "Ask the provider plugin for the schema of its configuration block.",
    &[Item::Provider],
    &[],
    GoRef::new(FILE, "NodeApplyableProvider.ConfigureProvider"),
    StepKind::Bookkeeping,
);

const EVALUATE: Step = step(
    "evaluate-config",
    "Evaluate the arguments",
    "Evaluate the provider block's arguments (region = var.region, ...) through the evaluation \
     context, once per instance of the configuration.",
    &[Item::Config, Item::Values],
    &[],
    GoRef::new(FILE, "NodeApplyableProvider.ConfigureProvider"),
    StepKind::Evaluate,
);

const CONFIGURE: Step = step(
    "configure",
    "Start and configure the provider",
    "Start the provider plugin and send it the configuration (ConfigureProvider); every vertex \
     that uses the provider waits for this through its edge.",
    &[Item::Config],
    &[Item::Provider],
    GoRef::new(FILE, "NodeApplyableProvider.ConfigureProvider"),
    StepKind::Provider,
);

const START_FOR_VALIDATE: Step = step(
    "start",
    "Start the provider",
    "Start the provider plugin without configuring it: validation needs only its schema and its \
     checks.",
    &[],
    &[Item::Provider],
    GoRef::new(FILE, "NodeApplyableProvider.Execute"),
    StepKind::Provider,
);

const VALIDATE_EVALUATE: Step = step(
    "evaluate-config",
    "Evaluate the arguments",
    "Evaluate the provider block's arguments through the evaluation context (an empty block is \
     not validated).",
    &[Item::Config, Item::Values],
    &[],
    GoRef::new(FILE, "NodeApplyableProvider.ValidateProvider"),
    StepKind::Evaluate,
);

const VALIDATE: Step = step(
    "provider-validate",
    "Ask the provider to validate",
    "Send the evaluated configuration to the provider (ValidateProviderConfig) for its checks.",
    &[Item::Provider],
    &[],
    GoRef::new(FILE, "NodeApplyableProvider.ValidateProvider"),
    StepKind::Check,
);

/// `NodeApplyableProvider`: configure (plan, apply, destroy, refresh-only) or validate.
pub fn applyable(op: Operation) -> Evaluation {
    let steps = if op == Operation::Validate {
        vec![
            START_FOR_VALIDATE,
            BUILD_CONFIG,
            VALIDATE_EVALUATE,
            VALIDATE,
        ]
    } else {
        vec![BUILD_CONFIG, GET_SCHEMA, EVALUATE, CONFIGURE]
    };
    Evaluation::new(GoNode::ApplyableProvider, op, steps)
}

const START_UNCONFIGURED: Step = step(
    "start",
    "Start the provider",
    "Start the provider plugin without configuring it, only so that its provider-defined \
     functions can be called.",
    &[],
    &[Item::Provider],
    GoRef::new("node_provider_eval.go", "NodeEvalableProvider.Execute"),
    StepKind::Provider,
);

/// `NodeEvalableProvider`: the same in every walk.
pub fn evalable(op: Operation) -> Evaluation {
    Evaluation::new(GoNode::EvalableProvider, op, vec![START_UNCONFIGURED])
}

const PROXY_VISIT: Step = step(
    "visit",
    "Nothing to run",
    "A proxy only stood for the parent module's provider while the graph was built; the walker \
     visits it and moves on.",
    &[],
    &[],
    GoRef::new("graph.go", "Graph.walk"),
    StepKind::Bookkeeping,
);

/// `graphNodeProxyProvider`: no `Execute`.
pub fn proxy(op: Operation) -> Evaluation {
    Evaluation::new(GoNode::ProxyProvider, op, vec![PROXY_VISIT])
}

const CLOSE: Step = step(
    "close",
    "Stop the provider",
    "Stop the provider plugin: everything that uses it has finished (the close vertex depends on \
     all of them).",
    &[Item::Provider],
    &[],
    GoRef::new("transform_provider.go", "graphNodeCloseProvider.Execute"),
    StepKind::Bookkeeping,
);

/// `graphNodeCloseProvider`: the same in every walk.
pub fn close(op: Operation) -> Evaluation {
    Evaluation::new(GoNode::CloseProvider, op, vec![CLOSE])
}
