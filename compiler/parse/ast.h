// The abstract syntax tree: what the parser produces from SQL text, before any name or
// type is resolved. Owned, plain structs; no ANTLR type appears here.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "compiler/common/error.h"
#include "compiler/common/sql_text.h"

namespace tally::ast {

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;
struct SelectStmt;
// Shared so that a SelectStmt can hold queries of its own while still being declared.
using SelectPtr = std::shared_ptr<SelectStmt>;

struct OrderItem {
  ExprPtr expr;
  bool descending = false;
  std::optional<bool> nulls_first;  // unset: NULLS LAST for ASC, NULLS FIRST for DESC
};

enum class ExprKind {
  ColumnRef,       // name = column, qualifier = optional table/alias
  IntegerLiteral,  // text = digits ("42")
  DecimalLiteral,  // text = "12.50" (a point, no exponent)
  FloatLiteral,    // text = "1.5e3" (has an exponent)
  StringLiteral,   // text = the unquoted string
  BooleanLiteral,  // boolean_value
  NullLiteral,
  DateLiteral,       // text = "1998-12-01" (from DATE '...')
  TimestampLiteral,  // text = "1998-12-01 10:30:00" (from TIMESTAMP '...')
  IntervalLiteral,   // interval_months, _days, _micros (INTERVAL '90' DAY, '1 day 2 hours')
  Parameter,         // parameter_index: 0-based, in order of appearance in the statement
  Unary,             // op: "-" "+" "NOT"; children[0]
  Binary,            // op: "+" "-" "*" "/" "%" "=" "<>" "<" "<=" ">" ">=" "AND" "OR" "||"
  Between,           // children: value, low, high; negated
  InList,            // children: value, item...; negated
  Like,              // children: value, pattern; negated; op "ILIKE" for ILIKE
  IsNull,            // children[0]; negated = IS NOT NULL
  Case,              // case_operand (simple CASE) or null; children: when, then, when, then...;
                     // else_expr or null
  Cast,              // children[0]; cast_type
  FunctionCall,      // name (upper-cased), children = args; distinct; star = COUNT(*)
                     // MOD(a,b) is a FunctionCall "MOD"; EXTRACT(YEAR FROM d) is
                     // FunctionCall "EXTRACT" with extract_field = "YEAR" and children[0] = d
  ScalarSubquery,    // (SELECT ...) as a value: subquery
  InSubquery,        // children[0] [NOT] IN (SELECT ...): subquery; negated
  Exists,            // EXISTS (SELECT ...): subquery (NOT EXISTS is a Unary NOT above it)
};

struct TypeName {
  std::string name;             // canonical, upper case: SMALLINT INTEGER BIGINT REAL DOUBLE
                                // DECIMAL DATE TIMESTAMP CHAR VARCHAR BOOLEAN (aliases mapped:
                                // INT->INTEGER, NUMERIC->DECIMAL, FLOAT/FLOAT8/DOUBLE
                                // PRECISION->DOUBLE, FLOAT4->REAL, TEXT/STRING->VARCHAR,
                                // BOOL->BOOLEAN, TIMESTAMP WITHOUT TIME ZONE->TIMESTAMP,
                                // INT2->SMALLINT, INT4->INTEGER, INT8->BIGINT,
                                // CHARACTER->CHAR, CHARACTER VARYING->VARCHAR)
  std::vector<int64_t> params;  // DECIMAL(p,s) -> {p, s}; CHAR(n) -> {n}
  SourceLocation location;
};

struct Expr {
  ExprKind kind;
  SourceLocation location;  // first token of the expression
  std::string text;         // literals
  std::string name;         // ColumnRef column, FunctionCall name
  std::string qualifier;    // ColumnRef table qualifier, or empty
  std::string op;           // Unary/Binary operator, upper case for keywords
  std::vector<ExprPtr> children;
  ExprPtr case_operand;
  ExprPtr else_expr;
  TypeName cast_type;
  std::string extract_field;  // upper case: YEAR MONTH DAY DOW ...
  bool boolean_value = false;
  bool negated = false;
  bool distinct = false;
  bool star = false;
  ExprPtr filter;  // FunctionCall: the aggregate's FILTER (WHERE ...) condition, or null
  int parameter_index = -1;
  // IntervalLiteral: PostgreSQL's three parts, kept apart because a month has no fixed
  // number of days and a day (across a time zone change) no fixed number of micros.
  int64_t interval_months = 0;
  int64_t interval_days = 0;
  int64_t interval_micros = 0;
  // FunctionCall: STRING_AGG(x, ',' ORDER BY y), or the ORDER BY of WITHIN GROUP (...).
  std::vector<OrderItem> order_by;
  std::optional<SourceLocation> within_group;  // where WITHIN GROUP starts, when present
  SelectPtr subquery;                          // ScalarSubquery, InSubquery, Exists
  // The exact source text of this expression (used to name unaliased SELECT items the
  // way PostgreSQL/DuckDB users recognise, and in error messages).
  SqlText source_text;
  // The deepest path below and including this node; 0 until measured (measure_depth).
  int depth = 0;

  Expr() = default;
  Expr(const Expr&) = delete;
  Expr& operator=(const Expr&) = delete;
  // Frees a deep tree (a long `a + b + ...` chain) without one stack frame per level.
  ~Expr();
};

struct SelectItem {
  ExprPtr expr;  // null when star
  bool star = false;
  std::string alias;  // empty if none
  SourceLocation location;
};

enum class SetOperator { Union, Intersect, Except };

// left UNION [ALL] right, ...: each side a whole query (runtime/session/set_operations.h).
struct SetOperation {
  SetOperator op = SetOperator::Union;
  bool all = false;
  SelectPtr left;
  SelectPtr right;
  SourceLocation location;  // of the operator keyword
};

// A FROM item the session runs first and materialises as a temporary table named `name`.
enum class DerivedKind {
  None,          // a table of the catalog (or a file)
  Subquery,      // (SELECT ...) [AS] t [(columns)]
  Values,        // (VALUES (..), (..)) or a bare VALUES statement
  Series,        // range(...) / generate_series(...)
  SetOperation,  // the rows of a UNION / INTERSECT / EXCEPT
};

struct TableRef {
  std::string name;   // the table, or for a file the path as written
  std::string alias;  // for a file without AS: the file name without folders and extension
  SourceLocation location;
  // FROM 'file.csv' or read_csv('file.csv', ...): the runtime loads the file into a table
  // of this name before binding. Options lower-cased ("header", "delim"), values as written.
  bool is_file = false;
  std::map<std::string, std::string> file_options;
  // Derived tables: `name` is the alias, or DuckDB's default name ("unnamed_subquery",
  // "valueslist", "range", "generate_series"); column_aliases rename the first columns.
  DerivedKind derived = DerivedKind::None;
  std::vector<std::string> column_aliases;
  SelectPtr subquery;                           // Subquery
  std::vector<std::vector<ExprPtr>> values;     // Values: rows of expressions
  std::string series_function;                  // Series: "range" or "generate_series"
  std::vector<ExprPtr> series_arguments;        // Series
  std::shared_ptr<SetOperation> set_operation;  // SetOperation
};

// WITH name [(columns)] AS (query).
struct CommonTableExpr {
  std::string name;
  std::vector<std::string> columns;
  SelectPtr query;
  SourceLocation location;
};

struct SelectStmt {
  std::vector<CommonTableExpr> with;  // visible to this query and to the later CTEs
  bool distinct = false;
  std::vector<ExprPtr> distinct_on;  // DISTINCT ON (exprs); distinct is false then
  SourceLocation distinct_on_location;
  std::vector<SelectItem> items;
  std::optional<TableRef> from;
  ExprPtr where;
  std::vector<ExprPtr> group_by;  // every key named, in text order (repeats possible)
  bool group_by_all = false;      // GROUP BY ALL: the select items without aggregates
  // GROUPING SETS / ROLLUP / CUBE, expanded into the sets (each a list of indices into
  // group_by); empty for a plain GROUP BY.
  std::vector<std::vector<int>> grouping_sets;
  SourceLocation group_by_location;
  ExprPtr having;
  std::vector<OrderItem> order_by;
  std::optional<OrderItem> order_by_all;  // ORDER BY ALL: its expr is null
  ExprPtr limit;                          // integer literal or parameter
  ExprPtr offset;                         // integer literal or parameter
};

struct ColumnDef {
  std::string name;
  TypeName type;
  bool not_null = false;
  SourceLocation location;
};

struct CreateTableStmt {
  std::string name;
  bool if_not_exists = false;
  std::vector<ColumnDef> columns;  // empty for CREATE TABLE ... AS SELECT
  std::optional<SelectStmt> as_select;
};

struct DropTableStmt {
  std::string name;
  bool if_exists = false;
};

// COPY t [(columns)] FROM 'file': the listed columns are the file's fields, in order;
// the table's other columns get NULL (PostgreSQL).
struct CopyStmt {
  std::string table;
  std::vector<std::string> columns;  // empty: every column in table order
  std::string path;
  // Option names lower-cased: "delimiter", "header", "null", "format"; values as written
  // (strings unquoted, booleans as "true"/"false").
  std::map<std::string, std::string> options;
};

// COPY t [(columns)] TO 'file' or COPY (SELECT ...) TO 'file'.
struct CopyToStmt {
  std::string table;                 // empty when `query` is set
  std::vector<std::string> columns;  // empty: every column
  std::optional<SelectStmt> query;
  std::string path;
  std::map<std::string, std::string> options;  // as CopyStmt's
};

struct InsertStmt {
  std::string table;
  std::vector<std::string> columns;  // empty: all columns in table order
  std::vector<std::vector<ExprPtr>> rows;
  std::optional<SelectStmt> select;  // INSERT INTO t SELECT ...: set instead of rows
};

// SET name = value, RESET name, RESET ALL (runtime/session/settings.h).
struct SetStmt {
  std::string name;               // lower case; empty with `all`
  std::string value;              // as written (strings unquoted, booleans "true"/"false")
  bool reset = false;             // RESET, or SET name = DEFAULT
  bool all = false;               // RESET ALL
  SourceLocation location;        // of the name
  SourceLocation value_location;  // of the value
};

struct ShowStmt {
  enum class What { Setting, AllSettings, Tables };
  What what = What::Setting;
  std::string name;  // What::Setting, lower case
  SourceLocation location;
};

struct DescribeStmt {
  std::string table;
};

struct ExplainStmt {
  SelectStmt select;
};

using StatementBody = std::variant<SelectStmt, CreateTableStmt, DropTableStmt, CopyStmt, CopyToStmt,
                                   InsertStmt, SetStmt, ShowStmt, DescribeStmt, ExplainStmt>;

struct Statement {
  StatementBody body;
  SourceLocation location;
  std::string text;         // the statement's source text, without the trailing ';'
  int parameter_count = 0;  // number of '?' in the statement
};

}  // namespace tally::ast
