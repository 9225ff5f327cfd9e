//! Case and accent folding for the case-insensitive, accent-sensitive (CI_AS)
//! collations.
//!
//! Each character becomes one or two *weights*: a primary weight (the base
//! letter, lowercased) and a secondary weight (which accent it carried, 0 for
//! none). Strings compare by their primary weights first and only then by
//! their secondary weights, so `a < á < b` while `a == A`.

/// Accent codes used as secondary weights; their order is the tie-break order
/// among otherwise equal letters.
mod accent {
    pub const ACUTE: u8 = 1;
    pub const GRAVE: u8 = 2;
    pub const CIRCUMFLEX: u8 = 3;
    pub const DIAERESIS: u8 = 4;
    pub const TILDE: u8 = 5;
    pub const RING: u8 = 6;
    pub const CEDILLA: u8 = 7;
    pub const STROKE: u8 = 8;
    pub const MACRON: u8 = 9;
    pub const BREVE: u8 = 10;
    pub const OGONEK: u8 = 11;
    pub const DOT: u8 = 12;
    pub const CARON: u8 = 13;
    pub const DOUBLE_ACUTE: u8 = 14;
    pub const DOTLESS: u8 = 15;
    pub const ETH: u8 = 16;
    pub const APOSTROPHE: u8 = 17;
    pub const KRA: u8 = 18;
    pub const LONG: u8 = 19;
    pub const ENG: u8 = 20;
}

/// The weights of one character: `(primary, secondary)` and, for letters
/// that expand to two (`ß` → `ss`, `æ` → `ae`), a second primary whose
/// secondary weight is 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Folded {
    pub primary: char,
    pub secondary: u8,
    pub expansion: Option<char>,
}

impl Folded {
    const fn plain(primary: char) -> Folded {
        Folded {
            primary,
            secondary: 0,
            expansion: None,
        }
    }

    const fn accented(primary: char, secondary: u8) -> Folded {
        Folded {
            primary,
            secondary,
            expansion: None,
        }
    }

    const fn expands(primary: char, second: char) -> Folded {
        Folded {
            primary,
            secondary: 0,
            expansion: Some(second),
        }
    }
}

/// Folds one character. ASCII takes the first branch; Latin-1 Supplement and
/// Latin Extended-A letters decompose through the table; anything else is
/// Unicode simple lowercase (characters whose lowercase is several
/// characters are kept as they are).
pub(crate) fn fold(c: char) -> Folded {
    if c.is_ascii() {
        return Folded::plain(c.to_ascii_lowercase());
    }
    if c == '\u{130}' {
        // İ lowercases to two characters (i + combining dot).
        return Folded::accented('i', accent::DOT);
    }
    let lower = simple_lowercase(c);
    decompose(lower).unwrap_or(Folded::plain(lower))
}

fn simple_lowercase(c: char) -> char {
    let mut lower = c.to_lowercase();
    match (lower.next(), lower.next()) {
        (Some(l), None) => l,
        _ => c,
    }
}

/// Base letter and accent of a lowercase Latin-1 or Latin Extended-A letter.
fn decompose(c: char) -> Option<Folded> {
    use accent::*;
    let (base, accent) = match c {
        'à' => ('a', GRAVE),
        'á' => ('a', ACUTE),
        'â' => ('a', CIRCUMFLEX),
        'ã' => ('a', TILDE),
        'ä' => ('a', DIAERESIS),
        'å' => ('a', RING),
        'æ' => return Some(Folded::expands('a', 'e')),
        'ç' => ('c', CEDILLA),
        'è' => ('e', GRAVE),
        'é' => ('e', ACUTE),
        'ê' => ('e', CIRCUMFLEX),
        'ë' => ('e', DIAERESIS),
        'ì' => ('i', GRAVE),
        'í' => ('i', ACUTE),
        'î' => ('i', CIRCUMFLEX),
        'ï' => ('i', DIAERESIS),
        'ð' => ('d', ETH),
        'ñ' => ('n', TILDE),
        'ò' => ('o', GRAVE),
        'ó' => ('o', ACUTE),
        'ô' => ('o', CIRCUMFLEX),
        'õ' => ('o', TILDE),
        'ö' => ('o', DIAERESIS),
        'ø' => ('o', STROKE),
        'ù' => ('u', GRAVE),
        'ú' => ('u', ACUTE),
        'û' => ('u', CIRCUMFLEX),
        'ü' => ('u', DIAERESIS),
        'ý' => ('y', ACUTE),
        'ÿ' => ('y', DIAERESIS),
        'ß' => return Some(Folded::expands('s', 's')),
        'ā' => ('a', MACRON),
        'ă' => ('a', BREVE),
        'ą' => ('a', OGONEK),
        'ć' => ('c', ACUTE),
        'ĉ' => ('c', CIRCUMFLEX),
        'ċ' => ('c', DOT),
        'č' => ('c', CARON),
        'ď' => ('d', CARON),
        'đ' => ('d', STROKE),
        'ē' => ('e', MACRON),
        'ĕ' => ('e', BREVE),
        'ė' => ('e', DOT),
        'ę' => ('e', OGONEK),
        'ě' => ('e', CARON),
        'ĝ' => ('g', CIRCUMFLEX),
        'ğ' => ('g', BREVE),
        'ġ' => ('g', DOT),
        'ģ' => ('g', CEDILLA),
        'ĥ' => ('h', CIRCUMFLEX),
        'ħ' => ('h', STROKE),
        'ĩ' => ('i', TILDE),
        'ī' => ('i', MACRON),
        'ĭ' => ('i', BREVE),
        'į' => ('i', OGONEK),
        'ı' => ('i', DOTLESS),
        'ĳ' => return Some(Folded::expands('i', 'j')),
        'ĵ' => ('j', CIRCUMFLEX),
        'ķ' => ('k', CEDILLA),
        'ĸ' => ('k', KRA),
        'ĺ' => ('l', ACUTE),
        'ļ' => ('l', CEDILLA),
        'ľ' => ('l', CARON),
        'ŀ' => ('l', DOT),
        'ł' => ('l', STROKE),
        'ń' => ('n', ACUTE),
        'ņ' => ('n', CEDILLA),
        'ň' => ('n', CARON),
        'ŉ' => ('n', APOSTROPHE),
        'ŋ' => ('n', ENG),
        'ō' => ('o', MACRON),
        'ŏ' => ('o', BREVE),
        'ő' => ('o', DOUBLE_ACUTE),
        'œ' => return Some(Folded::expands('o', 'e')),
        'ŕ' => ('r', ACUTE),
        'ŗ' => ('r', CEDILLA),
        'ř' => ('r', CARON),
        'ś' => ('s', ACUTE),
        'ŝ' => ('s', CIRCUMFLEX),
        'ş' => ('s', CEDILLA),
        'š' => ('s', CARON),
        'ţ' => ('t', CEDILLA),
        'ť' => ('t', CARON),
        'ŧ' => ('t', STROKE),
        'ũ' => ('u', TILDE),
        'ū' => ('u', MACRON),
        'ŭ' => ('u', BREVE),
        'ů' => ('u', RING),
        'ű' => ('u', DOUBLE_ACUTE),
        'ų' => ('u', OGONEK),
        'ŵ' => ('w', CIRCUMFLEX),
        'ŷ' => ('y', CIRCUMFLEX),
        'ź' => ('z', ACUTE),
        'ż' => ('z', DOT),
        'ž' => ('z', CARON),
        'ſ' => ('s', LONG),
        _ => return None,
    };
    Some(Folded::accented(base, accent))
}

/// The weight sequence of a string: one `(primary, secondary)` per weight,
/// expansions yielding two.
pub(crate) struct Weights<'a> {
    chars: std::str::Chars<'a>,
    pending: Option<char>,
}

impl<'a> Weights<'a> {
    pub fn new(s: &'a str) -> Self {
        Weights {
            chars: s.chars(),
            pending: None,
        }
    }
}

impl Iterator for Weights<'_> {
    type Item = (char, u8);

    #[inline]
    fn next(&mut self) -> Option<(char, u8)> {
        if let Some(p) = self.pending.take() {
            return Some((p, 0));
        }
        let f = fold(self.chars.next()?);
        self.pending = f.expansion;
        Some((f.primary, f.secondary))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uppercase_latin1_and_extended_a_fold_to_their_lowercase_letter() {
        for (upper, lower) in [('À', 'à'), ('Ç', 'ç'), ('Ø', 'ø'), ('Ł', 'ł'), ('Ÿ', 'ÿ')]
        {
            assert_eq!(fold(upper), fold(lower));
        }
        assert_eq!(fold('É'), Folded::accented('e', accent::ACUTE));
    }

    #[test]
    fn expansions_yield_two_weights() {
        let w: Vec<_> = Weights::new("Æß").collect();
        assert_eq!(w, vec![('a', 0), ('e', 0), ('s', 0), ('s', 0)]);
    }

    #[test]
    fn other_scripts_fall_back_to_lowercase() {
        assert_eq!(fold('Ω'), Folded::plain('ω'));
        assert_eq!(fold('İ'), Folded::accented('i', accent::DOT));
    }
}
