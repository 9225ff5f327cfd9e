//! The SQL layer's dependency rules, checked over the source: data flows
//! one way (text → AST → bound plan → execution → engine), so a lower layer
//! never names a higher one. See docs/architecture.md for the picture.
//!
//! Each rule forbids a module (a top-level module of hekla-sql's `src/`)
//! from naming a path. The edges that still break a rule are listed in
//! [`KNOWN_DEBT`]: the test fails when a new forbidden edge appears, and
//! also when a listed one is gone, so that the list only ever shrinks.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// (modules the rule applies to, path they must not name, why).
const RULES: &[(&[&str], &str, &str)] = &[
    (
        LEAVES,
        "crate::",
        "leaf modules (errors, results, options, names, permissions, type names) depend on nothing above them",
    ),
    (
        PLANNER,
        "crate::exec",
        "the planner builds plans; it never runs them",
    ),
    (
        PLANNER,
        "crate::interpret",
        "the planner knows nothing of procedural execution",
    ),
    (
        PLANNER,
        "crate::session",
        "the planner plans against a context trait, not a database",
    ),
    (
        PLANNER,
        "crate::security",
        "the planner carries permission checks (crate::permission); security runs them behind the context trait",
    ),
    (
        PLANNER,
        "crate::ddl",
        "DDL plans through the planner, never the other way round",
    ),
    (
        PLANNER,
        "crate::plan_cache",
        "the plan cache keeps what the planner makes; the planner knows nothing of it",
    ),
    (
        PLANNER,
        "crate::database_context",
        "the planner sees the database only through the PlanContext trait",
    ),
    (
        PLANNER,
        "crate::system_views",
        "the planner finds system views through its context trait; plans name them by plan::system::SystemRelation",
    ),
    (
        EXECUTOR,
        "hekla_parser",
        "the executor runs bound plans, never syntax trees",
    ),
    (
        EXECUTOR,
        "crate::ast",
        "the executor runs bound plans, never syntax trees",
    ),
    (
        EXECUTOR,
        "crate::plan::query",
        "the executor does not plan (plan::query is the planner)",
    ),
    (
        EXECUTOR,
        "crate::interpret",
        "the executor knows nothing of procedural execution",
    ),
    (
        EXECUTOR,
        "crate::security",
        "the executor asks its StatementDatabase for the security functions' answers",
    ),
    (
        EXECUTOR,
        "crate::system_views",
        "the executor asks its StatementDatabase for a system view's rows",
    ),
    (
        EXECUTOR,
        "crate::statistics",
        "the executor counts its reads (exec::table_reads); the session reports them",
    ),
    (
        EXECUTOR,
        "crate::text_output",
        "the executor sends values to a ResultSink; formatting them as text is the runner's",
    ),
    (
        EXECUTOR,
        "crate::ddl",
        "DDL runs through the executor, never the other way round",
    ),
    (
        EXECUTOR,
        "crate::plan_cache",
        "the plan cache keeps what the executor runs; the executor knows nothing of it",
    ),
    (
        EXECUTOR,
        "crate::database_context",
        "the executor sees the database only through the StatementDatabase trait",
    ),
    (
        BELOW_SESSION,
        "crate::session",
        "only the interpreter and the session name Session and SqlDatabase",
    ),
    (
        CATALOG,
        "crate::exec",
        "the catalog is the model of objects; it runs nothing",
    ),
    (
        CATALOG,
        "crate::bind",
        "the catalog is the model of objects; binding definitions is DDL's",
    ),
    (
        CATALOG,
        "crate::interpret",
        "the catalog knows nothing of procedural execution",
    ),
    (
        CATALOG,
        "crate::ddl",
        "DDL changes the catalog, never the other way round",
    ),
    (
        SECURITY,
        "crate::system_views",
        "the system views show security's principals; security does not read the views",
    ),
    (
        SECURITY,
        "crate::ddl",
        "security checks DDL statements; it does not run them",
    ),
    (
        SECURITY,
        "crate::plan",
        "security answers the planner's permission checks through the context trait",
    ),
    (
        SECURITY,
        "crate::exec",
        "security reads the model and the engine, never the executor",
    ),
    (
        SYSTEM_VIEWS,
        "crate::exec",
        "the system views read the model and the engine, never the executor",
    ),
    (
        SYSTEM_VIEWS,
        "crate::ddl",
        "the system views read the model; DDL changes it",
    ),
    (
        SYSTEM_VIEWS,
        "crate::interpret",
        "the system views know nothing of procedural execution",
    ),
    (
        CATALOG,
        "crate::plan",
        "the catalog is the model of objects; the planner plans over it",
    ),
    (
        CATALOG,
        "crate::plan_cache",
        "the plan cache holds procedures; the catalog knows nothing of it",
    ),
    (
        CATALOG,
        "crate::security",
        "the security store is the database's, beside the catalog's",
    ),
    (
        DDL,
        "crate::session",
        "DDL changes the database through its DdlDatabase trait, not SqlDatabase",
    ),
    (
        DDL,
        "crate::interpret",
        "the interpreter routes statements to DDL, not the other way round",
    ),
];

const LEAVES: &[&str] = &[
    "type_names",
    "error",
    "result",
    "session_options",
    "cancel",
    "rpc",
    "names",
    "permission",
    "identity",
];
const PLANNER: &[&str] = &["bind", "plan"];
const EXECUTOR: &[&str] = &["exec"];
const CATALOG: &[&str] = &["catalog"];
const DDL: &[&str] = &["ddl"];
const SECURITY: &[&str] = &["security"];
const SYSTEM_VIEWS: &[&str] = &["system_views"];
const BELOW_SESSION: &[&str] = &[
    "bind",
    "plan",
    "exec",
    "catalog",
    "system_views",
    "security",
    "session_registry",
    "statistics",
    "set_statement",
    "text_output",
];

/// Forbidden edges that exist today: (module, path it names).
const KNOWN_DEBT: &[(&str, &str)] = &[("catalog", "crate::bind"), ("exec", "hekla_parser")];

#[test]
fn no_module_names_what_its_layer_forbids() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = BTreeSet::new();
    for file in rust_files(&src) {
        let module = top_module(&src, &file);
        if file.file_name().is_some_and(|name| name == "tests.rs") {
            continue; // unit tests may build whatever they test with
        }
        let text = fs::read_to_string(&file).expect("source files are readable");
        let text = without_test_module(&text);
        for (modules, forbidden, _) in RULES {
            if !modules.contains(&module.as_str()) {
                continue;
            }
            for path in named_paths(text, &src, &file) {
                if names(&path, forbidden) && !names_its_group(&path, modules) {
                    found.insert((module.clone(), forbidden.to_string()));
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
                .find(|(modules, forbidden, _)| {
                    modules.contains(&module.as_str()) && forbidden == path
                })
                .map_or("", |rule| rule.2);
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
        ("hekla-engine", &["hekla-types"]),
        ("hekla-parser", &["hekla-types"]),
        (
            "hekla-sql",
            &["hekla-types", "hekla-engine", "hekla-parser"],
        ),
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
/// root or another crate: `crate::a::b`, `super::super::a` resolved to
/// `crate::a`, `hekla_parser::...`, and each item of a `crate::{a, b}`
/// group.
fn named_paths(text: &str, src: &Path, file: &Path) -> Vec<String> {
    let depth = module_path(src, file).len();
    let code: String = text
        .lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join(" ");
    let mut paths = Vec::new();
    for anchor in ["crate::", "hekla_parser::", "super::"] {
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
            match rest.strip_prefix('{') {
                Some(group) => paths.extend(
                    group_items(group)
                        .into_iter()
                        .map(|item| format!("{root}::{item}")),
                ),
                // `use super::*` is a test module's view of its parent.
                None if rest.starts_with('*') => {}
                None => paths.push(format!("{root}::{}", path_at(rest))),
            }
        }
    }
    paths
}

/// The top-level items of a `{a, b::{c, d}, e}` group (its text after the
/// opening brace): `a`, `b`, `e`.
fn group_items(group: &str) -> Vec<String> {
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
                items.push(path_at(&group[index..]));
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
