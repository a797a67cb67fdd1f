//! One module per variant. `ALL` lists them in the order players see.

use super::variant::Variant;

pub mod amalgamated;
pub mod continental;
pub mod river;

pub static ALL: &[&Variant] = &[
    &amalgamated::VARIANT,
    &continental::VARIANT,
    &river::VARIANT,
];
