// The type of a CSV column guessed from its fields: each field is classified alone, and
// a column takes the narrowest type all of its fields fit.
#pragma once

#include <string_view>

#include "compiler/common/types.h"

namespace tally {

// Ordered by widening: a column of BigInt and Decimal fields is Decimal, and so on up to
// Varchar. Date widens to Varchar only. Null is a field with no value (nothing to fit).
enum class GuessKind { Null, BigInt, Decimal, Double, Date, Varchar };

struct ColumnGuess {
  GuessKind kind = GuessKind::Null;
  int integer_digits = 0;  // significant digits before the point (Decimal precision)
  int scale = 0;           // digits after the point

  // Widens this guess so that `field` fits it too.
  void add(const ColumnGuess& field);
  // BIGINT, DECIMAL(p,s), DOUBLE, DATE or VARCHAR (a column of only NULLs).
  Type type() const;
};

// The guess for one field as it stands in the file; an unquoted empty field is Null.
ColumnGuess guess_field(std::string_view text, bool quoted);

}  // namespace tally
