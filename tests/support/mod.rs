//! Code shared by the integration tests (and, by path, the fuzz targets).
//! Each test binary uses part of it.
#![allow(dead_code)]

pub mod dkg;
pub mod dudect;
pub mod modes;
pub mod module_graph;
pub mod replay_rng;
pub mod rsa_keys;
pub mod threshold;
