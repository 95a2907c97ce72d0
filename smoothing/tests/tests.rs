//! One integration binary, one module per topic.

#[path = "suite/cli.rs"]
mod cli;
#[path = "suite/common.rs"]
mod common;
#[path = "suite/edges.rs"]
mod edges;
#[path = "suite/errors.rs"]
mod errors;
#[path = "suite/props.rs"]
mod props;
