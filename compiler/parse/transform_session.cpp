// SET / RESET / SHOW (settings), DESCRIBE, SHOW TABLES and EXPLAIN; and the statements of
// PostgreSQL and DuckDB that tally refuses by name instead of with a bare syntax error.
#include <fmt/format.h>

#include <set>

#include "compiler/parse/transformer.h"

namespace tally {

ast::StatementBody Transformer::transform_session_statement(P::StatementContext& ctx) {
  if (auto* set = ctx.setStatement()) return transform_set(*set);
  if (auto* reset = ctx.resetStatement()) return transform_reset(*reset);
  if (auto* show = ctx.showStatement()) return transform_show(*show);
  if (auto* describe = ctx.describeStatement()) {
    return ast::DescribeStmt{transform_identifier(*describe->identifier())};
  }
  if (auto* explain = ctx.explainStatement()) {
    return ast::ExplainStmt{transform_select(*explain->selectStatement())};
  }
  throw_unsupported_statement(*ctx.unsupportedStatement());
}

ast::SetStmt Transformer::transform_set(P::SetStatementContext& ctx) {
  // SESSION and GLOBAL (DuckDB) mean the same here: settings belong to the database
  // session, and tally has no server whose defaults GLOBAL could change.
  if (ctx.scope != nullptr) {
    std::string scope = lower_ascii(ctx.scope->getText());
    if (scope != "session" && scope != "global") {
      throw_syntax_error(ctx.scope->start,
                         fmt::format("SET {} is not supported (SET [SESSION | GLOBAL] name = "
                                     "value)",
                                     upper_ascii(scope)));
    }
  }
  ast::SetStmt set;
  set.name = lower_ascii(transform_identifier(*ctx.name));
  set.location = location_of(ctx.name->start);
  set.value_location = location_of(ctx.settingValue()->start);
  P::SettingValueContext& value = *ctx.settingValue();
  // `SET x = DEFAULT` is RESET x (PostgreSQL); a quoted "default" is a value.
  if (value.identifier() != nullptr && value.identifier()->QUOTED_IDENTIFIER() == nullptr &&
      lower_ascii(value.getText()) == "default") {
    set.reset = true;
    return set;
  }
  set.value = transform_setting_value(value);
  return set;
}

std::string Transformer::transform_setting_value(P::SettingValueContext& ctx) {
  if (auto* text = ctx.STRING_LITERAL()) return unquote_string(*text->getSymbol());
  if (ctx.TRUE() != nullptr || ctx.ON() != nullptr) return "true";
  if (ctx.FALSE() != nullptr) return "false";
  if (auto* name = ctx.identifier()) return transform_identifier(*name);
  return ctx.getText();  // a number, with its sign
}

ast::SetStmt Transformer::transform_reset(P::ResetStatementContext& ctx) {
  ast::SetStmt reset;
  reset.reset = true;
  reset.all = ctx.ALL() != nullptr;
  if (!reset.all) reset.name = lower_ascii(transform_identifier(*ctx.identifier()));
  reset.location = location_of(reset.all ? ctx.ALL()->getSymbol() : ctx.identifier()->start);
  return reset;
}

ast::ShowStmt Transformer::transform_show(P::ShowStatementContext& ctx) {
  ast::ShowStmt show;
  if (ctx.TABLES() != nullptr) {
    show.what = ast::ShowStmt::What::Tables;
  } else if (ctx.ALL() != nullptr) {
    show.what = ast::ShowStmt::What::AllSettings;
  } else {
    show.name = lower_ascii(transform_identifier(*ctx.identifier()));
    show.location = location_of(ctx.identifier()->start);
  }
  return show;
}

namespace {

// Words after CREATE, DROP or ALTER that belong to the statement's name: "CREATE OR
// REPLACE VIEW", "CREATE UNIQUE INDEX", "DROP MATERIALIZED VIEW".
const std::set<std::string>& object_words() {
  static const std::set<std::string> words = {
      "OR",       "REPLACE",  "TEMP",      "TEMPORARY", "UNIQUE",   "MATERIALIZED", "VIEW",
      "INDEX",    "SEQUENCE", "SCHEMA",    "TYPE",      "FUNCTION", "MACRO",        "DATABASE",
      "ROLE",     "USER",     "TRIGGER",   "EXTENSION", "SECRET",   "TABLE",        "COLUMN",
      "UNLOGGED", "EXTERNAL", "PROCEDURE", "DOMAIN"};
  return words;
}

}  // namespace

void Transformer::throw_unsupported_statement(P::UnsupportedStatementContext& ctx) {
  antlr4::Token* first = ctx.start;
  std::string name = upper_ascii(first->getText());
  // CREATE and DROP followed by no object's kind (`DROP t`) are misspelt CREATE/DROP TABLE.
  if ((name == "CREATE" || name == "DROP") &&
      object_words().count(upper_ascii(tokens_.get(first->getTokenIndex() + 1)->getText())) == 0) {
    antlr4::Token* next = tokens_.get(first->getTokenIndex() + 1);
    throw_syntax_error(next, fmt::format("unexpected '{}' (expected TABLE)", next->getText()));
  }
  if (name == "CREATE" || name == "DROP" || name == "ALTER") {
    for (size_t i = first->getTokenIndex() + 1; i <= ctx.stop->getTokenIndex(); ++i) {
      std::string word = upper_ascii(tokens_.get(i)->getText());
      if (object_words().count(word) == 0) break;
      name += " " + word;
      if (word != "OR" && word != "REPLACE" && word != "TEMP" && word != "TEMPORARY" &&
          word != "UNIQUE" && word != "MATERIALIZED" && word != "UNLOGGED" && word != "EXTERNAL") {
        break;  // the object's kind ends the name
      }
    }
  }
  SourceLocation at = location_of(first);
  throw Error(ErrorKind::Unsupported,
              fmt::format("{} is not supported (line {}, column {}): tally runs SELECT, CREATE "
                          "TABLE [AS], DROP TABLE, INSERT, COPY, SET, RESET, SHOW, DESCRIBE and "
                          "EXPLAIN",
                          name, at.line, at.column),
              at);
}

}  // namespace tally
