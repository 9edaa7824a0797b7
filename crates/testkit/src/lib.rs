//! Shared test helpers: corpora loaders, oracles, proptest strategies.
