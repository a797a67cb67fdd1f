//! One module per variant. `ALL` lists them in the order players see.

use super::variant::Variant;

pub mod amalgamated;
pub mod continental;
pub mod defined;
pub mod fluidity;
pub mod little_river;
pub mod river;

pub static ALL: &[&Variant] = &[
    &little_river::VARIANT,
    &amalgamated::VARIANT,
    &continental::VARIANT,
    &fluidity::VARIANT,
    &river::VARIANT,
];
