// PreparedStatement: typed binds, checked against the inferred parameter types at once,
// stored as the text the internal execute_prepared converts.
#include <fmt/format.h>

#include <charconv>
#include <mutex>

#include "api/engine_impl.h"
#include "compiler/eval/evaluator.h"

namespace tally {

namespace {

// What a typed bind may go to; text binds to anything that parses.
enum class BindKind { Bool, Int, Double, Decimal };

bool accepts(const Type& type, BindKind kind) {
  if (type.id == TypeId::Null) return true;  // a `?` whose context gave no type
  switch (kind) {
    case BindKind::Bool:
      return type.id == TypeId::Boolean;
    case BindKind::Int:
      return type.is_numeric();
    case BindKind::Double:
    case BindKind::Decimal:
      return type.is_float() || type.is_decimal();
  }
  return false;
}

const char* kind_name(BindKind kind) {
  switch (kind) {
    case BindKind::Bool:
      return "a boolean";
    case BindKind::Int:
      return "an integer";
    case BindKind::Double:
      return "a double";
    case BindKind::Decimal:
      return "a decimal";
  }
  return "?";
}

// Converts `text` to the parameter's type as execution will, so that a bad value is
// reported at the bind that gave it.
void check_converts(const std::string& text, const Type& type, size_t index) {
  if (type.id == TypeId::Null) return;
  StringHeap strings;
  try {
    cast_value(Value::from_int(strings.intern(text)), Type::varchar(), type, &strings);
  } catch (const Error& e) {
    throw Error(ErrorKind::Type,
                fmt::format("parameter {} ({}): {}", index, type.to_string(), e.what()));
  }
}

std::string shortest_text(double value) {
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, ec == std::errc() ? end : buffer);
}

}  // namespace

PreparedStatement::PreparedStatement(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
PreparedStatement::PreparedStatement(const PreparedStatement& other)
    : impl_(std::make_shared<Impl>(*other.impl_)) {}
PreparedStatement& PreparedStatement::operator=(const PreparedStatement& other) {
  if (this != &other) impl_ = std::make_shared<Impl>(*other.impl_);
  return *this;
}
PreparedStatement::PreparedStatement(PreparedStatement&&) noexcept = default;
PreparedStatement& PreparedStatement::operator=(PreparedStatement&&) noexcept = default;
PreparedStatement::~PreparedStatement() = default;

size_t PreparedStatement::parameter_count() const { return impl_->values.size(); }

const std::string& PreparedStatement::sql() const { return impl_->statement->sql; }

namespace {

const Type& parameter_at(const PreparedSelect& statement, size_t index) {
  const std::vector<Type>& types = statement.parameter_types();
  if (index < 1 || index > types.size()) {
    throw Error(ErrorKind::Binder,
                fmt::format("parameter {} does not exist: the statement has {} (numbered from 1)",
                            index, types.size()));
  }
  return types[index - 1];
}

}  // namespace

std::string PreparedStatement::parameter_type(size_t index) const {
  return parameter_at(*impl_->statement, index).to_string();
}

// A typed bind: refused for a parameter of another kind, then checked like text.
static void bind_typed(PreparedStatement::Impl& impl, size_t index, BindKind kind,
                       std::string text) {
  const Type& type = parameter_at(*impl.statement, index);
  if (!accepts(type, kind)) {
    throw Error(ErrorKind::Type,
                fmt::format("parameter {} is {}: it cannot take {}{}", index, type.to_string(),
                            kind_name(kind),
                            type.is_numeric() ? "" : " (bind it as text, e.g. '1998-09-02')"));
  }
  check_converts(text, type, index);
  impl.values[index - 1] = std::move(text);
}

PreparedStatement& PreparedStatement::bind(size_t index, bool value) {
  bind_typed(*impl_, index, BindKind::Bool, value ? "true" : "false");
  return *this;
}

PreparedStatement& PreparedStatement::bind_int64(size_t index, int64_t value) {
  bind_typed(*impl_, index, BindKind::Int, std::to_string(value));
  return *this;
}

PreparedStatement& PreparedStatement::bind_double(size_t index, double value) {
  bind_typed(*impl_, index, BindKind::Double, shortest_text(value));
  return *this;
}

PreparedStatement& PreparedStatement::bind_decimal(size_t index, std::string_view text) {
  bind_typed(*impl_, index, BindKind::Decimal, std::string(text));
  return *this;
}

PreparedStatement& PreparedStatement::bind(size_t index, std::string_view text) {
  const Type& type = parameter_at(*impl_->statement, index);
  std::string value(text);
  check_converts(value, type, index);
  impl_->values[index - 1] = std::move(value);
  return *this;
}

PreparedStatement& PreparedStatement::bind_null(size_t index) {
  parameter_at(*impl_->statement, index);
  impl_->values[index - 1] = "NULL";
  return *this;
}

void PreparedStatement::clear_bindings() {
  for (auto& value : impl_->values) value.reset();
}

ResultSet PreparedStatement::execute() const {
  ExecOptions exec = impl_->engine->exec_options();
  for (size_t i = 0; i < impl_->values.size(); ++i) {
    if (!impl_->values[i]) {
      throw Error(ErrorKind::Execution, fmt::format("parameter {} is not bound", i + 1));
    }
    exec.parameters.push_back(*impl_->values[i]);
  }
  std::shared_lock lock(impl_->engine->tables_mutex);
  return make_result_set(impl_->engine->database.execute_prepared(*impl_->statement, exec));
}

}  // namespace tally
