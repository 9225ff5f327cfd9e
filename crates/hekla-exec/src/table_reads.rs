//! The SET STATISTICS IO counters: the scans and seeks of tables that are
//! not memory-optimized a statement makes, which the session reports
//! after it (Msg 3615).

/// The scans and seeks a statement started, per table it read, in the
/// order it first read them.
#[derive(Debug, Default)]
pub struct TableReads {
    tables: Vec<(String, u64)>,
}

impl TableReads {
    /// One more scan or seek of `table`.
    pub fn count(&mut self, table: &str) {
        match self.tables.iter_mut().find(|(name, _)| name == table) {
            Some((_, scans)) => *scans += 1,
            None => self.tables.push((table.to_string(), 1)),
        }
    }

    /// Adds the reads `other` counted.
    pub fn merge(&mut self, other: TableReads) {
        for (table, scans) in other.tables {
            match self.tables.iter_mut().find(|(name, _)| *name == table) {
                Some((_, mine)) => *mine += scans,
                None => self.tables.push((table, scans)),
            }
        }
    }

    /// SQL Server's Msg 3615 line for each table.
    pub fn messages(&self) -> impl Iterator<Item = String> + '_ {
        self.tables.iter().map(|(table, scans)| {
            format!(
                "Table '{table}'. Scan count {scans}, logical reads 0, physical reads 0, page server reads 0, read-ahead reads 0, page server read-ahead reads 0, lob logical reads 0, lob physical reads 0, lob page server reads 0, lob read-ahead reads 0, lob page server read-ahead reads 0."
            )
        })
    }
}
