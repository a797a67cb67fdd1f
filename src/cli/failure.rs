//! How a command of the command line fails: one line to say why, and its exit status.

/// A command that could not run: its one-line message and exit status.
pub(super) struct Failure {
    pub(super) message: String,
    pub(super) code: i32,
}

impl Failure {
    pub(super) fn bad(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            code: 2,
        }
    }
}

/// A failure to write the command's output.
pub(super) fn io(e: std::io::Error) -> Failure {
    Failure {
        message: format!("cannot write: {e}"),
        code: 1,
    }
}
