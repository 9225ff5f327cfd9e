//! The SQL layer's dependency rules, checked over the source: data flows
//! one way (text → AST → bound plan → execution → engine), so a lower layer
//! never names a higher one. See docs/architecture.md for the picture.
//!
//! Each rule forbids a module (a top-level module of hekla-plan's,
//! hekla-exec's or hekla-sql's `src/`) from naming a path. The edges that still break a rule are listed in
//! [`KNOWN_DEBT`]: the test fails when a new forbidden edge appears, and
//! also when a listed one is gone, so that the list only ever shrinks.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// (crate, its modules the rule applies to, path they must not name,
/// why). Most of the layering is the crates' own (hekla-plan cannot name
/// the executor or hekla-sql; see [`crates_depend_only_downwards`]);
/// these rules hold inside a crate, or name a part of a lower crate.
const RULES: &[(&str, &[&str], &str, &str)] = &[
    (
        PLAN_CRATE,
        PLAN_LEAVES,
        "crate::",
        "leaf modules (errors, results, options, names, permissions, type names) depend on nothing above them",
    ),
    (
        PLAN_CRATE,
        CATALOG,
        "crate::bind",
        "the catalog is the model of objects; binding definitions is DDL's",
    ),
    (
        PLAN_CRATE,
        CATALOG,
        "crate::plan",
        "the catalog is the model of objects; the planner plans over it",
    ),
    (
        EXEC_CRATE,
        ANY,
        "hekla_parser",
        "the executor runs bound plans, never syntax trees",
    ),
    (
        EXEC_CRATE,
        ANY,
        "hekla_plan::plan::query",
        "the executor does not plan (plan::query is the planner)",
    ),
    (
        EXEC_CRATE,
        ANY,
        "hekla_plan::plan::Planner",
        "the executor does not plan",
    ),
    (
        EXEC_CRATE,
        ANY,
        "hekla_plan::plan::value_binder",
        "the executor does not bind",
    ),
    (
        SQL_CRATE,
        SQL_LEAVES,
        "crate::",
        "leaf modules depend on nothing above them",
    ),
    (
        SQL_CRATE,
        BELOW_SESSION,
        "crate::session",
        "only the interpreter and the session name Session and SqlDatabase",
    ),
    (
        SQL_CRATE,
        SECURITY,
        "crate::system_views",
        "the system views show security's principals; security does not read the views",
    ),
    (
        SQL_CRATE,
        SECURITY,
        "crate::ddl",
        "security checks DDL statements; it does not run them",
    ),
    (
        SQL_CRATE,
        SECURITY,
        "hekla_plan::plan",
        "security answers the planner's permission checks through the context trait",
    ),
    (
        SQL_CRATE,
        SECURITY,
        "hekla_exec",
        "security reads the model and the engine, never the executor",
    ),
    (
        SQL_CRATE,
        SYSTEM_VIEWS,
        "hekla_exec",
        "the system views read the model and the engine, never the executor",
    ),
    (
        SQL_CRATE,
        SYSTEM_VIEWS,
        "crate::ddl",
        "the system views read the model; DDL changes it",
    ),
    (
        SQL_CRATE,
        SYSTEM_VIEWS,
        "crate::interpret",
        "the system views know nothing of procedural execution",
    ),
    (
        SQL_CRATE,
        DDL,
        "crate::interpret",
        "the interpreter routes statements to DDL, not the other way round",
    ),
];

const PLAN_CRATE: &str = "hekla-plan";
const EXEC_CRATE: &str = "hekla-exec";
const SQL_CRATE: &str = "hekla-sql";

/// A rule for every module of its crate.
const ANY: &[&str] = &[];
const PLAN_LEAVES: &[&str] = &[
    "type_names",
    "error",
    "result",
    "session_options",
    "cancel",
    "names",
    "permission",
    "identity",
];
const CATALOG: &[&str] = &["catalog"];
const SQL_LEAVES: &[&str] = &["rpc"];
const DDL: &[&str] = &["ddl"];
const SECURITY: &[&str] = &["security"];
const SYSTEM_VIEWS: &[&str] = &["system_views"];
const BELOW_SESSION: &[&str] = &[
    "ddl",
    "system_views",
    "security",
    "session_registry",
    "statistics",
    "set_statement",
    "text_output",
    "plan_cache",
];

/// Forbidden edges that exist today: ("crate/module", path it names).
const KNOWN_DEBT: &[(&str, &str)] = &[
    ("hekla-plan/catalog", "crate::bind"),
    ("hekla-exec/context", "hekla_parser"),
    ("hekla-exec/constraints", "hekla_parser"),
    ("hekla-exec/dbcc", "hekla_parser"),
    ("hekla-exec/isolation", "hekla_parser"),
    ("hekla-exec/scalar_function", "hekla_parser"),
    ("hekla-exec/truncate", "hekla_parser"),
    ("hekla-exec/variables", "hekla_parser"),
    ("hekla-exec/scalar_function", "hekla_plan::plan::Planner"),
    (
        "hekla-exec/scalar_function",
        "hekla_plan::plan::value_binder",
    ),
    ("hekla-exec/variables", "hekla_plan::plan::Planner"),
    ("hekla-exec/variables", "hekla_plan::plan::value_binder"),
];

#[test]
fn no_module_names_what_its_layer_forbids() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut found = BTreeSet::new();
    for crate_name in [PLAN_CRATE, EXEC_CRATE, SQL_CRATE] {
        let src = crates.join(crate_name).join("src");
        for file in rust_files(&src) {
            let module = top_module(&src, &file);
            if file
                .file_name()
                .is_some_and(|name| name == "tests.rs" || name == "test_catalog.rs")
            {
                continue; // unit tests may build whatever they test with
            }
            let text = fs::read_to_string(&file).expect("source files are readable");
            let text = without_test_module(&text);
            for (rule_crate, modules, forbidden, _) in RULES {
                let applies = modules.is_empty() || modules.contains(&module.as_str());
                if *rule_crate != crate_name || !applies {
                    continue;
                }
                for path in named_paths(text, &src, &file) {
                    if names(&path, forbidden) && !names_its_group(&path, modules) {
                        found.insert((format!("{crate_name}/{module}"), forbidden.to_string()));
                    }
                }
            }
        }
    }
    let known: BTreeSet<(String, String)> = KNOWN_DEBT
        .iter()
        .map(|(module, path)| (module.to_string(), path.to_string()))
        .collect();
    let new: Vec<String> = found
        .difference(&known)
        .map(|(module, path)| {
            let why = RULES
                .iter()
                .find(|(_, _, forbidden, _)| forbidden == path)
                .map_or("", |rule| rule.3);
            format!("  `{module}` names `{path}`: {why}")
        })
        .collect();
    let gone: Vec<String> = known
        .difference(&found)
        .map(|(module, path)| format!("  (\"{module}\", \"{path}\"),"))
        .collect();
    assert!(
        new.is_empty(),
        "forbidden dependencies:\n{}",
        new.join("\n")
    );
    assert!(
        gone.is_empty(),
        "these edges are gone; remove them from KNOWN_DEBT:\n{}",
        gone.join("\n")
    );
}

/// Whether `path` is `forbidden` or inside it: `crate::session` covers
/// `crate::session::Session`, not `crate::session_options`.
fn names(path: &str, forbidden: &str) -> bool {
    if forbidden.ends_with("::") {
        return path.starts_with(forbidden);
    }
    path == forbidden
        || path
            .strip_prefix(forbidden)
            .is_some_and(|rest| rest.starts_with("::"))
}

/// Modules a rule groups together may name one another (a leaf may use
/// another leaf; a module its own items).
fn names_its_group(path: &str, group: &[&str]) -> bool {
    path.strip_prefix("crate::").is_some_and(|rest| {
        let target = rest.split("::").next().unwrap_or(rest);
        group.contains(&target)
    })
}

/// The file's text before its inline `#[cfg(test)] mod tests { ... }`,
/// if it has one (written last, as everywhere in this crate). A test
/// module in a file of its own (`#[cfg(test)] mod tests;`) cuts nothing.
fn without_test_module(text: &str) -> &str {
    let marker = "#[cfg(test)]\nmod ";
    let inline = text.match_indices(marker).find(|&(start, _)| {
        let line = text[start + marker.len()..].lines().next().unwrap_or("");
        line.trim_end().ends_with('{')
    });
    match inline {
        Some((start, _)) => &text[..start],
        None => text,
    }
}

/// The crate's own layering in Cargo terms: the parser stands on the
/// types alone, and no crate depends on one above it.
#[test]
fn crates_depend_only_downwards() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let allowed: &[(&str, &[&str])] = &[
        ("hekla-types", &[]),
        // Machine code from kernel specifications; knows no other layer.
        ("hekla-jit", &[]),
        ("hekla-engine", &["hekla-types"]),
        ("hekla-parser", &["hekla-types"]),
        (
            "hekla-plan",
            &["hekla-types", "hekla-engine", "hekla-parser"],
        ),
        (
            "hekla-exec",
            &[
                "hekla-types",
                "hekla-engine",
                "hekla-parser",
                "hekla-plan",
                "hekla-jit",
            ],
        ),
        (
            "hekla-sql",
            &[
                "hekla-types",
                "hekla-engine",
                "hekla-parser",
                "hekla-plan",
                "hekla-exec",
            ],
        ),
        ("hekla-tds", &["hekla-types", "hekla-engine", "hekla-sql"]),
    ];
    for (name, may_use) in allowed {
        let manifest = crates.join(name).join("Cargo.toml");
        let Ok(text) = fs::read_to_string(&manifest) else {
            panic!("{} is missing", manifest.display());
        };
        for dependency in hekla_dependencies(&text) {
            assert!(
                may_use.contains(&dependency.as_str()),
                "{name} depends on {dependency}, which its layer may not use"
            );
        }
    }
}

/// The `hekla-*` crates named in a manifest's [dependencies] section.
fn hekla_dependencies(manifest: &str) -> Vec<String> {
    let mut in_dependencies = false;
    let mut found = Vec::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_dependencies = line == "[dependencies]";
            continue;
        }
        if in_dependencies && line.starts_with("hekla-") {
            let name: String = line
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            found.push(name);
        }
    }
    found
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).expect("src is a directory") {
        let path = entry.expect("directory entries are readable").path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            files.push(path);
        }
    }
    files
}

/// `src/exec/run.rs` → `exec`; `src/error.rs` → `error`.
fn top_module(src: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(src).expect("files are under src");
    let first = relative
        .components()
        .next()
        .expect("a file has a name")
        .as_os_str()
        .to_string_lossy();
    first.trim_end_matches(".rs").to_string()
}

/// The module path of a file: `src/exec/run.rs` → [exec, run]; a `mod.rs`
/// is its directory's module.
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(src).expect("files are under src");
    let mut parts: Vec<String> = relative
        .components()
        .map(|c| {
            c.as_os_str()
                .to_string_lossy()
                .trim_end_matches(".rs")
                .to_string()
        })
        .collect();
    if parts
        .last()
        .is_some_and(|last| last == "mod" || last == "lib")
    {
        parts.pop();
    }
    parts
}

/// Every path the file's code (not its comments) names from the crate
/// root or another SQL-side crate: `crate::a::b`, `super::super::a`
/// resolved to `crate::a`, `hekla_parser::...`, `hekla_plan::...`, and
/// each item of a `crate::{a, b}` group.
fn named_paths(text: &str, src: &Path, file: &Path) -> Vec<String> {
    let depth = module_path(src, file).len();
    let code: String = text
        .lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join(" ");
    let mut paths = Vec::new();
    for anchor in [
        "crate::",
        "hekla_parser::",
        "hekla_plan::",
        "hekla_exec::",
        "super::",
    ] {
        for (start, _) in code.match_indices(anchor) {
            let preceded_by_path = code[..start]
                .chars()
                .last()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':');
            if preceded_by_path {
                continue;
            }
            let mut rest = &code[start..];
            let mut root = anchor.trim_end_matches("::").to_string();
            if anchor == "super::" {
                // A file's own module counts as one level for `super`.
                let mut ups = 0;
                while let Some(after) = rest.strip_prefix("super::") {
                    ups += 1;
                    rest = after;
                }
                if ups < depth {
                    continue;
                }
                root = "crate".to_string();
            } else {
                rest = &rest[anchor.len()..];
            }
            // `use super::*` is a test module's view of its parent.
            if !rest.starts_with('*') {
                expand(&root, rest, &mut paths);
            }
        }
    }
    paths
}

/// The paths `text` names after `prefix`: `a::b` gives `prefix::a::b`,
/// `a::{b, c::{d, e}}` gives `prefix::a::b`, `prefix::a::c::d` and
/// `prefix::a::c::e`.
fn expand(prefix: &str, text: &str, paths: &mut Vec<String>) {
    let path = path_at(text);
    let full = if path.is_empty() {
        prefix.to_string()
    } else {
        format!("{prefix}::{path}")
    };
    let after = text[path.len()..].trim_start_matches(':');
    match after.strip_prefix('{') {
        Some(group) => {
            for item in group_items(group) {
                expand(&full, item, paths);
            }
        }
        None => paths.push(full),
    }
}

/// The items of a `{a, b::{c, d}, e}` group (its text after the opening
/// brace), each with what follows it: `a, ...`, `b::{c, d}, ...`, `e}`.
fn group_items(group: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let mut depth = 0;
    let mut item_start = true;
    for (index, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => item_start = true,
            c if item_start && !c.is_whitespace() => {
                items.push(&group[index..]);
                item_start = false;
            }
            _ => {}
        }
    }
    items
}

/// The `a::b::c` path at the start of `text`.
fn path_at(text: &str) -> String {
    text.chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':')
        .collect::<String>()
        .trim_end_matches(':')
        .to_string()
}
