//! The parts of requests other than RPC: ALL_HEADERS, SQL batch text and
//! transaction-manager requests (MS-TDS 2.2.6.7, 2.2.6.9).

use crate::wire::{utf16_to_string, ProtocolError, Reader, WireResult};

/// Skips ALL_HEADERS (transaction descriptor, query notifications, trace
/// activity): hekla keeps one transaction per connection and needs none of
/// them, but their lengths are checked.
pub fn skip_all_headers(reader: &mut Reader) -> WireResult<()> {
    let total = reader.u32()? as usize;
    if total < 4 {
        return Err(ProtocolError::new("ALL_HEADERS shorter than its length"));
    }
    let mut headers = Reader::new(reader.take(total - 4)?);
    while !headers.is_empty() {
        let length = headers.u32()? as usize;
        if length < 6 {
            return Err(ProtocolError::new(
                "header shorter than its length and type",
            ));
        }
        headers.take(length - 4)?;
    }
    Ok(())
}

/// A SQL batch's text.
pub fn batch_text(payload: &[u8]) -> WireResult<String> {
    let mut reader = Reader::new(payload);
    skip_all_headers(&mut reader)?;
    utf16_to_string(reader.take(reader.remaining())?)
}

/// A transaction-manager request, as the T-SQL that does the same.
pub fn transaction_statement(payload: &[u8]) -> WireResult<String> {
    let mut reader = Reader::new(payload);
    skip_all_headers(&mut reader)?;
    let request = reader.u16()?;
    match request {
        BEGIN => begin(&mut reader),
        COMMIT | ROLLBACK => {
            let name = reader.b_varchar()?;
            let flags = reader.u8()?;
            let verb = if request == COMMIT {
                "COMMIT TRANSACTION"
            } else {
                "ROLLBACK TRANSACTION"
            };
            let mut statement = format!("{verb}{}", named(&name));
            if flags & BEGIN_AGAIN != 0 {
                statement.push_str(";\n");
                statement.push_str(&begin(&mut reader)?);
            }
            Ok(statement)
        }
        SAVE => Ok(format!("SAVE TRANSACTION{}", named(&reader.b_varchar()?))),
        other => Err(ProtocolError::new(format!(
            "transaction manager request {other} (distributed transactions) is not supported"
        ))),
    }
}

const BEGIN: u16 = 5;
const COMMIT: u16 = 7;
const ROLLBACK: u16 = 8;
const SAVE: u16 = 9;
/// Commit or rollback flag: begin a new transaction afterwards.
const BEGIN_AGAIN: u8 = 0x01;

/// TM_BEGIN_XACT's isolation level and name.
fn begin(reader: &mut Reader) -> WireResult<String> {
    let isolation = match reader.u8()? {
        0 => None,
        1 => Some("READ UNCOMMITTED"),
        2 => Some("READ COMMITTED"),
        3 => Some("REPEATABLE READ"),
        4 => Some("SERIALIZABLE"),
        5 => Some("SNAPSHOT"),
        other => {
            return Err(ProtocolError::new(format!(
                "isolation level {other} out of range"
            )))
        }
    };
    let name = reader.b_varchar()?;
    let mut statement = String::new();
    if let Some(level) = isolation {
        statement.push_str(&format!("SET TRANSACTION ISOLATION LEVEL {level};\n"));
    }
    statement.push_str(&format!("BEGIN TRANSACTION{}", named(&name)));
    Ok(statement)
}

/// ` [name]` as a delimited identifier, or nothing.
fn named(name: &str) -> String {
    if name.is_empty() {
        String::new()
    } else {
        format!(" [{}]", name.replace(']', "]]"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ALL_HEADERS with a transaction descriptor header.
    fn headers() -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&22u32.to_le_bytes());
        out.extend_from_slice(&18u32.to_le_bytes());
        out.extend_from_slice(&2u16.to_le_bytes());
        out.extend_from_slice(&[0; 8]);
        out.extend_from_slice(&1u32.to_le_bytes());
        out
    }

    #[test]
    fn batch_text_after_headers() {
        let mut payload = headers();
        crate::wire::put_utf16(&mut payload, "SELECT 1");
        assert_eq!(batch_text(&payload).unwrap(), "SELECT 1");
        payload.push(0);
        assert!(batch_text(&payload).is_err(), "odd byte count");
        assert!(
            batch_text(&[40, 0, 0, 0]).is_err(),
            "headers longer than the message"
        );
        let mut bad_header = headers();
        bad_header[4..8].copy_from_slice(&3u32.to_le_bytes());
        assert!(batch_text(&bad_header).is_err());
    }

    #[test]
    fn transaction_requests_become_statements() {
        let mut begin = headers();
        begin.extend_from_slice(&BEGIN.to_le_bytes());
        begin.extend_from_slice(&[4, 0]);
        assert_eq!(
            transaction_statement(&begin).unwrap(),
            "SET TRANSACTION ISOLATION LEVEL SERIALIZABLE;\nBEGIN TRANSACTION"
        );
        let mut commit = headers();
        commit.extend_from_slice(&COMMIT.to_le_bytes());
        commit.extend_from_slice(&[0, BEGIN_AGAIN, 0, 0]);
        assert_eq!(
            transaction_statement(&commit).unwrap(),
            "COMMIT TRANSACTION;\nBEGIN TRANSACTION"
        );
        let mut save = headers();
        save.extend_from_slice(&SAVE.to_le_bytes());
        save.extend_from_slice(&[2, b'a', 0, b']', 0]);
        assert_eq!(
            transaction_statement(&save).unwrap(),
            "SAVE TRANSACTION [a]]]"
        );
        let mut distributed = headers();
        distributed.extend_from_slice(&1u16.to_le_bytes());
        assert!(transaction_statement(&distributed).is_err());
        commit.truncate(commit.len() - 1);
        assert!(transaction_statement(&commit).is_err());
    }
}
