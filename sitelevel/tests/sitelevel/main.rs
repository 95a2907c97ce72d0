//! Integration tests for sitelevel: one binary, one module per topic. Every tree is built here.

mod common;
mod deep;
mod determinism;
mod hashing;
mod labels;
mod share_rule;
mod simple_tree;
mod site;
mod theta;
