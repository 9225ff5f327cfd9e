//! Fuzz target `parse`: splits the input into batches and parses each one.
//! A panic anywhere is a bug. For every batch that parses, the printed text
//! must parse again to the same tree (spans aside), and printing that tree
//! must give the same text: the round trip is the oracle.
#![no_main]

use hekla_parser::print::to_sql;
use hekla_parser::script::split_batches;
use hekla_parser::{parse_batch, strip_spans};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(script) = std::str::from_utf8(data) else {
        return;
    };
    for batch in split_batches(script) {
        let Ok(tree) = parse_batch(batch.text) else {
            continue;
        };
        let printed = to_sql(&tree);
        let reparsed = match parse_batch(&printed) {
            Ok(reparsed) => reparsed,
            Err(error) => panic!(
                "printed text does not parse: {error}\n--- batch:\n{}\n--- printed:\n{printed}",
                batch.text
            ),
        };
        assert_eq!(
            strip_spans(&format!("{tree:?}")),
            strip_spans(&format!("{reparsed:?}")),
            "printed text parses to a different tree\n--- batch:\n{}\n--- printed:\n{printed}",
            batch.text
        );
        assert_eq!(
            to_sql(&reparsed),
            printed,
            "printing is not stable\n--- batch:\n{}",
            batch.text
        );
    }
});
