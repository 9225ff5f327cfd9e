//! `BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = ..., LANGUAGE = ...)`,
//! the body of a natively compiled procedure. The block is atomic: without
//! a user transaction it is one, committed at its end; inside one it is a
//! savepoint. Any error ends the block and undoes all of it (an error that
//! dooms the transaction, such as a write conflict, dooms the caller's
//! too), then goes to the caller as the procedure's error.

use super::failure::Failure;
use super::{Flow, Frame, Interpreter};
use hekla_parser::ast;
use hekla_plan::catalog::procedure::is_option;
use hekla_types::{SqlError, SqlResult};

impl Interpreter<'_> {
    pub(super) fn atomic(
        &mut self,
        options: &[ast::OptionItem],
        body: &[ast::Statement],
        frame: &mut Frame,
    ) -> Result<Flow, Failure> {
        let isolation =
            isolation_level(options).map_err(|error| self.frame_failure(error, frame))?;
        let delayed = delayed_durability(options);
        let outer_isolation = std::mem::replace(&mut self.session.options.isolation, isolation);
        let outer_block = std::mem::replace(&mut self.session.options.atomic_block, true);
        let outcome = if self.session.transaction.is_open() {
            self.inside_transaction(body, frame)
        } else {
            self.as_transaction(body, delayed, frame)
        };
        self.session.options.isolation = outer_isolation;
        self.session.options.atomic_block = outer_block;
        outcome
    }

    /// The block as a transaction of its own; `delayed` asks for its commit
    /// to be delayed-durable.
    fn as_transaction(
        &mut self,
        body: &[ast::Statement],
        delayed: bool,
        frame: &mut Frame,
    ) -> Result<Flow, Failure> {
        let transaction = &mut self.session.transaction;
        transaction
            .begin(None)
            .expect("an unnamed BEGIN cannot fail");
        let outcome = self.run_atomically(body, frame);
        let transaction = &mut self.session.transaction;
        match outcome {
            Ok(flow) => match transaction.commit(delayed) {
                Ok(()) => Ok(flow),
                Err(error) => Err(self.frame_failure(error, frame)),
            },
            Err(failure) => {
                transaction.roll_back_all();
                Err(failure)
            }
        }
    }

    /// The block as a savepoint of the caller's transaction.
    fn inside_transaction(
        &mut self,
        body: &[ast::Statement],
        frame: &mut Frame,
    ) -> Result<Flow, Failure> {
        let db = std::sync::Arc::clone(&self.session.db);
        let isolation = self.session.engine_isolation();
        let savepoint = self
            .session
            .transaction
            .mark(db.engine(), isolation)
            .map_err(|error| self.frame_failure(error, frame))?;
        let outcome = self.run_atomically(body, frame);
        if outcome.is_err() {
            self.session.transaction.undo_to(savepoint);
        }
        outcome
    }

    /// Runs the statements; the first error ends the block (unreported:
    /// the caller reports it).
    fn run_atomically(
        &mut self,
        body: &[ast::Statement],
        frame: &mut Frame,
    ) -> Result<Flow, Failure> {
        self.atomic_blocks += 1;
        let outcome = self.block(body, frame);
        self.atomic_blocks -= 1;
        outcome
    }
}

/// `DELAYED_DURABILITY = ON` among the block's options.
fn delayed_durability(options: &[ast::OptionItem]) -> bool {
    options.iter().any(|option| {
        is_option(option, "DELAYED_DURABILITY")
            && matches!(&option.value, Some(ast::OptionValue::Words(words))
                if words.len() == 1 && words[0].value.eq_ignore_ascii_case("ON"))
    })
}

/// The block's TRANSACTION ISOLATION LEVEL (SNAPSHOT, REPEATABLE READ or
/// SERIALIZABLE, as memory-optimized tables support).
fn isolation_level(options: &[ast::OptionItem]) -> SqlResult<ast::IsolationLevel> {
    let option = options
        .iter()
        .find(|o| is_option(o, "TRANSACTION ISOLATION LEVEL"));
    let words = match option.and_then(|o| o.value.as_ref()) {
        Some(ast::OptionValue::Words(words)) => words
            .iter()
            .map(|w| w.value.to_ascii_uppercase())
            .collect::<Vec<_>>()
            .join(" "),
        _ => String::new(),
    };
    match words.as_str() {
        "SNAPSHOT" => Ok(ast::IsolationLevel::Snapshot),
        "REPEATABLE READ" => Ok(ast::IsolationLevel::RepeatableRead),
        "SERIALIZABLE" => Ok(ast::IsolationLevel::Serializable),
        _ => Err(SqlError::new(
            10794,
            16,
            1,
            format!("The isolation level '{words}' is not supported for an ATOMIC block: use SNAPSHOT, REPEATABLE READ or SERIALIZABLE."),
        )),
    }
}
