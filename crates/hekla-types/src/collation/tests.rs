use super::*;

const CI: Collation = Collation::SqlLatin1GeneralCp1CiAs;
const BIN: Collation = Collation::Latin1GeneralBin2;

fn hash(c: Collation, s: &str) -> u64 {
    let mut h = KeyHasher::default();
    c.hash(s, &mut h);
    h.finish()
}

#[test]
fn names_round_trip_case_insensitively() {
    for c in ALL {
        assert_eq!(Collation::from_name(c.name()), Some(c));
        assert_eq!(Collation::from_name(&c.name().to_lowercase()), Some(c));
    }
    assert_eq!(Collation::from_name("Latin1_General_CS_AS"), None);
}

#[test]
fn ci_as_folds_case_and_ignores_trailing_spaces_but_not_accents() {
    assert!(CI.eq("abc", "ABC  "));
    assert!(CI.eq("ÉTÉ", "été"));
    assert!(!CI.eq("ete", "été"));
    assert!(!CI.eq("abc", " abc"));
    assert!(CI.eq("Straße", "STRASSE"));
    assert!(CI.eq("", "   "));
}

#[test]
fn ci_as_orders_by_letter_then_accent() {
    use Ordering::*;
    assert_eq!(CI.cmp("a", "á"), Less);
    assert_eq!(CI.cmp("á", "b"), Less);
    assert_eq!(CI.cmp("B", "a"), Greater);
    assert_eq!(CI.cmp("A", "a"), Equal);
    // Primary weights decide before any accent does.
    assert_eq!(CI.cmp("áa", "ab"), Less);
    assert_eq!(CI.cmp("ab", "a"), Greater);
    assert_eq!(CI.cmp("résumé", "resume"), Greater);
    assert_eq!(CI.cmp("Zürich", "zurich"), Greater);
    assert_eq!(CI.cmp("zürich", "zz"), Less);
}

#[test]
fn bin2_is_code_point_order_without_trailing_spaces() {
    use Ordering::*;
    assert_eq!(BIN.cmp("B", "a"), Less);
    assert_eq!(BIN.cmp("a  ", "a"), Equal);
    assert_eq!(BIN.cmp("z", "é"), Less);
    assert!(!BIN.eq("a", "A"));
    assert_eq!(hash(BIN, "ab "), hash(BIN, "ab"));
}

#[test]
fn equal_strings_hash_alike() {
    assert_eq!(hash(CI, "Hello World"), hash(CI, "hello world   "));
    assert_eq!(hash(CI, "ÀÉÎ"), hash(CI, "àéî"));
    assert_eq!(hash(CI, "STRASSE"), hash(CI, "straße"));
    assert_ne!(hash(CI, "ete"), hash(CI, "été"));
}

#[test]
fn ascii_fast_path_matches_the_general_path() {
    for s in [
        "",
        "a",
        "Hello, World! 0123456789",
        "ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`@",
    ] {
        let mut fast = KeyHasher::default();
        hash_ascii_folded(s.as_bytes(), &mut fast);
        let mut general = KeyHasher::default();
        hash_weights(s, &mut general);
        assert_eq!(fast.finish(), general.finish(), "{s:?}");
    }
}

#[test]
fn swar_lowercase_touches_only_letters() {
    let all: Vec<u8> = (0..128).collect();
    for chunk in all.chunks(8) {
        let word = u64::from_le_bytes(chunk.try_into().unwrap());
        let lowered = ascii_lowercase_word(word).to_le_bytes();
        let expected: Vec<u8> = chunk.iter().map(u8::to_ascii_lowercase).collect();
        assert_eq!(lowered.to_vec(), expected);
    }
}

#[test]
fn sort_keys_order_like_cmp() {
    let words = [
        "", "a", "A", "á", "ab", "áa", "b", "B ", "ß", "ss", "st", "\0", "a\0b", "zz", "é", "ÿ",
        "Ω",
    ];
    for c in ALL {
        for a in words {
            for b in words {
                let (mut ka, mut kb) = (Vec::new(), Vec::new());
                c.append_sort_key(a, &mut ka);
                c.append_sort_key(b, &mut kb);
                assert_eq!(ka.cmp(&kb), c.cmp(a, b), "{c:?} {a:?} {b:?}");
            }
        }
    }
}
