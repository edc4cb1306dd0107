//! Code shared by the integration tests (and, by path, the fuzz targets).

pub mod replay_rng;
