use super::*;
use proptest::prelude::*;
use std::collections::BTreeMap;

/// The values of the entries in a range, in key order. Tests give every
/// key a distinct value, so the values name the keys.
fn collect(tree: &BTree, lower: Bound<&[u8]>, upper: Bound<&[u8]>) -> Vec<u64> {
    let mut out = Vec::new();
    tree.range(lower, upper, |v| {
        out.push(v);
        ControlFlow::Continue(())
    });
    out
}

/// Keys that share an 8-byte prefix, so that every comparison reaches the
/// suffix words, and vary in length, so that splits balance by size.
fn long_key(n: u64) -> Vec<u8> {
    let mut key = b"commonpf".to_vec();
    key.extend_from_slice(&n.to_be_bytes());
    key.extend(std::iter::repeat_n(b'x', (n % 37) as usize));
    key
}

#[test]
fn an_empty_tree_finds_nothing() {
    let tree = BTree::new();
    assert_eq!(tree.get(b"a"), None);
    assert!(collect(&tree, Bound::Unbounded, Bound::Unbounded).is_empty());
    assert_eq!(tree.remove(b"a"), None);
    let stats = tree.stats();
    assert_eq!((stats.entries, stats.leaf_nodes, stats.depth), (0, 1, 1));
}

#[test]
fn keys_order_bytewise_including_prefixes_and_zero_bytes() {
    let tree = BTree::new();
    let keys: Vec<&[u8]> = vec![
        b"",
        b"\0",
        b"\0\0",
        b"a",
        b"a\0",
        b"ab",
        b"abcdefgh",
        b"abcdefgh\0",
        b"abcdefgh\x01",
        b"abcdefghi",
        b"abcdefghijklmnopq",
        b"b",
        b"\xff\xff",
    ];
    for (i, key) in keys.iter().enumerate().rev() {
        assert_eq!(tree.insert(key, i as u64), Ok(None));
    }
    let scanned = collect(&tree, Bound::Unbounded, Bound::Unbounded);
    assert_eq!(scanned, (0..keys.len() as u64).collect::<Vec<_>>());
    for (i, key) in keys.iter().enumerate() {
        assert_eq!(tree.get(key), Some(i as u64));
    }
    assert_eq!(tree.get(b"abcdefg"), None);
    assert_eq!(tree.get(b"abcdefgh\0\0"), None);
}

#[test]
fn keys_longer_than_the_limit_are_refused() {
    let tree = BTree::new();
    let long = vec![7u8; MAX_KEY_BYTES + 1];
    assert_eq!(
        tree.insert(&long, 1),
        Err(KeyTooLong {
            len: MAX_KEY_BYTES + 1
        })
    );
    assert_eq!(tree.remove(&long), None);
    // The longest allowed keys still split cleanly, many times over.
    for n in 0..200u8 {
        let mut key = vec![n; MAX_KEY_BYTES];
        key[MAX_KEY_BYTES - 1] = 0;
        assert_eq!(tree.insert(&key, n as u64), Ok(None));
    }
    let stats = tree.stats();
    assert_eq!(stats.entries, 200);
    assert!(stats.depth >= 3, "{stats:?}");
    assert_eq!(
        collect(&tree, Bound::Unbounded, Bound::Unbounded).len(),
        200
    );
}

#[test]
fn a_hundred_thousand_keys_grow_a_deep_tree_that_scans_in_order() {
    let tree = BTree::new();
    let mut n = 0u64;
    for _ in 0..100_000 {
        // A full-period walk over 0..2^17 visits keys in scrambled order.
        n = (n * 5 + 3) % (1 << 17);
        tree.insert(&long_key(n), n).unwrap();
    }
    let stats = tree.stats();
    assert_eq!(stats.entries, 100_000);
    assert!(stats.depth >= 3 && stats.inner_nodes > 0, "{stats:?}");
    assert!(stats.used_bytes <= stats.allocated_bytes);
    let all = collect(&tree, Bound::Unbounded, Bound::Unbounded);
    assert_eq!(all.len(), 100_000);
    assert!(all.windows(2).all(|w| long_key(w[0]) < long_key(w[1])));
    // Remove every other key; the rest stay findable and ordered.
    for v in all.iter().step_by(2) {
        assert_eq!(tree.remove(&long_key(*v)), Some(*v));
    }
    assert_eq!(tree.stats().entries, 50_000);
    for (i, v) in all.iter().enumerate() {
        assert_eq!(tree.get(&long_key(*v)), (i % 2 == 1).then_some(*v));
    }
    let odd: Vec<u64> = all.iter().skip(1).step_by(2).copied().collect();
    assert_eq!(collect(&tree, Bound::Unbounded, Bound::Unbounded), odd);
}

#[derive(Debug, Clone)]
enum Op {
    /// Inserts with the next value of a counter, so values are distinct.
    Insert(Vec<u8>),
    Remove(Vec<u8>),
    Get(Vec<u8>),
    Range(Bound<Vec<u8>>, Bound<Vec<u8>>, usize),
}

fn key_strategy() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        4 => proptest::collection::vec(prop_oneof![Just(0u8), Just(1), Just(b'a'), Just(0xff)], 0..20),
        1 => (0u8..4, 8usize..300).prop_map(|(b, len)| vec![b; len]),
    ]
}

fn bound_strategy() -> impl Strategy<Value = Bound<Vec<u8>>> {
    prop_oneof![
        Just(Bound::Unbounded),
        key_strategy().prop_map(Bound::Included),
        key_strategy().prop_map(Bound::Excluded),
    ]
}

fn op_strategy() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => key_strategy().prop_map(Op::Insert),
        2 => key_strategy().prop_map(Op::Remove),
        2 => key_strategy().prop_map(Op::Get),
        1 => (bound_strategy(), bound_strategy(), 0usize..50).prop_map(|(l, u, n)| Op::Range(l, u, n)),
    ]
}

fn as_slice(bound: &Bound<Vec<u8>>) -> Bound<&[u8]> {
    bound.as_ref().map(|k| k.as_slice())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The tree behaves exactly like std's BTreeMap.
    #[test]
    fn matches_a_btreemap(ops in proptest::collection::vec(op_strategy(), 1..1500)) {
        let tree = BTree::new();
        let mut model = BTreeMap::new();
        for (n, op) in ops.into_iter().enumerate() {
            match op {
                Op::Insert(k) => prop_assert_eq!(tree.insert(&k, n as u64).unwrap(), model.insert(k, n as u64)),
                Op::Remove(k) => prop_assert_eq!(tree.remove(&k), model.remove(&k)),
                Op::Get(k) => prop_assert_eq!(tree.get(&k), model.get(&k).copied()),
                Op::Range(lower, upper, limit) => {
                    let mut got = Vec::new();
                    tree.range(as_slice(&lower), as_slice(&upper), |v| {
                        if got.len() == limit {
                            return ControlFlow::Break(());
                        }
                        got.push(v);
                        ControlFlow::Continue(())
                    });
                    let valid = match (&lower, &upper) {
                        (Bound::Included(l) | Bound::Excluded(l), Bound::Included(u) | Bound::Excluded(u)) => l <= u,
                        _ => true,
                    };
                    let expected: Vec<_> = if valid && !matches!((&lower, &upper), (Bound::Excluded(l), Bound::Excluded(u)) if l == u) {
                        model.range::<Vec<u8>, _>((lower.clone(), upper.clone())).take(limit).map(|(_, v)| *v).collect()
                    } else {
                        Vec::new()
                    };
                    prop_assert_eq!(got, expected);
                }
            }
        }
        prop_assert_eq!(tree.stats().entries, model.len() as u64);
        prop_assert_eq!(
            collect(&tree, Bound::Unbounded, Bound::Unbounded),
            model.into_values().collect::<Vec<_>>()
        );
    }
}

fn next_random(mut x: u64) -> u64 {
    x ^= x << 13;
    x ^= x >> 7;
    x ^ x << 17
}

/// Writers churn odd keys (insert, then remove a little later) and so keep
/// splitting leaves and inner nodes, while readers check invariants that
/// must hold at every instant: every even key, inserted before the threads
/// start and never touched, is found with its value; a scan returns keys in
/// strictly increasing order, and every even key between its first and its
/// last result.
#[test]
fn readers_see_stable_keys_while_writers_split_nodes() {
    const STABLE: u64 = 20_000;
    const WRITERS: u64 = 2;
    const CHURN: u64 = 30_000;
    let tree = BTree::new();
    for n in (0..STABLE * 2).step_by(2) {
        tree.insert(&long_key(n), n).unwrap();
    }
    let done = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        let writers: Vec<_> = (0..WRITERS)
            .map(|w| {
                let tree = &tree;
                scope.spawn(move || {
                    // Writer w owns odd keys n with (n / 2) % WRITERS == w.
                    let mut mine = Vec::new();
                    let mut x = w + 1;
                    for i in 0..CHURN {
                        x = next_random(x);
                        let n = ((x % STABLE) * WRITERS + w) * 2 + 1;
                        if tree.insert(&long_key(n), n).unwrap().is_none() {
                            mine.push(n);
                        }
                        if i % 3 == 2 {
                            let victim = mine.swap_remove((x as usize / 7) % mine.len());
                            assert_eq!(tree.remove(&long_key(victim)), Some(victim));
                        }
                    }
                    mine
                })
            })
            .collect();
        let readers: Vec<_> = (0..2u64)
            .map(|r| {
                let (tree, done) = (&tree, &done);
                scope.spawn(move || {
                    let mut checks = 0u64;
                    let mut x = r + 99;
                    while !done.load(std::sync::atomic::Ordering::Relaxed) || checks < 100 {
                        x = next_random(x);
                        let stable = (x % STABLE) * 2;
                        assert_eq!(tree.get(&long_key(stable)), Some(stable));
                        let mut seen = Vec::new();
                        tree.range(Bound::Included(&long_key(stable)), Bound::Unbounded, |v| {
                            seen.push(v);
                            if seen.len() == 150 {
                                ControlFlow::Break(())
                            } else {
                                ControlFlow::Continue(())
                            }
                        });
                        assert!(
                            seen.windows(2).all(|w| long_key(w[0]) < long_key(w[1])),
                            "scan out of order"
                        );
                        let last = *seen.last().expect("the start key itself");
                        let evens = seen.iter().filter(|v| *v % 2 == 0).count() as u64;
                        let last_stable = last.min(STABLE * 2 - 2);
                        assert_eq!(
                            evens,
                            last_stable / 2 - stable / 2 + 1,
                            "a stable key was missed: {seen:?}"
                        );
                        checks += 1;
                    }
                    checks
                })
            })
            .collect();
        let survivors: Vec<u64> = writers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect();
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        let checks: u64 = readers.into_iter().map(|r| r.join().unwrap()).sum();
        assert!(checks >= 200);
        let mut expected: Vec<u64> = (0..STABLE * 2).step_by(2).chain(survivors).collect();
        expected.sort_by_key(|&n| long_key(n));
        let all: Vec<u64> = collect(&tree, Bound::Unbounded, Bound::Unbounded);
        assert_eq!(all, expected);
        assert_eq!(tree.stats().entries, expected.len() as u64);
    });
}
