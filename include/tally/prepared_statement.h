// A SELECT with `?` parameters, parsed and bound once by Engine::prepare and executed
// many times. Parameters are numbered from 1 in the order their `?`s appear; each takes
// the type the binder inferred from its context (l_shipdate <= ? makes it a DATE).
//
// A bind is checked at once against that type: a value of another kind, a text that does
// not parse as the type, or a number out of its range throws Error(Type) naming the
// parameter. Text binds to every type (it is parsed as the SQL literal would be), so
// DATE, DECIMAL and VARCHAR parameters are usually bound as text. The text "NULL" binds
// SQL NULL, as `tally exec -p NULL` does (so a VARCHAR parameter cannot be the string
// 'NULL').
//
// Binding is not synchronised: give each thread its own copy of the statement (copies are
// cheap and share the bound query) and execute() them concurrently.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "tally/result_set.h"

namespace tally {

class PreparedStatement {
 public:
  size_t parameter_count() const;
  // SQL spelling of the type parameter `index` (1-based) takes.
  std::string parameter_type(size_t index) const;
  const std::string& sql() const;

  PreparedStatement& bind(size_t index, bool value);  // BOOLEAN only
  template <std::integral T>
  PreparedStatement& bind(size_t index, T value) {
    return bind_int64(index, static_cast<int64_t>(value));
  }
  template <std::floating_point T>
  PreparedStatement& bind(size_t index, T value) {
    return bind_double(index, static_cast<double>(value));
  }
  PreparedStatement& bind(size_t index, std::string_view text);
  PreparedStatement& bind(size_t index, const char* text) {
    return bind(index, std::string_view(text));
  }
  PreparedStatement& bind(size_t index, const std::string& text) {
    return bind(index, std::string_view(text));
  }
  PreparedStatement& bind(size_t index, std::nullptr_t) { return bind_null(index); }
  PreparedStatement& bind_null(size_t index);
  PreparedStatement& bind_int64(size_t index, int64_t value);
  PreparedStatement& bind_double(size_t index, double value);
  // A DECIMAL written as text ("0.05", "-12.345"): exact, unlike a double.
  PreparedStatement& bind_decimal(size_t index, std::string_view text);
  void clear_bindings();  // every parameter unbound again

  // Runs the statement with the bound values; throws Error(Execution) when a parameter
  // is unbound.
  ResultSet execute() const;

  struct Impl;
  explicit PreparedStatement(std::shared_ptr<Impl> impl);
  PreparedStatement(const PreparedStatement& other);
  PreparedStatement& operator=(const PreparedStatement& other);
  PreparedStatement(PreparedStatement&&) noexcept;
  PreparedStatement& operator=(PreparedStatement&&) noexcept;
  ~PreparedStatement();

 private:
  std::shared_ptr<Impl> impl_;
};

}  // namespace tally
