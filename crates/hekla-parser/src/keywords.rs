//! SQL Server's reserved keywords. A reserved keyword cannot be an
//! unquoted identifier or alias; where one appears out of place the error is
//! Msg 156 rather than 102, and the printer brackets names that collide.

/// Sorted, upper case, so lookups can binary-search.
const RESERVED: &[&str] = &[
    "ADD",
    "ALL",
    "ALTER",
    "AND",
    "ANY",
    "AS",
    "ASC",
    "AUTHORIZATION",
    "BACKUP",
    "BEGIN",
    "BETWEEN",
    "BREAK",
    "BROWSE",
    "BULK",
    "BY",
    "CASCADE",
    "CASE",
    "CHECK",
    "CHECKPOINT",
    "CLOSE",
    "CLUSTERED",
    "COALESCE",
    "COLLATE",
    "COLUMN",
    "COMMIT",
    "COMPUTE",
    "CONSTRAINT",
    "CONTAINS",
    "CONTAINSTABLE",
    "CONTINUE",
    "CONVERT",
    "CREATE",
    "CROSS",
    "CURRENT",
    "CURRENT_DATE",
    "CURRENT_TIME",
    "CURRENT_TIMESTAMP",
    "CURRENT_USER",
    "CURSOR",
    "DATABASE",
    "DBCC",
    "DEALLOCATE",
    "DECLARE",
    "DEFAULT",
    "DELETE",
    "DENY",
    "DESC",
    "DISK",
    "DISTINCT",
    "DISTRIBUTED",
    "DOUBLE",
    "DROP",
    "DUMP",
    "ELSE",
    "END",
    "ERRLVL",
    "ESCAPE",
    "EXCEPT",
    "EXEC",
    "EXECUTE",
    "EXISTS",
    "EXIT",
    "EXTERNAL",
    "FETCH",
    "FILE",
    "FILLFACTOR",
    "FOR",
    "FOREIGN",
    "FREETEXT",
    "FREETEXTTABLE",
    "FROM",
    "FULL",
    "FUNCTION",
    "GOTO",
    "GRANT",
    "GROUP",
    "HAVING",
    "HOLDLOCK",
    "IDENTITY",
    "IDENTITYCOL",
    "IDENTITY_INSERT",
    "IF",
    "IN",
    "INDEX",
    "INNER",
    "INSERT",
    "INTERSECT",
    "INTO",
    "IS",
    "JOIN",
    "KEY",
    "KILL",
    "LEFT",
    "LIKE",
    "LINENO",
    "LOAD",
    "MERGE",
    "NATIONAL",
    "NOCHECK",
    "NONCLUSTERED",
    "NOT",
    "NULL",
    "NULLIF",
    "OF",
    "OFF",
    "OFFSETS",
    "ON",
    "OPEN",
    "OPENDATASOURCE",
    "OPENQUERY",
    "OPENROWSET",
    "OPENXML",
    "OPTION",
    "OR",
    "ORDER",
    "OUTER",
    "OVER",
    "PERCENT",
    "PIVOT",
    "PLAN",
    "PRECISION",
    "PRIMARY",
    "PRINT",
    "PROC",
    "PROCEDURE",
    "PUBLIC",
    "RAISERROR",
    "READ",
    "READTEXT",
    "RECONFIGURE",
    "REFERENCES",
    "REPLICATION",
    "RESTORE",
    "RESTRICT",
    "RETURN",
    "REVERT",
    "REVOKE",
    "RIGHT",
    "ROLLBACK",
    "ROWCOUNT",
    "ROWGUIDCOL",
    "RULE",
    "SAVE",
    "SCHEMA",
    "SECURITYAUDIT",
    "SELECT",
    "SEMANTICKEYPHRASETABLE",
    "SEMANTICSIMILARITYDETAILSTABLE",
    "SEMANTICSIMILARITYTABLE",
    "SESSION_USER",
    "SET",
    "SETUSER",
    "SHUTDOWN",
    "SOME",
    "STATISTICS",
    "SYSTEM_USER",
    "TABLE",
    "TABLESAMPLE",
    "TEXTSIZE",
    "THEN",
    "TO",
    "TOP",
    "TRAN",
    "TRANSACTION",
    "TRIGGER",
    "TRUNCATE",
    "TRY_CONVERT",
    "TSEQUAL",
    "UNION",
    "UNIQUE",
    "UNPIVOT",
    "UPDATE",
    "UPDATETEXT",
    "USE",
    "USER",
    "VALUES",
    "VARYING",
    "VIEW",
    "WAITFOR",
    "WHEN",
    "WHERE",
    "WHILE",
    "WITH",
    "WITHIN",
    "WRITETEXT",
];

/// Longest reserved keyword, so longer words skip the lookup.
const LONGEST: usize = 30;

/// True if `word` (any case) is a reserved keyword. The lexer asks once per
/// word, so this is an open-addressing hash lookup: usually one probe and at
/// most one string comparison.
pub fn is_reserved(word: &str) -> bool {
    if word.len() < 2 || word.len() > LONGEST {
        return false;
    }
    let table = reserved_table();
    let mut slot = hash(word.as_bytes()) as usize & (TABLE_SLOTS - 1);
    loop {
        match table[slot] {
            EMPTY => return false,
            index if RESERVED[index as usize].eq_ignore_ascii_case(word) => return true,
            _ => slot = (slot + 1) & (TABLE_SLOTS - 1),
        }
    }
}

/// Slots in the hash table: a power of two, under half full.
const TABLE_SLOTS: usize = 512;
const EMPTY: u8 = u8::MAX;

/// FNV-1a over the upper-cased bytes, so any case of a word hashes alike.
fn hash(bytes: &[u8]) -> u32 {
    bytes.iter().fold(2_166_136_261u32, |h, &b| {
        (h ^ u32::from(b.to_ascii_uppercase())).wrapping_mul(16_777_619)
    })
}

/// `RESERVED` indexes by hash of the word.
fn reserved_table() -> &'static [u8; TABLE_SLOTS] {
    static TABLE: std::sync::OnceLock<[u8; TABLE_SLOTS]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = [EMPTY; TABLE_SLOTS];
        for (index, word) in RESERVED.iter().enumerate() {
            let mut slot = hash(word.as_bytes()) as usize & (TABLE_SLOTS - 1);
            while table[slot] != EMPTY {
                slot = (slot + 1) & (TABLE_SLOTS - 1);
            }
            table[slot] = index as u8;
        }
        table
    })
}

/// A word in ASCII upper case, on the stack, for matching keywords without
/// allocating. Words longer than any keyword, or not ASCII, become "" (they
/// match no keyword).
pub struct UpperWord {
    buffer: [u8; LONGEST],
    length: usize,
}

impl UpperWord {
    pub fn new(word: &str) -> UpperWord {
        let mut upper = UpperWord {
            buffer: [0; LONGEST],
            length: 0,
        };
        if word.len() <= LONGEST && word.is_ascii() {
            upper.buffer[..word.len()].copy_from_slice(word.as_bytes());
            upper.buffer[..word.len()].make_ascii_uppercase();
            upper.length = word.len();
        }
        upper
    }

    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.buffer[..self.length]).expect("ASCII by construction")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_is_sorted_and_bounded() {
        assert!(RESERVED.windows(2).all(|pair| pair[0] < pair[1]));
        assert!(RESERVED.iter().all(|word| word.len() <= LONGEST));
        assert!(RESERVED.len() * 2 < TABLE_SLOTS && RESERVED.len() < EMPTY as usize);
    }

    #[test]
    fn every_listed_word_is_found_and_near_misses_are_not() {
        for word in RESERVED {
            assert!(is_reserved(word), "{word}");
            assert!(is_reserved(&word.to_ascii_lowercase()), "{word}");
            assert!(!is_reserved(&format!("{word}X")), "{word}X");
            assert!(
                !is_reserved(&word[1..]) || RESERVED.contains(&&word[1..]),
                "{word}"
            );
        }
    }

    #[test]
    fn lookups_ignore_case() {
        assert!(is_reserved("select"));
        assert!(is_reserved("Nonclustered"));
        assert!(!is_reserved("hash"));
        assert!(!is_reserved("bucket_count"));
        assert!(!is_reserved("é"));
    }
}
