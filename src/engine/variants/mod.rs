//! One module per variant. `ALL` lists them in the order players see.

use super::variant::Variant;

pub mod amalgamated;
pub mod continental;
pub mod fluidity;
pub mod river;

pub static ALL: &[&Variant] = &[
    &amalgamated::VARIANT,
    &continental::VARIANT,
    &fluidity::VARIANT,
    &river::VARIANT,
];
