//! Splitting a script into batches on `GO` lines, as sqlcmd does. `GO` is
//! not T-SQL: the parser never sees it.

/// One batch of a script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchText<'a> {
    pub text: &'a str,
    /// 1-based line of the script the batch starts on, so errors (whose
    /// lines count within the batch) can be mapped back.
    pub first_line: u32,
    /// `GO n` runs the batch `n` times.
    pub repeat: u32,
}

/// Splits `script` on lines holding only `GO` or `GO n` (any case, blanks
/// and a trailing `--` comment allowed). Batches that hold only whitespace
/// are dropped. A `GO` inside a `/* */` comment or a string still splits,
/// as in sqlcmd.
pub fn split_batches(script: &str) -> Vec<BatchText<'_>> {
    let mut batches = Vec::new();
    let mut start = 0usize;
    let mut start_line = 1u32;
    let mut offset = 0usize;
    for (index, line) in script.split_inclusive('\n').enumerate() {
        if let Some(repeat) = batch_separator(line) {
            push_batch(&mut batches, &script[start..offset], start_line, repeat);
            start = offset + line.len();
            start_line = index as u32 + 2;
        }
        offset += line.len();
    }
    push_batch(&mut batches, &script[start..], start_line, 1);
    batches
}

fn push_batch<'a>(batches: &mut Vec<BatchText<'a>>, text: &'a str, first_line: u32, repeat: u32) {
    if !text.trim().is_empty() {
        batches.push(BatchText {
            text,
            first_line,
            repeat,
        });
    }
}

/// `Some(count)` if `line` is a batch separator: `GO` or `GO count`.
pub fn batch_separator(line: &str) -> Option<u32> {
    let line = line.split("--").next().unwrap_or("").trim();
    let rest = line.get(..2)?;
    if !rest.eq_ignore_ascii_case("GO") {
        return None;
    }
    let count = line[2..].trim();
    if count.is_empty() {
        return Some(1);
    }
    if !line[2..].starts_with([' ', '\t']) {
        return None;
    }
    count.parse::<u32>().ok().filter(|&n| n > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_on_go_lines_only() {
        let script = "select 1\nGO\n  go 3  \nselect 2\nselect 'GO'\ngo -- done\nGOTO x\n";
        let batches = split_batches(script);
        assert_eq!(batches.len(), 3);
        assert_eq!(
            (batches[0].text, batches[0].first_line, batches[0].repeat),
            ("select 1\n", 1, 1)
        );
        assert_eq!(batches[1].text, "select 2\nselect 'GO'\n");
        assert_eq!(batches[1].first_line, 4);
        assert_eq!(batches[1].repeat, 1);
        assert_eq!(batches[2].text, "GOTO x\n");
        assert_eq!(batches[2].first_line, 7);
    }

    #[test]
    fn go_with_count_applies_to_the_batch_before_it() {
        let batches = split_batches("insert t values (1)\nGO 5\n");
        assert_eq!(batches.len(), 1);
        assert_eq!(batches[0].repeat, 5);
        assert_eq!(batch_separator("GO5"), None);
        assert_eq!(batch_separator("GO 0"), None);
    }
}
