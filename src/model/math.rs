//! Math shared by the model's stages.

/// The logistic function 1 / (1 + e^-z). O(1).
#[inline]
pub fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}
