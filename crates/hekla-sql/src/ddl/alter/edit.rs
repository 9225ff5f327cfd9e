//! The new definition of an altered table: the stored CREATE TABLE, parsed,
//! with the ALTER's changes made to its tree (columns, constraints and
//! indexes removed, added or changed), and where each column of the new
//! table takes its values from.
//!
//! Elements of the stored definition keep their order; what ALTER TABLE
//! adds comes after them, as SQL Server lists added columns last. The
//! tree's keys, indexes, CHECK and FOREIGN KEY constraints are matched to
//! the bound table ([`TableMeta`]) by their order, which is the order the
//! binder meets them in ([`nodes`]), so each keeps its name and its object
//! id through any number of ALTERs.

use super::messages as msg;
use super::{Failure, Outcome};
use hekla_engine::IndexKind;
use hekla_parser::ast::{self, ConstraintKind, TableElement};
use hekla_plan::catalog::table::{KeyConstraint, TableMeta};
use hekla_plan::catalog::{dependency, Catalog};
use hekla_plan::error::{not_supported_yet, Refused};
use hekla_types::SqlError;

/// Where a part of the definition is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A whole element: a column, a table constraint or a table index.
    Element(usize),
    /// A column's constraint (element, position in its constraints).
    ColumnConstraint(usize, usize),
    /// A column's inline index.
    ColumnIndex(usize),
}

impl Place {
    fn element(self) -> usize {
        match self {
            Place::Element(e) | Place::ColumnConstraint(e, _) | Place::ColumnIndex(e) => e,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// PRIMARY KEY or UNIQUE: an index of the table.
    Key,
    /// An index that enforces no constraint.
    Index,
    Check,
    ForeignKey,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    pub place: Place,
    pub kind: NodeKind,
}

/// The keys, indexes and constraints of `elements` in the order the binder
/// (`TableDesign::bind`) meets them: element by element, a column's
/// constraints in order and then its inline index. Indexes (keys
/// included) come out in the order of the table's indexes; CHECK and
/// FOREIGN KEY constraints in the order their object ids are handed out.
pub fn nodes(elements: &[TableElement], first: usize) -> Vec<Node> {
    let mut nodes = Vec::new();
    for (offset, element) in elements.iter().enumerate() {
        let e = first + offset;
        match element {
            TableElement::Column(column) => {
                for (k, constraint) in column.constraints.iter().enumerate() {
                    if let Some(kind) = constraint_kind(&constraint.kind) {
                        nodes.push(Node {
                            place: Place::ColumnConstraint(e, k),
                            kind,
                        });
                    }
                }
                if column.index.is_some() {
                    nodes.push(Node {
                        place: Place::ColumnIndex(e),
                        kind: NodeKind::Index,
                    });
                }
            }
            TableElement::Constraint(constraint) => {
                if let Some(kind) = constraint_kind(&constraint.kind) {
                    nodes.push(Node {
                        place: Place::Element(e),
                        kind,
                    });
                }
            }
            TableElement::Index(_) => nodes.push(Node {
                place: Place::Element(e),
                kind: NodeKind::Index,
            }),
        }
    }
    nodes
}

fn constraint_kind(kind: &ConstraintKind) -> Option<NodeKind> {
    match kind {
        ConstraintKind::Key { .. } => Some(NodeKind::Key),
        ConstraintKind::Check(_) => Some(NodeKind::Check),
        ConstraintKind::ForeignKey { .. } => Some(NodeKind::ForeignKey),
        ConstraintKind::Default { .. } => None,
    }
}

/// Where a column of the rebuilt table takes its values from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The old table's column at this position, as it is.
    Kept(usize),
    /// The old table's column at this position, converted to the new
    /// column's type (ALTER COLUMN).
    Converted(usize),
    /// A column ALTER TABLE ADD adds: the IDENTITY's next value, or its
    /// DEFAULT when it is NOT NULL or `with_values` (`DEFAULT ... WITH
    /// VALUES`), else NULL.
    Added { with_values: bool },
}

/// The result of editing: the new CREATE TABLE (without the hidden list
/// of constraint ids, which the rebuild adds once new ids are allocated).
pub struct Plan {
    pub create: ast::CreateTable,
    /// The object id of each CHECK and FOREIGN KEY constraint of `create`,
    /// in [`nodes`] order; None for one this ALTER adds.
    pub ids: Vec<Option<i32>>,
    pub sources: Vec<Source>,
    /// Whether the ALTER adds a constraint or an index (its errors are then
    /// followed by Msg 1750).
    pub creates: bool,
}

/// A table's definition being edited.
pub struct Editor<'a> {
    pub table: &'a TableMeta,
    catalog: &'a Catalog,
    pub memory_optimized: bool,
    create: ast::CreateTable,
    old_nodes: Vec<Node>,
    /// Per CHECK / FOREIGN KEY node of the stored definition, its id.
    old_ids: Vec<i32>,
    removed: Vec<Place>,
    added: Vec<TableElement>,
    /// Per added column, `WITH VALUES`.
    with_values: Vec<bool>,
    /// The column ALTER COLUMN changes.
    altered: Option<usize>,
    creates: bool,
}

impl<'a> Editor<'a> {
    /// Starts from `create`, the table's stored definition (without the
    /// hidden id list).
    pub fn new(
        table: &'a TableMeta,
        catalog: &'a Catalog,
        create: ast::CreateTable,
    ) -> Outcome<Editor<'a>> {
        let old_nodes = nodes(&create.elements, 0);
        let (mut checks, mut keys) = (table.checks.iter(), table.foreign_keys.iter());
        let old_ids: Option<Vec<i32>> = old_nodes
            .iter()
            .filter_map(|node| match node.kind {
                NodeKind::Check => Some(checks.next().map(|c| c.object_id)),
                NodeKind::ForeignKey => Some(keys.next().map(|k| k.object_id)),
                _ => None,
            })
            .collect();
        let indexes = old_nodes
            .iter()
            .filter(|n| matches!(n.kind, NodeKind::Key | NodeKind::Index))
            .count();
        let columns = create
            .elements
            .iter()
            .filter(|e| matches!(e, TableElement::Column(_)))
            .count();
        let matches = old_ids.is_some()
            && checks.next().is_none()
            && keys.next().is_none()
            && indexes == table.indexes.len()
            && columns == table.columns.len();
        let Some(old_ids) = old_ids.filter(|_| matches) else {
            return Err(msg::damaged(table.object_id).into());
        };
        let memory_optimized = super::is_memory_optimized(&create);
        Ok(Editor {
            table,
            catalog,
            memory_optimized,
            create,
            old_nodes,
            old_ids,
            removed: Vec::new(),
            added: Vec::new(),
            with_values: Vec::new(),
            altered: None,
            creates: false,
        })
    }

    /// The stored definition's element for column `ordinal`.
    fn column_element(&self, ordinal: usize) -> usize {
        self.create
            .elements
            .iter()
            .enumerate()
            .filter(|(_, e)| matches!(e, TableElement::Column(_)))
            .nth(ordinal)
            .map(|(position, _)| position)
            .expect("every column has its element")
    }

    fn column_def(&mut self, ordinal: usize) -> &mut ast::ColumnDef {
        let element = self.column_element(ordinal);
        match &mut self.create.elements[element] {
            TableElement::Column(column) => column,
            _ => unreachable!("column_element finds columns"),
        }
    }

    /// The node of index `index` of the table.
    fn index_node(&self, index: usize) -> Node {
        *self
            .old_nodes
            .iter()
            .filter(|n| matches!(n.kind, NodeKind::Key | NodeKind::Index))
            .nth(index)
            .expect("nodes match the table's indexes")
    }

    fn index_place(&self, index: usize) -> Place {
        self.index_node(index).place
    }

    /// Whether index `index` is a PRIMARY KEY or UNIQUE constraint (not an
    /// index, unique or not, made by INDEX or CREATE INDEX).
    fn is_key(&self, index: usize) -> bool {
        self.index_node(index).kind == NodeKind::Key
    }

    fn constraint_place(&self, kind: NodeKind, position: usize) -> Place {
        self.old_nodes
            .iter()
            .filter(|n| n.kind == kind)
            .nth(position)
            .expect("nodes match the table's constraints")
            .place
    }

    fn is_removed(&self, place: Place) -> bool {
        self.removed
            .iter()
            .any(|&r| r == place || r == Place::Element(place.element()))
    }

    fn has_primary_key(&self) -> bool {
        let kept = self.table.indexes.iter().enumerate().any(|(i, index)| {
            index.constraint == Some(KeyConstraint::PrimaryKey)
                && !self.is_removed(self.index_place(i))
        });
        kept || self.added.iter().any(adds_primary_key)
    }

    fn index_named(&self, name: &str) -> Option<usize> {
        self.table
            .indexes
            .iter()
            .position(|index| index.name.eq_ignore_ascii_case(name))
    }

    /// An added index or key may not take the name of an index the table
    /// keeps, of its statistics, or of another one added (Msg 1913).
    fn check_index_name(&self, name: &str) -> Outcome<()> {
        let kept = self
            .index_named(name)
            .is_some_and(|i| !self.is_removed(self.index_place(i)))
            || self
                .catalog
                .statistics_of(self.table.object_id)
                .any(|s| s.name.eq_ignore_ascii_case(name));
        let added = nodes(&self.added, 0).iter().any(|node| {
            added_index_name(&self.added, node).is_some_and(|n| n.eq_ignore_ascii_case(name))
        });
        if kept || added {
            return Err(msg::index_exists(name, &self.table.name).into());
        }
        Ok(())
    }

    // -- ADD ----------------------------------------------------------------

    /// `ALTER TABLE ... ADD` columns, constraints and indexes.
    pub fn add(&mut self, elements: &[TableElement]) -> Outcome<()> {
        self.creates = true;
        for element in elements {
            match element {
                TableElement::Column(column) => {
                    let adds_key = column
                        .constraints
                        .iter()
                        .any(|c| matches!(c.kind, ConstraintKind::Key { primary: true, .. }));
                    if adds_key && self.has_primary_key() {
                        return Err(Failure::creating(msg::has_primary_key(&self.table.name)));
                    }
                    if let Some(index) = &column.index {
                        self.check_table_index(index)?;
                        self.check_index_name(&index.name.value)?;
                    }
                    let mut column = column.clone();
                    // WITH VALUES says how to fill the rows there are now;
                    // the definition describes the table.
                    self.with_values.push(column.with_values);
                    column.with_values = false;
                    self.added.push(TableElement::Column(column));
                }
                TableElement::Constraint(constraint) => self.add_constraint(constraint)?,
                TableElement::Index(index) => {
                    self.check_table_index(index)?;
                    self.check_index_name(&index.name.value)?;
                    self.added.push(TableElement::Index(index.clone()));
                }
            }
        }
        Ok(())
    }

    fn add_constraint(&mut self, constraint: &ast::TableConstraint) -> Outcome<()> {
        match &constraint.kind {
            ConstraintKind::Default { value, column } => {
                self.add_default(constraint.name.as_ref(), value, column)
            }
            ConstraintKind::Key {
                primary, columns, ..
            } => {
                if *primary {
                    if self.has_primary_key() {
                        return Err(Failure::creating(msg::has_primary_key(&self.table.name)));
                    }
                    for column in columns {
                        if self.is_nullable(&column.name.value) {
                            return Err(Failure::creating(msg::nullable_key(&self.table.name)));
                        }
                    }
                }
                if let Some(name) = &constraint.name {
                    self.check_index_name(&name.value)?;
                }
                self.added
                    .push(TableElement::Constraint(constraint.clone()));
                Ok(())
            }
            ConstraintKind::Check(_) | ConstraintKind::ForeignKey { .. } => {
                self.added
                    .push(TableElement::Constraint(constraint.clone()));
                Ok(())
            }
        }
    }

    /// Whether column `name` (kept or added) may hold NULL, as a PRIMARY
    /// KEY added over it sees it (an unknown column is the binder's error).
    fn is_nullable(&self, name: &str) -> bool {
        if let Some(ordinal) = self.table.column_index(name) {
            if self.is_removed(Place::Element(self.column_element(ordinal))) {
                return false;
            }
            return match self.altered {
                Some(altered) if altered == ordinal => {
                    self.current_column(ordinal).nullable != Some(false)
                }
                _ => self.table.columns[ordinal].nullable,
            };
        }
        self.added.iter().any(|element| match element {
            TableElement::Column(column) if column.name.value.eq_ignore_ascii_case(name) => {
                column.nullable != Some(false) && column.identity.is_none()
            }
            _ => false,
        })
    }

    fn current_column(&self, ordinal: usize) -> &ast::ColumnDef {
        match &self.create.elements[self.column_element(ordinal)] {
            TableElement::Column(column) => column,
            _ => unreachable!("column_element finds columns"),
        }
    }

    /// `ADD [CONSTRAINT name] DEFAULT value FOR column`: the column's
    /// DEFAULT, as if it had been declared with it.
    fn add_default(
        &mut self,
        name: Option<&ast::Ident>,
        value: &ast::Expr,
        column: &ast::Ident,
    ) -> Outcome<()> {
        let default = Some((name.cloned(), value.clone()));
        if let Some(ordinal) = self.table.column_index(&column.value) {
            let element = self.column_element(ordinal);
            if !self.is_removed(Place::Element(element)) {
                let def = self.column_def(ordinal);
                if def.default.is_some() {
                    return Err(Failure::creating(msg::has_default()));
                }
                def.default = default;
                return Ok(());
            }
        }
        for element in &mut self.added {
            if let TableElement::Column(def) = element {
                if def.name.value.eq_ignore_ascii_case(&column.value) {
                    if def.default.is_some() {
                        return Err(Failure::creating(msg::has_default()));
                    }
                    def.default = default;
                    return Ok(());
                }
            }
        }
        Err(Failure::creating(msg::no_default_column(
            &column.value,
            &self.table.name,
        )))
    }

    /// An index ALTER TABLE ADD or CREATE INDEX may add to this table.
    fn check_table_index(&self, index: &ast::IndexDef) -> Outcome<()> {
        if !self.memory_optimized {
            return Err(Failure::creating(msg::only_memory_optimized(
                "ALTER TABLE ADD INDEX",
                1,
            )));
        }
        check_memory_optimized_index(index)
    }

    // -- CREATE INDEX / DROP INDEX -----------------------------------------

    /// `CREATE [UNIQUE] [NONCLUSTERED] INDEX ix ON t (columns)`: tables
    /// created without MEMORY_OPTIMIZED = ON only, as in SQL Server.
    pub fn create_index(&mut self, index: &ast::IndexDef) -> Outcome<()> {
        if self.memory_optimized {
            return Err(msg::not_with_memory_optimized("CREATE INDEX").into());
        }
        if index.layout.clustered == Some(true) {
            return Err(not_supported_yet(Refused::Feature, "CLUSTERED indexes").into());
        }
        if index.layout.columnstore {
            return Err(not_supported_yet(Refused::Feature, "COLUMNSTORE indexes").into());
        }
        if !index.include.is_empty() || index.filter.is_some() {
            return Err(not_supported_yet(Refused::Feature, "INCLUDE and filtered indexes").into());
        }
        if index.layout.hash {
            return Err(msg::hash_on_disk_table().into());
        }
        self.check_index_name(&index.name.value)?;
        self.added.push(TableElement::Index(index.clone()));
        Ok(())
    }

    /// Removes index `name`: `statement` says how it was asked for.
    pub fn drop_index(&mut self, name: &str, statement: DropIndex) -> Outcome<bool> {
        match statement {
            DropIndex::AlterTable if !self.memory_optimized => {
                return Err(Failure::creating(msg::only_memory_optimized(
                    "ALTER TABLE DROP INDEX",
                    2,
                )));
            }
            DropIndex::Statement if self.memory_optimized => {
                return Err(msg::not_with_memory_optimized("DROP INDEX").into());
            }
            _ => {}
        }
        let found = self
            .index_named(name)
            .filter(|&i| !self.is_removed(self.index_place(i)));
        let Some(index) = found else {
            return Ok(false);
        };
        let meta = &self.table.indexes[index];
        let enforces = match meta.constraint {
            Some(KeyConstraint::PrimaryKey) if self.is_key(index) => Some("PRIMARY KEY"),
            Some(KeyConstraint::Unique) if self.is_key(index) => Some("UNIQUE KEY"),
            _ if self.referencing_keys(index).next().is_some() => Some("FOREIGN KEY"),
            _ => None,
        };
        if let Some(enforces) = enforces {
            let schema = self
                .catalog
                .schema_name(self.table.schema_id)
                .unwrap_or("dbo");
            let table = format!("{schema}.{}", self.table.name);
            return Err(msg::index_enforces(&table, &meta.name, enforces).into());
        }
        self.removed.push(self.index_place(index));
        Ok(true)
    }

    /// The foreign keys (of any table, this one included) that reference
    /// index `index` of this table: (table name, key name).
    fn referencing_keys(&self, index: usize) -> impl Iterator<Item = (String, String)> + '_ {
        self.catalog
            .referencing_keys(self.table.object_id)
            .into_iter()
            .filter(move |(child, position)| {
                child.foreign_keys[*position].referenced_index == index
                    && !(child.object_id == self.table.object_id
                        && self.is_removed(self.constraint_place(NodeKind::ForeignKey, *position)))
            })
            .map(|(child, position)| {
                (
                    child.name.clone(),
                    child.foreign_keys[position].name.clone(),
                )
            })
    }

    // -- DROP CONSTRAINT ---------------------------------------------------

    /// Removes the constraint `name`; false if the table has none so
    /// called.
    pub fn drop_constraint(&mut self, name: &str) -> Outcome<bool> {
        let table = self.table;
        let key = (0..table.indexes.len())
            .find(|&i| self.is_key(i) && table.indexes[i].name.eq_ignore_ascii_case(name));
        if let Some(index) = key {
            let place = self.index_place(index);
            if self.is_removed(place) {
                return Ok(false);
            }
            if let Some((child, foreign_key)) = self.referencing_keys(index).next() {
                return Err(Failure {
                    before: vec![msg::key_referenced(
                        &table.indexes[index].name,
                        &child,
                        &foreign_key,
                    )],
                    last: msg::could_not_drop_constraint(),
                    data: false,
                });
            }
            // The key's columns stay NOT NULL, as in SQL Server.
            for &(column, _) in &table.indexes[index].columns {
                let def = self.column_def(column);
                if def.nullable.is_none() {
                    def.nullable = Some(false);
                }
            }
            self.removed.push(place);
            return Ok(true);
        }
        let check = table
            .checks
            .iter()
            .position(|c| c.name.eq_ignore_ascii_case(name))
            .map(|p| self.constraint_place(NodeKind::Check, p));
        let foreign = table
            .foreign_keys
            .iter()
            .position(|k| k.name.eq_ignore_ascii_case(name))
            .map(|p| self.constraint_place(NodeKind::ForeignKey, p));
        if let Some(place) = check.or(foreign) {
            if self.is_removed(place) {
                return Ok(false);
            }
            self.removed.push(place);
            return Ok(true);
        }
        let default = table.columns.iter().position(|c| {
            c.default_name
                .as_deref()
                .is_some_and(|n| n.eq_ignore_ascii_case(name))
        });
        if let Some(ordinal) = default {
            if self.is_removed(Place::Element(self.column_element(ordinal))) {
                return Ok(false);
            }
            let def = self.column_def(ordinal);
            if def.default.is_none() {
                return Ok(false);
            }
            def.default = None;
            return Ok(true);
        }
        Ok(false)
    }

    // -- DROP COLUMN / ALTER COLUMN ----------------------------------------

    /// What depends on column `ordinal` and stops DROP COLUMN or ALTER
    /// COLUMN (`dropping`: a named DEFAULT counts too): Msg 5074 for each.
    fn dependents(&self, ordinal: usize, dropping: bool) -> Vec<SqlError> {
        let table = self.table;
        let column = &table.columns[ordinal].name;
        let mut found = Vec::new();
        for (i, index) in table.indexes.iter().enumerate() {
            if self.is_removed(self.index_place(i))
                || !index.columns.iter().any(|&(c, _)| c == ordinal)
            {
                continue;
            }
            found.push(if self.is_key(i) {
                msg::object_depends(&index.name, column)
            } else {
                msg::index_depends(&index.name, column)
            });
        }
        for (p, check) in table.checks.iter().enumerate() {
            if !self.is_removed(self.constraint_place(NodeKind::Check, p))
                && (check.reads.contains(&ordinal) || check.column == Some(ordinal))
            {
                found.push(msg::object_depends(&check.name, column));
            }
        }
        for (p, key) in table.foreign_keys.iter().enumerate() {
            if !self.is_removed(self.constraint_place(NodeKind::ForeignKey, p))
                && key.columns.contains(&ordinal)
            {
                found.push(msg::object_depends(&key.name, column));
            }
        }
        for (child, position) in self.catalog.referencing_keys(table.object_id) {
            let key = &child.foreign_keys[position];
            if child.object_id != table.object_id && key.referenced_columns.contains(&ordinal) {
                found.push(msg::object_depends(&key.name, column));
            }
        }
        let schema = self.catalog.schema_name(table.schema_id).unwrap_or("dbo");
        for bound in self.catalog.bindings.referencing(table.object_id) {
            let reads = self
                .catalog
                .module_definition(bound)
                .is_some_and(|definition| {
                    dependency::reads_column(definition, schema, &table.name, column)
                });
            if reads {
                found.push(msg::object_depends(
                    &self.catalog.object_name(bound),
                    column,
                ));
            }
        }
        for statistics in self.catalog.statistics_of(table.object_id) {
            if statistics.columns.contains(&ordinal) {
                found.push(msg::statistics_depends(&statistics.name, column));
            }
        }
        if dropping {
            if let Some(name) = &table.columns[ordinal].default_name {
                if self.current_column(ordinal).default.is_some() {
                    found.push(msg::object_depends(name, column));
                }
            }
        }
        found
    }

    /// `DROP COLUMN name`; false if there is no such column.
    pub fn drop_column(&mut self, name: &str) -> Outcome<bool> {
        let Some(ordinal) = self.table.column_index(name) else {
            return Ok(false);
        };
        let element = self.column_element(ordinal);
        if self.is_removed(Place::Element(element)) {
            return Ok(false);
        }
        let dependents = self.dependents(ordinal, true);
        let column = &self.table.columns[ordinal].name;
        if !dependents.is_empty() {
            return Err(Failure {
                before: dependents,
                last: msg::column_in_use("DROP", column),
                data: false,
            });
        }
        let left = (0..self.table.columns.len())
            .filter(|&c| !self.is_removed(Place::Element(self.column_element(c))))
            .count();
        if left <= 1
            && !self
                .added
                .iter()
                .any(|e| matches!(e, TableElement::Column(_)))
        {
            return Err(msg::only_column(column, &self.table.name).into());
        }
        self.removed.push(Place::Element(element));
        Ok(true)
    }

    /// `ALTER COLUMN name type [COLLATE c] [NULL | NOT NULL]`: the
    /// column's type, collation and nullability are replaced (unsaid
    /// collation and nullability revert to the defaults, as in SQL
    /// Server); its DEFAULT and IDENTITY stay.
    pub fn alter_column(
        &mut self,
        name: &str,
        data_type: &ast::DataType,
        collation: Option<&ast::Ident>,
        nullable: Option<bool>,
    ) -> Outcome<()> {
        let Some(ordinal) = self.table.column_index(name) else {
            return Err(msg::no_column("ALTER COLUMN", name, &self.table.name).into());
        };
        let dependents = self.dependents(ordinal, false);
        if !dependents.is_empty() {
            return Err(Failure {
                before: dependents,
                last: msg::column_in_use("ALTER", &self.table.columns[ordinal].name),
                data: false,
            });
        }
        let def = self.column_def(ordinal);
        def.data_type = Some(data_type.clone());
        def.collation = collation.cloned();
        def.nullable = nullable;
        self.altered = Some(ordinal);
        Ok(())
    }

    // -- ALTER INDEX ... REBUILD -------------------------------------------

    /// `ALTER INDEX name REBUILD [WITH (BUCKET_COUNT = n)]`.
    pub fn rebuild_index(&mut self, name: &str, options: &[ast::OptionItem]) -> Outcome<()> {
        if !self.memory_optimized {
            return Err(msg::only_memory_optimized("ALTER TABLE ALTER INDEX", 3).into());
        }
        let Some(index) = self.index_named(name) else {
            return Err(msg::no_index_to_alter(name).into());
        };
        let hash = matches!(self.table.indexes[index].kind, IndexKind::Hash { .. });
        for option in options {
            let option_name = option
                .name
                .iter()
                .map(|w| w.value.to_ascii_uppercase())
                .collect::<Vec<_>>()
                .join(" ");
            if option_name != "BUCKET_COUNT" {
                return Err(msg::index_option(&option_name.to_ascii_lowercase()).into());
            }
            if !hash {
                return Err(msg::bucket_count_not_hash().into());
            }
        }
        let place = self.index_place(index);
        let Some(current) = self.index_options(place) else {
            return Err(msg::damaged(self.table.object_id).into());
        };
        for option in options {
            let named = current.iter_mut().find(|o| {
                o.name.len() == 1 && o.name[0].value.eq_ignore_ascii_case("BUCKET_COUNT")
            });
            match named {
                Some(existing) => existing.value = option.value.clone(),
                None => current.push(option.clone()),
            }
        }
        Ok(())
    }

    /// The WITH options of the key or index at `place`.
    fn index_options(&mut self, place: Place) -> Option<&mut Vec<ast::OptionItem>> {
        let element = self.create.elements.get_mut(place.element())?;
        match (place, element) {
            (Place::Element(_), TableElement::Index(index)) => Some(&mut index.options),
            (Place::Element(_), TableElement::Constraint(constraint)) => {
                key_options(&mut constraint.kind)
            }
            (Place::ColumnConstraint(_, k), TableElement::Column(column)) => {
                key_options(&mut column.constraints.get_mut(k)?.kind)
            }
            (Place::ColumnIndex(_), TableElement::Column(column)) => {
                column.index.as_mut().map(|index| &mut index.options)
            }
            _ => None,
        }
    }

    // -- the result ----------------------------------------------------------

    pub fn finish(self) -> Plan {
        let Editor {
            table,
            mut create,
            old_nodes,
            old_ids,
            removed,
            added,
            with_values,
            altered,
            creates,
            ..
        } = self;
        let gone = |place: Place| {
            removed
                .iter()
                .any(|&r| r == place || r == Place::Element(place.element()))
        };
        let mut ids: Vec<Option<i32>> = old_nodes
            .iter()
            .filter(|n| matches!(n.kind, NodeKind::Check | NodeKind::ForeignKey))
            .zip(&old_ids)
            .filter(|(node, _)| !gone(node.place))
            .map(|(_, &id)| Some(id))
            .collect();
        let mut sources = Vec::new();
        let mut elements = Vec::new();
        let mut ordinal = 0;
        for (e, element) in std::mem::take(&mut create.elements).into_iter().enumerate() {
            if gone(Place::Element(e)) {
                if matches!(element, TableElement::Column(_)) {
                    ordinal += 1;
                }
                continue;
            }
            match element {
                TableElement::Column(mut column) => {
                    let mut k = 0;
                    column.constraints.retain(|_| {
                        k += 1;
                        !gone(Place::ColumnConstraint(e, k - 1))
                    });
                    if gone(Place::ColumnIndex(e)) {
                        column.index = None;
                    }
                    sources.push(if altered == Some(ordinal) {
                        Source::Converted(ordinal)
                    } else {
                        Source::Kept(ordinal)
                    });
                    ordinal += 1;
                    elements.push(TableElement::Column(column));
                }
                other => elements.push(other),
            }
        }
        debug_assert_eq!(ordinal, table.columns.len());
        let mut added_columns = with_values.into_iter();
        for node in nodes(&added, 0) {
            if matches!(node.kind, NodeKind::Check | NodeKind::ForeignKey) {
                ids.push(None);
            }
        }
        for element in added {
            if let TableElement::Column(_) = element {
                sources.push(Source::Added {
                    with_values: added_columns.next().unwrap_or(false),
                });
            }
            elements.push(element);
        }
        create.elements = elements;
        Plan {
            create,
            ids,
            sources,
            creates,
        }
    }
}

/// How a DROP INDEX was asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropIndex {
    /// `ALTER TABLE t DROP INDEX ix` (memory-optimized tables).
    AlterTable,
    /// `DROP INDEX ix ON t` / `DROP INDEX t.ix` (other tables).
    Statement,
}

fn key_options(kind: &mut ConstraintKind) -> Option<&mut Vec<ast::OptionItem>> {
    match kind {
        ConstraintKind::Key { options, .. } => Some(options),
        _ => None,
    }
}

fn adds_primary_key(element: &TableElement) -> bool {
    let primary = |kind: &ConstraintKind| matches!(kind, ConstraintKind::Key { primary: true, .. });
    match element {
        TableElement::Column(column) => column.constraints.iter().any(|c| primary(&c.kind)),
        TableElement::Constraint(constraint) => primary(&constraint.kind),
        TableElement::Index(_) => false,
    }
}

/// The name an added index or named key has, if written.
fn added_index_name<'e>(elements: &'e [TableElement], node: &Node) -> Option<&'e str> {
    let element = elements.get(node.place.element())?;
    match (node.place, element) {
        (Place::Element(_), TableElement::Index(index)) => Some(&index.name.value),
        (Place::Element(_), TableElement::Constraint(constraint)) if node.kind == NodeKind::Key => {
            constraint.name.as_ref().map(|n| n.value.as_str())
        }
        (Place::ColumnIndex(_), TableElement::Column(column)) => {
            column.index.as_ref().map(|index| index.name.value.as_str())
        }
        (Place::ColumnConstraint(_, k), TableElement::Column(column)) => {
            let constraint = column.constraints.get(k)?;
            match constraint.kind {
                ConstraintKind::Key { .. } => constraint.name.as_ref().map(|n| n.value.as_str()),
                _ => None,
            }
        }
        _ => None,
    }
}

/// What a memory-optimized table's index may not be: CLUSTERED (12317),
/// INCLUDE (10664), filtered (10794); columnstore is not built yet.
fn check_memory_optimized_index(index: &ast::IndexDef) -> Outcome<()> {
    if index.layout.columnstore {
        return Err(not_supported_yet(Refused::Feature, "COLUMNSTORE indexes").into());
    }
    if index.layout.clustered == Some(true) {
        return Err(msg::clustered_memory_optimized().into());
    }
    if !index.include.is_empty() {
        return Err(Failure::creating(msg::included_columns()));
    }
    if index.filter.is_some() {
        return Err(msg::filtered_memory_optimized().into());
    }
    Ok(())
}
