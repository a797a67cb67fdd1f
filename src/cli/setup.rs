//! What every position command starts from: a variant, its options and a position, as
//! arguments (`Setup`) and checked (`Start`).

use super::failure::Failure;
use crate::engine::{variant, variants, Options, Position, Variant};
use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::Args;

/// Variant ids, checked (with suggestions) and completed by clap.
pub(super) fn variant_parser() -> impl TypedValueParser<Value = &'static Variant> {
    PossibleValuesParser::new(variants().iter().map(|v| v.id)).try_map(|id| variant(&id))
}

/// What every position command starts from: a variant, its options, a position.
#[derive(Args)]
pub(super) struct Setup {
    /// The variant: continental, river, xiangqi, shogi, ... (see `ferry variants`)
    #[arg(value_name = "VARIANT", ignore_case = true, value_parser = variant_parser(), hide_possible_values = true)]
    pub(super) variant: &'static Variant,
    /// The start position, as position text [default: the variant's start]
    #[arg(long, value_name = "TEXT")]
    pub(super) fen: Option<String>,
    /// A variant option, KEY=VALUE or KEY:VALUE; repeat for more
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub(super) sets: Vec<String>,
}

/// A checked setup: the variant, its options and the start position.
pub(super) struct Start {
    pub(super) variant: &'static Variant,
    pub(super) options: Options,
    pub(super) position: Box<dyn Position>,
}

impl Setup {
    /// The variant's options and start position, checked.
    pub(super) fn start(&self) -> Result<Start, Failure> {
        // KEY=VALUE, or KEY:VALUE as in the chat.
        let options = self
            .variant
            .options(&self.sets)
            .map_err(|e| Failure::bad(e.to_string()))?;
        let position = match &self.fen {
            Some(text) => self
                .variant
                .parse(text, &options)
                .map_err(|e| Failure::bad(format!("bad position text: {e}")))?,
            None => self.variant.start(&options),
        };
        Ok(Start {
            variant: self.variant,
            options,
            position,
        })
    }
}
