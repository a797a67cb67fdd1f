//! Ferry: a correspondence chess-variant service. The engine holds the rules of every
//! variant; the command line in `cli` exposes it for tools and tests.

pub mod app;
pub mod cli;
pub mod console;
pub mod discord;
pub mod engine;
pub mod picture;
pub mod rating;
pub mod render;
pub mod store;
pub mod uci;
