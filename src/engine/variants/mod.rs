//! One module per variant. `ALL` lists them in the order players see.

use super::variant::Variant;

pub mod continental;

pub static ALL: &[&Variant] = &[&continental::VARIANT];
