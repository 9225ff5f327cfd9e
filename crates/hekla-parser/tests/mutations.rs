//! Deterministic mutation testing on stable Rust (the coverage-guided
//! `cargo fuzz` target in `fuzz/` goes further): corpus batches are cut,
//! spliced and sprinkled with troublesome characters, and every result
//! must either fail with a syntax error or parse to a tree that survives
//! the print / re-parse round trip. Nothing may panic.

use hekla_parser::print::to_sql;
use hekla_parser::script::split_batches;
use hekla_parser::{parse_batch, strip_spans};
use std::path::Path;

/// xorshift64*: a fixed seed keeps failures reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const FRAGMENTS: &[&str] = &[
    "(", ")", "'", "[", "]", "\"", "/*", "*/", "--", "\n", ",", ";", "@", "@@", "N'", "0x", "$",
    ".", "..", "=", "+=", "- -", "NOT", "SELECT", "BEGIN", "END", "CASE", "WHEN", "GO", "é",
    "\u{0}", "AS", "WITH (", "OVER (", "EXEC", "1e", "TOP", "ON",
];

fn batches() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "sql"))
        .collect();
    files.sort();
    files
        .iter()
        .flat_map(|path| {
            let script = std::fs::read_to_string(path).unwrap();
            split_batches(&script)
                .into_iter()
                .map(|batch| batch.text.to_string())
                .collect::<Vec<_>>()
        })
        .collect()
}

/// A char boundary at or before `index`.
fn boundary(text: &str, mut index: usize) -> usize {
    index = index.min(text.len());
    while !text.is_char_boundary(index) {
        index -= 1;
    }
    index
}

fn mutate(rng: &mut Rng, text: &str, donor: &str) -> String {
    let a = boundary(text, rng.below(text.len() + 1));
    let b = boundary(text, a + rng.below(40));
    match rng.below(4) {
        0 => format!("{}{}", &text[..a], &text[b..]),
        1 => format!(
            "{}{}{}",
            &text[..a],
            FRAGMENTS[rng.below(FRAGMENTS.len())],
            &text[a..]
        ),
        2 => {
            let c = boundary(donor, rng.below(donor.len() + 1));
            let d = boundary(donor, c + rng.below(80));
            format!("{}{}{}", &text[..a], &donor[c..d], &text[b..])
        }
        _ => text[..a].to_string(),
    }
}

#[test]
fn mutated_corpus_never_panics_and_round_trips() {
    let corpus = batches();
    // HEKLA_MUTATION_SEED / HEKLA_MUTATIONS run other or longer searches.
    let setting = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|value| value.parse().ok())
            .unwrap_or(default)
    };
    let mut rng = Rng(setting("HEKLA_MUTATION_SEED", 0x9e37_79b9_7f4a_7c15) | 1);
    let mut parsed = 0;
    for _ in 0..setting("HEKLA_MUTATIONS", 20_000) {
        let text = &corpus[rng.below(corpus.len())];
        let donor = &corpus[rng.below(corpus.len())];
        let mut mutated = mutate(&mut rng, text, donor);
        for _ in 0..rng.below(3) {
            mutated = mutate(&mut rng, &mutated, donor);
        }
        let Ok(tree) = parse_batch(&mutated) else {
            continue;
        };
        parsed += 1;
        let printed = to_sql(&tree);
        let reparsed = parse_batch(&printed).unwrap_or_else(|e| {
            panic!("printed text fails to parse: {e}\ninput:\n{mutated}\nprinted:\n{printed}")
        });
        let (before, after) = (
            strip_spans(&format!("{tree:?}")),
            strip_spans(&format!("{reparsed:?}")),
        );
        if before != after {
            let at = before
                .bytes()
                .zip(after.bytes())
                .take_while(|(a, b)| a == b)
                .count();
            let from = at.saturating_sub(200);
            panic!(
                "round trip changed the tree\ninput:\n{mutated}\nprinted:\n{printed}\nbefore: ..{}\nafter:  ..{}",
                before.get(from..(at + 100).min(before.len())).unwrap_or(&before),
                after.get(from..(at + 100).min(after.len())).unwrap_or(&after)
            );
        }
    }
    // The mutations must leave a fair share of valid batches, or the round
    // trip above is not being exercised.
    assert!(parsed > 2_000, "only {parsed} mutated batches parsed");
}
