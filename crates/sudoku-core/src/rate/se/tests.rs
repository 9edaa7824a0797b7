//! Tests of the Explainer-style rater: every step checked against the unique
//! solution, and the agreement with Explainer's published ratings on a slice
//! of the calibration list (`testdata/rate/se_slice.tsv`).
