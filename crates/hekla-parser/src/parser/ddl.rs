//! CREATE / ALTER / DROP, table definitions, modules (procedures, functions,
//! views), security statements and database options.

use super::{Parser, Result};
use crate::ast::*;
use crate::error::SyntaxError;
use crate::lexer::TokenKind;

impl Parser<'_> {
    pub(super) fn create(&mut self) -> Result<StatementKind> {
        self.expect_word("CREATE")?;
        let or_alter = if self.is_word("OR") && self.is_word_at(1, "ALTER") {
            self.advance();
            self.advance();
            true
        } else {
            false
        };
        if self.eat_word("PROC") || self.eat_word("PROCEDURE") {
            return self.procedure(or_alter, false);
        }
        if self.eat_word("FUNCTION") {
            return self.function(or_alter, false);
        }
        if self.eat_word("VIEW") {
            return self.view(or_alter, false);
        }
        if or_alter {
            return Err(self.unsupported_object("CREATE"));
        }
        if self.eat_word("TABLE") {
            return self.create_table();
        }
        if self.at_index_definition() {
            return self.create_index();
        }
        if self.eat_word("TYPE") {
            return self.create_type();
        }
        if self.eat_word("SEQUENCE") {
            let name = self.object_name()?;
            let data_type = if self.eat_word("AS") {
                Some(self.data_type()?)
            } else {
                None
            };
            let options = self.sequence_options()?;
            return Ok(StatementKind::CreateSequence(Box::new(CreateSequence {
                name,
                data_type,
                options,
            })));
        }
        if self.eat_word("SCHEMA") {
            let name = self.ident()?;
            let authorization = if self.eat_word("AUTHORIZATION") {
                Some(self.ident()?)
            } else {
                None
            };
            self.check_schema_elements(&name)?;
            return Ok(StatementKind::CreateSchema {
                name,
                authorization,
            });
        }
        if self.eat_word("STATISTICS") {
            let name = self.ident()?;
            self.expect_word("ON")?;
            let table = self.object_name()?;
            let columns = self.ident_list_in_parens()?;
            let options = self.statistics_options()?;
            return Ok(StatementKind::CreateStatistics {
                name,
                table,
                columns,
                options,
            });
        }
        if self.eat_word("DATABASE") {
            return self.create_database();
        }
        if let Some(principal) = self.principal_kind() {
            return self.principal(principal, false);
        }
        Err(self.unsupported_object("CREATE"))
    }

    pub(super) fn alter(&mut self) -> Result<StatementKind> {
        self.expect_word("ALTER")?;
        if self.eat_word("PROC") || self.eat_word("PROCEDURE") {
            return self.procedure(false, true);
        }
        if self.eat_word("FUNCTION") {
            return self.function(false, true);
        }
        if self.eat_word("VIEW") {
            return self.view(false, true);
        }
        if self.eat_word("TABLE") {
            return self.alter_table();
        }
        if self.eat_word("SEQUENCE") {
            let name = self.object_name()?;
            let options = self.sequence_options()?;
            return Ok(StatementKind::AlterSequence(Box::new(AlterSequence {
                name,
                options,
            })));
        }
        if self.eat_word("DATABASE") {
            return self.alter_database();
        }
        let server = self.is_word("SERVER") && self.is_word_at(1, "ROLE");
        if server {
            self.advance();
        }
        if self.is_word("ROLE")
            && self.kind_at(2) == TokenKind::Word
            && self.is_word_at(3, "MEMBER")
        {
            self.advance();
            let role = self.ident()?;
            let add = if self.eat_word("ADD") {
                true
            } else {
                self.expect_word("DROP")?;
                false
            };
            self.expect_word("MEMBER")?;
            let member = self.ident()?;
            return Ok(StatementKind::AlterRole {
                role,
                add,
                member,
                server,
            });
        }
        if server {
            return Err(self.error_here());
        }
        if self.eat_word("INDEX") {
            // `ALTER INDEX ix ON t REBUILD` is ALTER TABLE t ALTER INDEX.
            let index = self.ident()?;
            self.expect_word("ON")?;
            let table = self.object_name()?;
            self.expect_word("REBUILD")?;
            let options = self.optional_with_options()?;
            return Ok(StatementKind::AlterTable(Box::new(AlterTable {
                table,
                action: AlterTableAction::RebuildIndex { index, options },
            })));
        }
        if let Some(principal) = self.principal_kind() {
            return self.principal(principal, true);
        }
        Err(self.unsupported_object("ALTER"))
    }

    pub(super) fn drop(&mut self) -> Result<StatementKind> {
        self.expect_word("DROP")?;
        let object_type = match self.text(self.peek()).to_ascii_uppercase().as_str() {
            "TABLE" => DropType::Table,
            "VIEW" => DropType::View,
            "PROC" | "PROCEDURE" => DropType::Procedure,
            "FUNCTION" => DropType::Function,
            "INDEX" => DropType::Index,
            "SCHEMA" => DropType::Schema,
            "TYPE" => DropType::Type,
            "SEQUENCE" => DropType::Sequence,
            "STATISTICS" => DropType::Statistics,
            "LOGIN" => DropType::Login,
            "USER" => DropType::User,
            "ROLE" => DropType::Role,
            "DATABASE" => DropType::Database,
            _ => return Err(self.error_here()),
        };
        if self.kind() != TokenKind::Word {
            return Err(self.error_here());
        }
        self.advance();
        let if_exists = if self.is_word("IF") && self.is_word_at(1, "EXISTS") {
            self.advance();
            self.advance();
            true
        } else {
            false
        };
        let names = self.comma_list(Self::object_name)?;
        let on_table = if object_type == DropType::Index && self.eat_word("ON") {
            Some(self.object_name()?)
        } else {
            None
        };
        Ok(StatementKind::Drop {
            object_type,
            if_exists,
            names,
            on_table,
        })
    }

    // -- tables -------------------------------------------------------------

    fn create_table(&mut self) -> Result<StatementKind> {
        let name = self.object_name()?;
        let elements = self.table_elements()?;
        let mut filegroup = self.optional_filegroup()?;
        let options = self.optional_with_options()?;
        if filegroup.is_none() {
            filegroup = self.optional_filegroup()?;
        }
        Ok(StatementKind::CreateTable(Box::new(CreateTable {
            name,
            elements,
            options,
            filegroup,
        })))
    }

    /// `ON [PRIMARY]` / `ON fg`; `ON scheme (column)` places a table or
    /// index on a partition scheme, which hekla refuses (Msg 10794) as it
    /// refuses CREATE PARTITION SCHEME.
    fn optional_filegroup(&mut self) -> Result<Option<Ident>> {
        if !self.eat_word("ON") {
            return Ok(None);
        }
        let line = self.peek().span.line;
        let filegroup = if self.is_word("PRIMARY") {
            self.word_ident()
        } else {
            self.ident()?
        };
        if self.at(TokenKind::LParen) {
            return Err(SyntaxError::unsupported(
                "ON partition_scheme (column)",
                line,
            ));
        }
        Ok(Some(filegroup))
    }

    /// `(element, ...)` of a table definition.
    pub(super) fn table_elements(&mut self) -> Result<Vec<TableElement>> {
        self.expect(TokenKind::LParen)?;
        let elements = self.comma_list(Self::table_element)?;
        self.expect(TokenKind::RParen)?;
        Ok(elements)
    }

    fn table_element(&mut self) -> Result<TableElement> {
        if self.is_word("INDEX") {
            self.advance();
            return Ok(TableElement::Index(self.index_body(true)?));
        }
        if self.is_any_word(&["CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "FOREIGN"]) {
            return Ok(TableElement::Constraint(self.table_constraint(true)?));
        }
        Ok(TableElement::Column(Box::new(self.column_def()?)))
    }

    fn column_def(&mut self) -> Result<ColumnDef> {
        let name = self.ident()?;
        let mut column = ColumnDef {
            span: name.span,
            name,
            data_type: None,
            computed: None,
            collation: None,
            nullable: None,
            identity: None,
            default: None,
            with_values: false,
            constraints: Vec::new(),
            index: None,
        };
        if self.eat_word("AS") {
            let expr = self.expr()?;
            let persisted = self.eat_word("PERSISTED");
            column.computed = Some((expr, persisted));
        } else {
            column.data_type = Some(self.data_type()?);
        }
        loop {
            if self.eat_word("COLLATE") {
                column.collation = Some(self.ident()?);
            } else if self.eat_word("NULL") {
                column.nullable = Some(true);
            } else if self.is_word("NOT") && self.is_word_at(1, "NULL") {
                self.advance();
                self.advance();
                column.nullable = Some(false);
            } else if self.eat_word("IDENTITY") {
                column.identity = Some(self.identity_arguments()?);
            } else if self.is_word("INDEX") {
                self.advance();
                column.index = Some(self.index_body(false)?);
            } else if self.eat_word("ROWGUIDCOL") || self.eat_word("SPARSE") {
                continue;
            } else if let Some(constraint) = self.column_constraint()? {
                match constraint {
                    ColumnConstraint::Default(name, value) => {
                        column.default = Some((name, value));
                        if self.is_word("WITH") && self.is_word_at(1, "VALUES") {
                            self.pos += 2;
                            column.with_values = true;
                        }
                    }
                    ColumnConstraint::Other(constraint) => column.constraints.push(constraint),
                }
            } else {
                break;
            }
        }
        column.span = self.span_from(column.span);
        Ok(column)
    }

    /// `(seed, increment)` after IDENTITY; both default to 1.
    fn identity_arguments(&mut self) -> Result<(Expr, Expr)> {
        if self.eat(TokenKind::LParen) {
            let seed = self.unary()?;
            self.expect(TokenKind::Comma)?;
            let increment = self.unary()?;
            self.expect(TokenKind::RParen)?;
            return Ok((seed, increment));
        }
        let one = |span| Expr {
            kind: ExprKind::Literal(Literal::Integer("1".to_string())),
            span,
        };
        let span = self.previous_span();
        Ok((one(span), one(span)))
    }

    /// A column-level `[CONSTRAINT n] DEFAULT|PRIMARY KEY|UNIQUE|CHECK|
    /// REFERENCES|FOREIGN KEY`.
    fn column_constraint(&mut self) -> Result<Option<ColumnConstraint>> {
        let start = self.peek().span;
        let name = if self.eat_word("CONSTRAINT") {
            Some(self.ident()?)
        } else {
            None
        };
        if self.eat_word("DEFAULT") {
            let value = self.expr()?;
            return Ok(Some(ColumnConstraint::Default(name, value)));
        }
        if !self.is_any_word(&["PRIMARY", "UNIQUE", "CHECK", "REFERENCES", "FOREIGN"]) {
            if name.is_some() {
                return Err(self.error_here());
            }
            return Ok(None);
        }
        let kind = self.constraint_kind(false)?;
        Ok(Some(ColumnConstraint::Other(TableConstraint {
            name,
            kind,
            span: self.span_from(start),
        })))
    }

    /// A table-level constraint (`table_level`: key columns are required).
    fn table_constraint(&mut self, table_level: bool) -> Result<TableConstraint> {
        let start = self.peek().span;
        let name = if self.eat_word("CONSTRAINT") {
            Some(self.ident()?)
        } else {
            None
        };
        let kind = if self.eat_word("DEFAULT") {
            let value = self.expr()?;
            self.expect_word("FOR")?;
            ConstraintKind::Default {
                value,
                column: self.ident()?,
            }
        } else {
            self.constraint_kind(table_level)?
        };
        Ok(TableConstraint {
            name,
            kind,
            span: self.span_from(start),
        })
    }

    fn constraint_kind(&mut self, table_level: bool) -> Result<ConstraintKind> {
        if self.eat_word("CHECK") {
            self.eat_not_for_replication();
            self.expect(TokenKind::LParen)?;
            let condition = self.expr()?;
            self.expect(TokenKind::RParen)?;
            return Ok(ConstraintKind::Check(condition));
        }
        let primary = if self.eat_word("PRIMARY") {
            self.expect_word("KEY")?;
            Some(true)
        } else if self.eat_word("UNIQUE") {
            Some(false)
        } else {
            None
        };
        if let Some(primary) = primary {
            let layout = self.index_layout();
            let columns = if table_level || self.at(TokenKind::LParen) {
                self.index_columns()?
            } else {
                Vec::new()
            };
            let options = self.index_options()?;
            self.optional_filegroup()?;
            return Ok(ConstraintKind::Key {
                primary,
                layout,
                columns,
                options,
            });
        }
        let columns = if self.eat_word("FOREIGN") {
            self.expect_word("KEY")?;
            // A column constraint may leave its one column unsaid:
            // `c int FOREIGN KEY REFERENCES t (id)`.
            if table_level || self.at(TokenKind::LParen) {
                self.ident_list_in_parens()?
            } else {
                Vec::new()
            }
        } else {
            Vec::new()
        };
        self.expect_word("REFERENCES")?;
        let table = self.object_name()?;
        let referenced = if self.at(TokenKind::LParen) {
            self.ident_list_in_parens()?
        } else {
            Vec::new()
        };
        let (mut on_delete, mut on_update) = (None, None);
        while self.is_word("ON") {
            self.advance();
            let delete = self.eat_word("DELETE");
            if !delete {
                self.expect_word("UPDATE")?;
            }
            let action = self.referential_action()?;
            if delete {
                on_delete = Some(action);
            } else {
                on_update = Some(action);
            }
        }
        self.eat_not_for_replication();
        Ok(ConstraintKind::ForeignKey {
            columns,
            table,
            referenced,
            on_delete,
            on_update,
        })
    }

    fn eat_not_for_replication(&mut self) {
        if self.is_word("NOT") && self.is_word_at(1, "FOR") && self.is_word_at(2, "REPLICATION") {
            self.pos += 3;
        }
    }

    fn referential_action(&mut self) -> Result<ReferentialAction> {
        if self.eat_word("CASCADE") {
            return Ok(ReferentialAction::Cascade);
        }
        if self.eat_word("NO") {
            self.expect_word("ACTION")?;
            return Ok(ReferentialAction::NoAction);
        }
        self.expect_word("SET")?;
        if self.eat_word("NULL") {
            return Ok(ReferentialAction::SetNull);
        }
        self.expect_word("DEFAULT")?;
        Ok(ReferentialAction::SetDefault)
    }

    /// `[CLUSTERED | NONCLUSTERED] [HASH] [COLUMNSTORE]`.
    fn index_layout(&mut self) -> IndexLayout {
        let clustered = if self.eat_word("CLUSTERED") {
            Some(true)
        } else if self.eat_word("NONCLUSTERED") {
            Some(false)
        } else {
            None
        };
        IndexLayout {
            clustered,
            hash: self.eat_word("HASH"),
            columnstore: self.eat_word("COLUMNSTORE"),
        }
    }

    /// `(a, b DESC)`.
    fn index_columns(&mut self) -> Result<Vec<IndexColumn>> {
        self.expect(TokenKind::LParen)?;
        let columns = self.comma_list(|parser| {
            let name = parser.ident()?;
            let descending = if parser.eat_word("DESC") {
                true
            } else {
                parser.eat_word("ASC");
                false
            };
            Ok(IndexColumn {
                span: parser.span_from(name.span),
                name,
                descending,
            })
        })?;
        self.expect(TokenKind::RParen)?;
        Ok(columns)
    }

    /// `WITH (BUCKET_COUNT = n, ...)` or the old `WITH FILLFACTOR = n`.
    fn index_options(&mut self) -> Result<Vec<OptionItem>> {
        if self.is_word("WITH") && self.is_word_at(1, "FILLFACTOR") {
            self.advance();
            return Ok(vec![self.option_item()?]);
        }
        self.optional_with_options()
    }

    /// True at `[UNIQUE] [CLUSTERED|NONCLUSTERED] [HASH] INDEX` after CREATE.
    fn at_index_definition(&self) -> bool {
        let mut ahead = 0;
        for word in ["UNIQUE", "CLUSTERED", "NONCLUSTERED", "HASH", "COLUMNSTORE"] {
            if self.is_word_at(ahead, word) {
                ahead += 1;
            }
        }
        self.is_word_at(ahead, "INDEX")
    }

    fn create_index(&mut self) -> Result<StatementKind> {
        let start = self.peek().span;
        let unique = self.eat_word("UNIQUE");
        let layout = self.index_layout();
        self.expect_word("INDEX")?;
        let name = self.ident()?;
        self.expect_word("ON")?;
        let table = self.object_name()?;
        let index = self.index_rest(name, unique, layout, true, start)?;
        let filegroup = self.optional_filegroup()?;
        Ok(StatementKind::CreateIndex(Box::new(CreateIndex {
            table,
            index,
            filegroup,
        })))
    }

    /// After INDEX in a table definition: `name [UNIQUE] layout [(cols)]
    /// ...`. `with_columns`: the column list is required (table level)
    /// rather than absent (column level).
    fn index_body(&mut self, with_columns: bool) -> Result<IndexDef> {
        let name = self.ident()?;
        let start = name.span;
        let unique = self.eat_word("UNIQUE");
        let layout = self.index_layout();
        self.index_rest(name, unique, layout, with_columns, start)
    }

    /// `[(cols)] [INCLUDE (..)] [WHERE ..] [WITH (..)]`.
    fn index_rest(
        &mut self,
        name: Ident,
        unique: bool,
        layout: IndexLayout,
        with_columns: bool,
        start: crate::span::Span,
    ) -> Result<IndexDef> {
        let columns = if with_columns && self.at(TokenKind::LParen) {
            self.index_columns()?
        } else if with_columns && !layout.columnstore {
            return Err(self.error_here());
        } else {
            Vec::new()
        };
        let include = if self.eat_word("INCLUDE") {
            self.ident_list_in_parens()?
        } else {
            Vec::new()
        };
        let filter = self.optional_where()?;
        let options = self.index_options()?;
        Ok(IndexDef {
            name,
            unique,
            layout,
            columns,
            include,
            filter,
            options,
            span: self.span_from(start),
        })
    }

    fn alter_table(&mut self) -> Result<StatementKind> {
        let table = self.object_name()?;
        // WITH CHECK (validate existing rows) is what ADD CONSTRAINT does
        // anyway; WITH NOCHECK would leave unchecked rows behind.
        if self.is_word("WITH") && self.is_word_at(1, "CHECK") {
            self.pos += 2;
        } else if self.is_word("WITH") && self.is_word_at(1, "NOCHECK") {
            return Err(SyntaxError::unsupported(
                "ALTER TABLE WITH NOCHECK",
                self.peek().span.line,
            ));
        }
        let action = if self.eat_word("ADD") {
            AlterTableAction::Add(self.comma_list(Self::table_element)?)
        } else if self.eat_word("DROP") {
            let what = if self.eat_word("CONSTRAINT") {
                AlterDropKind::Constraint
            } else if self.eat_word("INDEX") {
                AlterDropKind::Index
            } else {
                self.eat_word("COLUMN");
                AlterDropKind::Column
            };
            let if_exists = if self.is_word("IF") && self.is_word_at(1, "EXISTS") {
                self.advance();
                self.advance();
                true
            } else {
                false
            };
            let names = self.comma_list(Self::ident)?;
            AlterTableAction::Drop {
                what,
                if_exists,
                names,
            }
        } else if self.eat_word("ALTER") {
            if self.eat_word("INDEX") {
                let index = self.ident()?;
                self.expect_word("REBUILD")?;
                let options = self.optional_with_options()?;
                AlterTableAction::RebuildIndex { index, options }
            } else {
                self.expect_word("COLUMN")?;
                let name = self.ident()?;
                let data_type = self.data_type()?;
                let collation = if self.eat_word("COLLATE") {
                    Some(self.ident()?)
                } else {
                    None
                };
                let nullable = if self.eat_word("NULL") {
                    Some(true)
                } else if self.is_word("NOT") && self.is_word_at(1, "NULL") {
                    self.pos += 2;
                    Some(false)
                } else {
                    None
                };
                AlterTableAction::AlterColumn {
                    name,
                    data_type,
                    collation,
                    nullable,
                }
            }
        } else if self.eat_word("SET") {
            AlterTableAction::Set(self.option_list()?)
        } else {
            return Err(self.error_here());
        };
        Ok(StatementKind::AlterTable(Box::new(AlterTable {
            table,
            action,
        })))
    }

    /// `CREATE TYPE name AS TABLE (...)` or `CREATE TYPE name FROM base`.
    fn create_type(&mut self) -> Result<StatementKind> {
        let name = self.object_name()?;
        if self.eat_word("FROM") {
            let base = self.data_type()?;
            let nullable = if self.eat_word("NULL") {
                Some(true)
            } else if self.is_word("NOT") && self.is_word_at(1, "NULL") {
                self.pos += 2;
                Some(false)
            } else {
                None
            };
            return Ok(StatementKind::CreateAliasType {
                name,
                base,
                nullable,
            });
        }
        self.expect_word("AS")?;
        self.expect_word("TABLE")?;
        let elements = self.table_elements()?;
        let options = self.optional_with_options()?;
        Ok(StatementKind::CreateTableType(Box::new(CreateTableType {
            name,
            elements,
            options,
        })))
    }

    fn sequence_options(&mut self) -> Result<Vec<SequenceOption>> {
        let mut options = Vec::new();
        loop {
            let option = if self.eat_word("START") {
                self.expect_word("WITH")?;
                SequenceOption::StartWith(self.unary()?)
            } else if self.eat_word("RESTART") {
                let value = if self.eat_word("WITH") {
                    Some(self.unary()?)
                } else {
                    None
                };
                SequenceOption::Restart(value)
            } else if self.eat_word("INCREMENT") {
                self.expect_word("BY")?;
                SequenceOption::IncrementBy(self.unary()?)
            } else if self.eat_word("MINVALUE") {
                SequenceOption::MinValue(Some(self.unary()?))
            } else if self.eat_word("MAXVALUE") {
                SequenceOption::MaxValue(Some(self.unary()?))
            } else if self.eat_word("CYCLE") {
                SequenceOption::Cycle(true)
            } else if self.eat_word("CACHE") {
                let size = if self.at(TokenKind::Integer) {
                    Some(self.primary()?)
                } else {
                    None
                };
                SequenceOption::Cache(Some(size))
            } else if self.eat_word("NO") {
                if self.eat_word("MINVALUE") {
                    SequenceOption::MinValue(None)
                } else if self.eat_word("MAXVALUE") {
                    SequenceOption::MaxValue(None)
                } else if self.eat_word("CYCLE") {
                    SequenceOption::Cycle(false)
                } else {
                    self.expect_word("CACHE")?;
                    SequenceOption::Cache(None)
                }
            } else {
                return Ok(options);
            };
            options.push(option);
        }
    }

    // -- modules ------------------------------------------------------------

    fn view(&mut self, or_alter: bool, alter: bool) -> Result<StatementKind> {
        let name = self.object_name()?;
        let columns = if self.at(TokenKind::LParen) {
            self.ident_list_in_parens()?
        } else {
            Vec::new()
        };
        let options = if self.eat_word("WITH") {
            self.comma_list(Self::ident)?
        } else {
            Vec::new()
        };
        self.expect_word("AS")?;
        let query = Box::new(self.query()?);
        let check_option = self.is_word("WITH") && self.is_word_at(1, "CHECK");
        if check_option {
            self.pos += 2;
            self.expect_word("OPTION")?;
        }
        Ok(StatementKind::CreateView(Box::new(CreateView {
            or_alter,
            alter,
            name,
            columns,
            options,
            query,
            check_option,
        })))
    }

    fn procedure(&mut self, or_alter: bool, alter: bool) -> Result<StatementKind> {
        self.module(|parser, name| parser.procedure_rest(or_alter, alter, name))
    }

    /// A procedure's or function's name, then the rest of its definition,
    /// whose syntax errors name the module as SQL Server's do.
    fn module(
        &mut self,
        rest: impl FnOnce(&mut Self, ObjectName) -> Result<StatementKind>,
    ) -> Result<StatementKind> {
        let name = self.object_name()?;
        let module = name.name().value.clone();
        let enclosing = std::mem::replace(&mut self.in_module, true);
        let parsed = rest(self, name);
        self.in_module = enclosing;
        parsed.map_err(|error| error.in_module(&module))
    }

    fn procedure_rest(
        &mut self,
        or_alter: bool,
        alter: bool,
        name: ObjectName,
    ) -> Result<StatementKind> {
        let params = self.parameters(false)?;
        let options = self.module_options()?;
        if self.is_word("FOR") && self.is_word_at(1, "REPLICATION") {
            self.pos += 2;
        }
        self.expect_word("AS")?;
        let body = self.statements_until_end()?;
        Ok(StatementKind::CreateProcedure(Box::new(CreateProcedure {
            or_alter,
            alter,
            name,
            params,
            options,
            body,
        })))
    }

    /// Procedure parameters (optionally parenthesised) or, with
    /// `parenthesised`, a function's required `( ... )`.
    fn parameters(&mut self, parenthesised: bool) -> Result<Vec<Parameter>> {
        let in_parens = parenthesised || self.at(TokenKind::LParen);
        if in_parens {
            self.expect(TokenKind::LParen)?;
            if self.eat(TokenKind::RParen) {
                return Ok(Vec::new());
            }
        } else if !self.at(TokenKind::Variable) {
            return Ok(Vec::new());
        }
        let params = self.comma_list(Self::parameter)?;
        if in_parens {
            self.expect(TokenKind::RParen)?;
        }
        Ok(params)
    }

    fn parameter(&mut self) -> Result<Parameter> {
        let start = self.peek().span;
        let name = self.variable_name()?;
        self.eat_word("AS");
        let data_type = self.data_type()?;
        self.eat_word("VARYING");
        let nullable = if self.eat_word("NULL") {
            Some(true)
        } else if self.is_word("NOT") && self.is_word_at(1, "NULL") {
            self.pos += 2;
            Some(false)
        } else {
            None
        };
        let default = if self.eat(TokenKind::Eq) {
            Some(self.unary()?)
        } else {
            None
        };
        let mut output = false;
        let mut readonly = false;
        loop {
            if self.eat_word("OUTPUT") || self.eat_word("OUT") {
                output = true;
            } else if self.eat_word("READONLY") {
                readonly = true;
            } else {
                break;
            }
        }
        Ok(Parameter {
            name,
            data_type,
            nullable,
            default,
            output,
            readonly,
            span: self.span_from(start),
        })
    }

    /// `WITH NATIVE_COMPILATION, SCHEMABINDING, EXECUTE AS OWNER, ...`.
    fn module_options(&mut self) -> Result<Vec<ModuleOption>> {
        if !self.eat_word("WITH") {
            return Ok(Vec::new());
        }
        self.comma_list(|parser| {
            let word = parser.text(parser.peek()).to_ascii_uppercase();
            if parser.kind() != TokenKind::Word {
                return Err(parser.error_here());
            }
            let option = match word.as_str() {
                "NATIVE_COMPILATION" => ModuleOption::NativeCompilation,
                "SCHEMABINDING" => ModuleOption::SchemaBinding,
                "RECOMPILE" => ModuleOption::Recompile,
                "ENCRYPTION" => ModuleOption::Encryption,
                "EXECUTE" | "EXEC" => {
                    parser.advance();
                    parser.expect_word("AS")?;
                    let who = if matches!(parser.kind(), TokenKind::String | TokenKind::NString) {
                        parser.primary()?
                    } else {
                        let word = parser.ident()?;
                        Expr {
                            span: word.span,
                            kind: ExprKind::Column(vec![word]),
                        }
                    };
                    return Ok(ModuleOption::ExecuteAs(who));
                }
                "RETURNS" => {
                    parser.advance();
                    for word in ["NULL", "ON", "NULL", "INPUT"] {
                        parser.expect_word(word)?;
                    }
                    return Ok(ModuleOption::ReturnsNullOnNullInput);
                }
                "CALLED" => {
                    parser.advance();
                    for word in ["ON", "NULL", "INPUT"] {
                        parser.expect_word(word)?;
                    }
                    return Ok(ModuleOption::CalledOnNullInput);
                }
                _ => return Err(parser.error_here()),
            };
            parser.advance();
            Ok(option)
        })
    }

    fn function(&mut self, or_alter: bool, alter: bool) -> Result<StatementKind> {
        self.module(|parser, name| parser.function_rest(or_alter, alter, name))
    }

    fn function_rest(
        &mut self,
        or_alter: bool,
        alter: bool,
        name: ObjectName,
    ) -> Result<StatementKind> {
        let params = self.parameters(true)?;
        self.expect_word("RETURNS")?;
        let shape = if self.at(TokenKind::Variable) {
            let variable = self.variable_name()?;
            self.expect_word("TABLE")?;
            ReturnShape::Table(variable, self.table_elements()?)
        } else if self.eat_word("TABLE") {
            ReturnShape::Inline
        } else {
            ReturnShape::Scalar(self.data_type()?)
        };
        let options = self.module_options()?;
        self.eat_word("AS");
        let returns = match shape {
            ReturnShape::Inline => {
                self.expect_word("RETURN")?;
                let query = if self.at_query_in_parens() {
                    self.parenthesised_query()?
                } else {
                    self.query()?
                };
                FunctionReturns::InlineTable(Box::new(query))
            }
            ReturnShape::Scalar(data_type) => FunctionReturns::Scalar {
                data_type,
                body: self.function_body()?,
            },
            ReturnShape::Table(variable, elements) => FunctionReturns::MultiStatementTable {
                variable,
                elements,
                body: self.function_body()?,
            },
        };
        Ok(StatementKind::CreateFunction(Box::new(CreateFunction {
            or_alter,
            alter,
            name,
            params,
            returns,
            options,
        })))
    }

    /// `BEGIN ... END` (its statements) or `BEGIN ATOMIC ... END` (one
    /// atomic block statement).
    fn function_body(&mut self) -> Result<Vec<Statement>> {
        let start = self.peek().span;
        self.expect_word("BEGIN")?;
        if self.is_word("ATOMIC") {
            self.pos -= 1;
            let kind = self.begin()?;
            return Ok(vec![Statement {
                kind,
                span: self.span_from(start),
            }]);
        }
        let body = self.statements_until_end_keyword()?;
        self.expect_word("END")?;
        Ok(body)
    }

    // -- security and databases ----------------------------------------------

    fn principal_kind(&mut self) -> Option<PrincipalKind> {
        let kind = if self.is_word("LOGIN") {
            PrincipalKind::Login
        } else if self.is_word("USER") {
            PrincipalKind::User
        } else if self.is_word("ROLE") {
            PrincipalKind::Role
        } else {
            return None;
        };
        self.advance();
        Some(kind)
    }

    fn principal(&mut self, principal: PrincipalKind, alter: bool) -> Result<StatementKind> {
        let name = self.ident()?;
        let mut login = None;
        let mut without_login = false;
        if principal == PrincipalKind::User {
            if self.eat_word("FOR") || self.eat_word("FROM") {
                self.expect_word("LOGIN")?;
                login = Some(self.ident()?);
            } else if self.eat_word("WITHOUT") {
                self.expect_word("LOGIN")?;
                without_login = true;
            }
        }
        if principal == PrincipalKind::Role && self.is_word("AUTHORIZATION") {
            return Err(SyntaxError::unsupported(
                "CREATE ROLE ... AUTHORIZATION",
                self.peek().span.line,
            ));
        }
        if principal == PrincipalKind::Login && self.is_word("FROM") {
            return Err(SyntaxError::unsupported(
                "CREATE LOGIN ... FROM",
                self.peek().span.line,
            ));
        }
        let enable = if principal == PrincipalKind::Login && alter && self.eat_word("ENABLE") {
            Some(true)
        } else if principal == PrincipalKind::Login && alter && self.eat_word("DISABLE") {
            Some(false)
        } else {
            None
        };
        let options = if enable.is_some() {
            Vec::new()
        } else {
            self.unparenthesised_options()?
        };
        Ok(StatementKind::CreatePrincipal(Box::new(CreatePrincipal {
            principal,
            alter,
            name,
            login,
            without_login,
            options,
            enable,
        })))
    }

    /// `WITH a = 1, b = 'x'` without parentheses (logins, statistics). A
    /// comma may be left out before a new option word, as in `PASSWORD =
    /// 'x' MUST_CHANGE` or `PASSWORD = 'x' OLD_PASSWORD = 'y'`.
    /// `WITH FULLSCAN, SAMPLE n PERCENT, NORECOMPUTE` after CREATE / UPDATE
    /// STATISTICS: one word (with `= value`, or SAMPLE's size and unit) per
    /// option, commas between, so the next statement does not run into
    /// the list.
    fn statistics_options(&mut self) -> Result<Vec<OptionItem>> {
        // `WITH name AS (` or `WITH name (` starts the next statement's CTE.
        let cte = self.is_word_at(2, "AS") || self.kind_at(2) == TokenKind::LParen;
        if !self.is_word("WITH") || cte {
            return Ok(Vec::new());
        }
        self.advance();
        let mut options = Vec::new();
        loop {
            let start = self.peek().span;
            let mut name = vec![self.any_ident()?];
            let value = if name[0].value.eq_ignore_ascii_case("SAMPLE") {
                // `SAMPLE n PERCENT | ROWS`: the unit joins the name.
                let size = self.primary()?;
                let unit = self.any_ident()?;
                if !["PERCENT", "ROWS"].contains(&unit.value.to_ascii_uppercase().as_str()) {
                    return Err(self.error_at(self.tokens[self.pos - 1]));
                }
                name.push(unit);
                Some(OptionValue::Expr(size))
            } else if self.eat(TokenKind::Eq) {
                Some(self.option_value()?)
            } else {
                None
            };
            options.push(OptionItem {
                name,
                value,
                span: self.span_from(start),
            });
            if !self.eat(TokenKind::Comma) {
                return Ok(options);
            }
        }
    }

    fn unparenthesised_options(&mut self) -> Result<Vec<OptionItem>> {
        if !self.eat_word("WITH") {
            return Ok(Vec::new());
        }
        let mut options = vec![self.option_item()?];
        while self.eat(TokenKind::Comma) || self.at_plain_word() {
            options.push(self.option_item()?);
        }
        Ok(options)
    }

    /// GRANT / DENY / REVOKE.
    pub(super) fn permission(&mut self) -> Result<StatementKind> {
        let action = match {
            let token = self.advance();
            self.text(token)
        }
        .to_ascii_uppercase()
        .as_str()
        {
            "GRANT" => PermissionAction::Grant,
            "DENY" => PermissionAction::Deny,
            _ => PermissionAction::Revoke,
        };
        let mut grant_option = false;
        if action == PermissionAction::Revoke
            && self.is_word("GRANT")
            && self.is_word_at(1, "OPTION")
        {
            self.pos += 2;
            self.expect_word("FOR")?;
            grant_option = true;
        }
        let mut permissions = self.comma_list(|parser| {
            let mut words = Vec::new();
            while parser.at(TokenKind::Word) && !parser.is_any_word(&["ON", "TO", "FROM"]) {
                words.push(parser.word_ident());
            }
            if words.is_empty() {
                return Err(parser.error_here());
            }
            let columns = if parser.at(TokenKind::LParen) {
                parser.ident_list_in_parens()?
            } else {
                Vec::new()
            };
            Ok((words, columns))
        })?;
        let on = if self.eat_word("ON") {
            let class = if self.kind_at(1) == TokenKind::DoubleColon {
                let class = self.any_ident()?;
                self.advance();
                Some(class)
            } else {
                None
            };
            let object = self.object_name()?;
            if self.at(TokenKind::LParen) {
                let columns = self.ident_list_in_parens()?;
                for (_, permission_columns) in permissions.iter_mut() {
                    if permission_columns.is_empty() {
                        permission_columns.clone_from(&columns);
                    }
                }
            }
            Some((class, object))
        } else {
            None
        };
        if !(self.eat_word("TO") || self.eat_word("FROM")) {
            return Err(self.error_here());
        }
        let principals = self.comma_list(Self::any_ident)?;
        if self.is_word("WITH") && self.is_word_at(1, "GRANT") {
            self.pos += 2;
            self.expect_word("OPTION")?;
            grant_option = true;
        }
        let cascade = self.eat_word("CASCADE");
        Ok(StatementKind::Permission(Box::new(Permission {
            action,
            permissions,
            on,
            principals,
            grant_option,
            cascade,
        })))
    }

    fn alter_database(&mut self) -> Result<StatementKind> {
        let database = if self.eat_word("CURRENT") {
            None
        } else {
            Some(self.ident()?)
        };
        let action = if self.eat_word("SET") {
            let options = self.comma_list(Self::database_option)?;
            let termination = if self.eat_word("WITH") {
                self.termination()?
            } else {
                Vec::new()
            };
            AlterDatabaseAction::Set {
                options,
                termination,
            }
        } else if self.eat_word("ADD") {
            if self.eat_word("FILEGROUP") {
                let name = self.ident()?;
                let memory_optimized = if self.eat_word("CONTAINS") {
                    self.expect_word("MEMORY_OPTIMIZED_DATA")?;
                    true
                } else {
                    false
                };
                AlterDatabaseAction::AddFilegroup {
                    name,
                    memory_optimized,
                }
            } else {
                self.expect_word("FILE")?;
                let files = self.comma_list(Self::option_list)?;
                let filegroup = if self.eat_word("TO") {
                    self.expect_word("FILEGROUP")?;
                    Some(self.ident()?)
                } else {
                    None
                };
                AlterDatabaseAction::AddFile { files, filegroup }
            }
        } else {
            return Err(self.error_here());
        };
        Ok(StatementKind::AlterDatabase(Box::new(AlterDatabase {
            database,
            action,
        })))
    }

    /// After `ALTER DATABASE ... SET ... WITH`: `NO_WAIT`, `ROLLBACK
    /// IMMEDIATE` or `ROLLBACK AFTER n [SECONDS]`, as its words.
    fn termination(&mut self) -> Result<Vec<Ident>> {
        if self.is_word("NO_WAIT") {
            return Ok(vec![self.word_ident()]);
        }
        if !self.is_word("ROLLBACK") {
            return Err(self.error_here());
        }
        let mut words = vec![self.word_ident()];
        if self.is_word("IMMEDIATE") {
            words.push(self.word_ident());
            return Ok(words);
        }
        if !self.is_word("AFTER") || self.kind_at(1) != TokenKind::Integer {
            return Err(self.error_here());
        }
        words.push(self.word_ident());
        words.push(self.word_ident());
        if self.is_word("SECONDS") {
            words.push(self.word_ident());
        }
        Ok(words)
    }

    /// `NAME = value`, `NAME value` (`RECOVERY SIMPLE`, `AUTO_CLOSE OFF`)
    /// or a word alone (`SINGLE_USER`, `READ_ONLY`).
    fn database_option(&mut self) -> Result<OptionItem> {
        /// The options that are a word alone, so that the next statement
        /// can follow without a semicolon.
        const WORDS_ALONE: [&str; 12] = [
            "SINGLE_USER",
            "RESTRICTED_USER",
            "MULTI_USER",
            "ONLINE",
            "OFFLINE",
            "EMERGENCY",
            "READ_ONLY",
            "READ_WRITE",
            "ENABLE_BROKER",
            "DISABLE_BROKER",
            "NEW_BROKER",
            "ERROR_BROKER_CONVERSATIONS",
        ];
        let start = self.peek().span;
        let word_alone = WORDS_ALONE.iter().any(|word| self.is_word(word));
        let name = vec![self.any_ident()?];
        let equals = self.eat(TokenKind::Eq);
        let bare = word_alone
            || matches!(
                self.kind(),
                TokenKind::Comma | TokenKind::Semicolon | TokenKind::Eof
            )
            || self.is_word("WITH");
        let value = if bare && !equals {
            None
        } else {
            Some(self.option_value()?)
        };
        Ok(OptionItem {
            name,
            value,
            span: self.span_from(start),
        })
    }

    /// After CREATE DATABASE.
    fn create_database(&mut self) -> Result<StatementKind> {
        let name = self.ident()?;
        let containment = if self.eat_word("CONTAINMENT") {
            self.expect(TokenKind::Eq)?;
            Some(self.ident()?)
        } else {
            None
        };
        let mut filegroups = Vec::new();
        if self.eat_word("ON") {
            let primary = self.eat_word("PRIMARY");
            let _ = primary;
            let files = self.comma_list_of_files()?;
            filegroups.push(FilegroupSpec {
                name: None,
                memory_optimized: false,
                files,
            });
            while self.eat(TokenKind::Comma) {
                self.expect_word("FILEGROUP")?;
                let name = self.ident()?;
                let memory_optimized = if self.eat_word("CONTAINS") {
                    self.expect_word("MEMORY_OPTIMIZED_DATA")?;
                    true
                } else {
                    false
                };
                let files = self.comma_list_of_files()?;
                filegroups.push(FilegroupSpec {
                    name: Some(name),
                    memory_optimized,
                    files,
                });
            }
        }
        let log_files = if self.is_word("LOG") && self.is_word_at(1, "ON") {
            self.pos += 2;
            self.comma_list_of_files()?
        } else {
            Vec::new()
        };
        let collation = if self.eat_word("COLLATE") {
            Some(self.ident()?)
        } else {
            None
        };
        Ok(StatementKind::CreateDatabase(Box::new(CreateDatabase {
            name,
            containment,
            filegroups,
            log_files,
            collation,
        })))
    }

    /// `(file options), (file options)`: stops before a comma that is not
    /// followed by another file.
    fn comma_list_of_files(&mut self) -> Result<Vec<Vec<OptionItem>>> {
        let mut files = vec![self.option_list()?];
        while self.at(TokenKind::Comma) && self.kind_at(1) == TokenKind::LParen {
            self.advance();
            files.push(self.option_list()?);
        }
        Ok(files)
    }

    /// The schema elements after `CREATE SCHEMA name` (CREATE TABLE, CREATE
    /// VIEW, GRANT, REVOKE, DENY up to a `;` or another statement) run as
    /// the statements after it. That is what SQL Server does when each
    /// table and view names the new schema; one created with another
    /// schema or none (SQL Server's go into the new schema) is refused
    /// (10794) rather than created elsewhere. The elements are parsed
    /// again as statements of their own.
    fn check_schema_elements(&mut self, schema: &Ident) -> Result<()> {
        let start = self.pos;
        let outcome = self.schema_elements(schema);
        self.pos = start;
        outcome
    }

    fn schema_elements(&mut self, schema: &Ident) -> Result<()> {
        loop {
            let creates = self.is_word("CREATE")
                && (self.is_word_at(1, "TABLE") || self.is_word_at(1, "VIEW"));
            let permission = ["GRANT", "REVOKE", "DENY"].iter().any(|w| self.is_word(w));
            if !creates && !permission {
                return Ok(());
            }
            let element = self.statement()?;
            let name = match &element.kind {
                StatementKind::CreateTable(create) => Some(&create.name),
                StatementKind::CreateView(create) => Some(&create.name),
                _ => None,
            };
            let in_schema = name.is_none_or(|name| {
                name.schema()
                    .is_some_and(|s| s.value.eq_ignore_ascii_case(&schema.value))
            });
            if !in_schema {
                return Err(SyntaxError::unsupported(
                    "CREATE SCHEMA with a table or view not named in the new schema",
                    element.span.line,
                ));
            }
        }
    }

    pub(super) fn update_statistics(&mut self) -> Result<StatementKind> {
        self.expect_word("UPDATE")?;
        self.expect_word("STATISTICS")?;
        let table = self.object_name()?;
        let target = if self.at(TokenKind::LParen) {
            self.advance();
            let target = self.ident()?;
            self.expect(TokenKind::RParen)?;
            Some(target)
        } else if self.at_ident() {
            Some(self.ident()?)
        } else {
            None
        };
        let options = self.statistics_options()?;
        Ok(StatementKind::UpdateStatistics {
            table,
            target,
            options,
        })
    }
}

enum ColumnConstraint {
    Default(Option<Ident>, Expr),
    Other(TableConstraint),
}

/// What a function returns, before its body is parsed.
enum ReturnShape {
    Scalar(DataType),
    Inline,
    Table(String, Vec<TableElement>),
}
