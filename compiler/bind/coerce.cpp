#include "compiler/bind/coerce.h"

#include <fmt/format.h>

#include <algorithm>

#include "compiler/bind/literals.h"
#include "compiler/common/decimal.h"

namespace tally {

namespace {

// An untyped parameter somewhere in an untyped expression, or null.
const Expr* find_untyped_parameter(const Expr& e) {
  if (e.kind == ExprKind::Parameter && is_untyped(e)) return &e;
  for (const auto& c : e.children) {
    if (const Expr* p = find_untyped_parameter(*c)) return p;
  }
  return nullptr;
}

Type wider_integer(const Type& a, const Type& b) {
  return integer_digits(a.id) >= integer_digits(b.id) ? a : b;
}

Type integer_as_decimal(const Type& t) { return Type::decimal(integer_digits(t.id), 0); }

bool integral(const Type& t) { return t.is_integer() || t.is_hugeint(); }

// A HUGEINT beside an integer, or beside a DECIMAL of scale 0 (an integer literal past
// BIGINT, which DuckDB would type HUGEINT), stays a HUGEINT: every such value fits it.
bool stays_hugeint(const Type& a, const Type& b) {
  auto whole = [](const Type& t) { return integral(t) || (t.is_decimal() && t.scale == 0); };
  return (a.is_hugeint() || b.is_hugeint()) && whole(a) && whole(b);
}

// An integer beside a HUGEINT is a HUGEINT, and a HUGEINT beside a DECIMAL with a fraction
// a DECIMAL(38,0), as DuckDB binds them.
std::pair<Type, Type> promote_numeric(const Type& a, const Type& b) {
  if (a.is_float() || b.is_float()) return {Type::double_(), Type::double_()};
  if (stays_hugeint(a, b)) return {Type::hugeint(), Type::hugeint()};
  if (integral(a) && integral(b)) {
    Type w = wider_integer(a, b);
    return {w, w};
  }
  return {integral(a) ? integer_as_decimal(a) : a, integral(b) ? integer_as_decimal(b) : b};
}

Type decimal_arith_result(int op, const Type& a, const Type& b, const ast::Expr& site) {
  const int p1 = a.precision, s1 = a.scale, p2 = b.precision, s2 = b.scale;
  switch (op) {
    case kAdd:
    case kSub: {
      int scale = std::max(s1, s2);
      int digits = std::max(p1 - s1, p2 - s2) + scale + 1;
      return Type::decimal(std::min(kMaxDecimalPrecision, digits), scale);
    }
    case kMul: {
      int scale = s1 + s2;
      if (scale > kMaxDecimalPrecision) {
        throw Error(ErrorKind::Type,
                    fmt::format("the product \"{}\" would have scale {}, more than the maximum {}",
                                site.source_text, scale, kMaxDecimalPrecision),
                    site.location);
      }
      return Type::decimal(std::min(kMaxDecimalPrecision, p1 + p2), scale);
    }
    case kDiv:
      return Type::decimal(kMaxDecimalPrecision, std::max({6, s1, s2}));
    default:  // kMod
      return Type::decimal(std::min(kMaxDecimalPrecision, std::max(p1, p2)), std::max(s1, s2));
  }
}

// Two different date/time types meet as a timestamp; with a TIMESTAMPTZ as that, as
// PostgreSQL resolves them (the same micros at the session zone UTC).
Type common_datetime(const Type& a, const Type& b) {
  const bool zoned = a.id == TypeId::TimestampTz || b.id == TypeId::TimestampTz;
  return zoned ? Type::timestamptz() : Type::timestamp();
}

}  // namespace

Operand make_operand(ExprPtr expr, const ast::Expr& source) {
  return {std::move(expr), &source, source.kind == ast::ExprKind::StringLiteral};
}

bool is_untyped(const Expr& e) { return e.type.id == TypeId::Null; }

bool is_unknown(const Operand& op) { return op.unknown_literal || is_untyped(*op.expr); }

ExprPtr adapt_untyped(const ExprPtr& e, const Type& type, BindContext& ctx) {
  if (!is_untyped(*e) || type.id == TypeId::Null) return e;
  switch (e->kind) {
    case ExprKind::Parameter:
      return ctx.type_parameter(*e, type);
    case ExprKind::Constant: {
      auto typed = std::make_shared<Expr>(*make_null_constant(type));
      typed->location = e->location;
      return typed;
    }
    case ExprKind::Case:
    case ExprKind::Coalesce: {
      // The value children are untyped (else the node would have their type); CASE's WHEN
      // conditions are BOOLEAN and stay as they are.
      auto typed = std::make_shared<Expr>(*e);
      typed->type = type;
      for (size_t i = 0; i < typed->children.size(); ++i) {
        bool is_when = e->kind == ExprKind::Case && i % 2 == 0 && i + 1 < typed->children.size();
        if (!is_when) typed->children[i] = adapt_untyped(typed->children[i], type, ctx);
      }
      return typed;
    }
    default:
      return make_cast(e, type);
  }
}

ExprPtr convert(const ExprPtr& e, const Type& type, BindContext& ctx) {
  if (is_untyped(*e)) return adapt_untyped(e, type, ctx);
  if (e->type.same_as(type)) return e;
  return make_cast(e, type);
}

ExprPtr settle_untyped(const ExprPtr& e, const Type& fallback, BindContext& ctx) {
  if (!is_untyped(*e)) return e;
  if (const Expr* p = find_untyped_parameter(*e)) ctx.fail_untyped_parameter(p->index);
  return adapt_untyped(e, fallback, ctx);
}

void resolve_unknown(Operand& op, const Type& anchor, BindContext& ctx) {
  if (op.unknown_literal) {
    if (!anchor.is_string()) {
      op.expr = string_literal_as(op.source->text, anchor, op.source->location);
    }
    op.unknown_literal = false;
  } else if (is_untyped(*op.expr)) {
    op.expr = adapt_untyped(op.expr, anchor, ctx);
  }
}

std::optional<Type> anchor_type(const std::vector<Operand>& ops) {
  std::optional<Type> anchor;
  bool has_literal = false;
  for (const auto& op : ops) {
    has_literal = has_literal || op.unknown_literal;
    if (is_unknown(op)) continue;
    if (!anchor) {
      anchor = op.expr->type;
    } else if (auto common = common_type(*anchor, op.expr->type)) {
      anchor = common;  // kinds that do not match are reported by the operator itself
    }
  }
  if (!anchor && has_literal) anchor = Type::varchar();
  return anchor;
}

void resolve_unknowns(std::vector<Operand>& ops, BindContext& ctx) {
  bool any_unknown = std::any_of(ops.begin(), ops.end(), is_unknown);
  if (!any_unknown) return;
  if (auto anchor = anchor_type(ops)) {
    for (auto& op : ops) resolve_unknown(op, *anchor, ctx);
  }
}

int integer_digits_of(const Type& t) {
  return t.is_decimal() ? t.precision - t.scale : integer_digits(t.id);
}

std::optional<Type> common_type(const Type& a, const Type& b) {
  if (a.id == TypeId::Null) return b;
  if (b.id == TypeId::Null) return a;
  if (a.is_numeric() && b.is_numeric()) {
    if (a.is_float() || b.is_float()) return Type::double_();
    if (stays_hugeint(a, b)) return Type::hugeint();
    if (a.is_decimal() || b.is_decimal()) {
      int scale = std::max<int>(a.is_decimal() ? a.scale : 0, b.is_decimal() ? b.scale : 0);
      int digits = std::max(integer_digits_of(a), integer_digits_of(b));
      return Type::decimal(std::min(kMaxDecimalPrecision, digits + scale), scale);
    }
    return wider_integer(a, b);
  }
  // A DATE next to a TIMESTAMP is its midnight (PostgreSQL, DuckDB).
  if (a.is_datetime() && b.is_datetime()) return a.id == b.id ? a : common_datetime(a, b);
  if (a.id != b.id) return std::nullopt;
  if (a.id == TypeId::Varchar && !(a == b)) return Type::varchar();
  return a;
}

std::optional<std::pair<Type, Type>> comparison_types(const Type& a, const Type& b) {
  if (a.is_numeric() && b.is_numeric()) return promote_numeric(a, b);
  if (a.is_datetime() && b.is_datetime() && a.id != b.id) {
    return std::pair{common_datetime(a, b), common_datetime(a, b)};
  }
  if (a.id != b.id || a.id == TypeId::Null) return std::nullopt;
  return std::pair{a, b};
}

namespace {

bool is_shiftable(const Type& t) { return t.is_datetime() || t.id == TypeId::Time; }

// PostgreSQL's operators that make or take an INTERVAL: the difference of two timestamps or
// times, interval +/- interval, interval * and / a number (as DOUBLE, PostgreSQL's float8),
// and a timestamp, DATE (then its midnight) or TIME shifted by an interval.
std::optional<ArithTyping> interval_typing(int op, const Type& a, const Type& b) {
  const Type iv = Type::interval();
  const bool add_or_sub = op == kAdd || op == kSub;
  const bool two_dates = a.id == TypeId::Date && b.id == TypeId::Date;
  if (op == kSub && a.is_datetime() && b.is_datetime() && !two_dates) {
    const Type t = common_datetime(a, b);
    return ArithTyping{t, t, iv};
  }
  if (op == kSub && a.id == TypeId::Time && b.id == TypeId::Time) return ArithTyping{a, b, iv};
  if (a.is_interval() && b.is_interval() && add_or_sub) return ArithTyping{iv, iv, iv};
  if (a.is_interval() && b.is_numeric() && (op == kMul || op == kDiv)) {
    return ArithTyping{iv, Type::double_(), iv};
  }
  if (a.is_numeric() && b.is_interval() && op == kMul) {
    return ArithTyping{Type::double_(), iv, iv, true};
  }
  auto shifted = [](const Type& t) { return t.id == TypeId::Date ? Type::timestamp() : t; };
  if (is_shiftable(a) && b.is_interval() && add_or_sub) {
    return ArithTyping{shifted(a), iv, shifted(a)};
  }
  if (a.is_interval() && is_shiftable(b) && op == kAdd) {
    return ArithTyping{iv, shifted(b), shifted(b), true};
  }
  return std::nullopt;
}

}  // namespace

std::optional<ArithTyping> arith_typing(int op, const Type& a, const Type& b,
                                        const ast::Expr& site) {
  if (a.is_interval() || b.is_interval() || op == kSub) {
    if (auto typing = interval_typing(op, a, b)) return typing;
  }
  if (a.is_numeric() && b.is_numeric()) {
    auto [left, right] = promote_numeric(a, b);
    Type result = left.is_decimal() ? decimal_arith_result(op, left, right, site) : left;
    return ArithTyping{left, right, result};
  }
  const bool add_or_sub = op == kAdd || op == kSub;
  if (a.id == TypeId::Date && b.is_integer() && add_or_sub) {
    return ArithTyping{Type::date(), Type::integer(), Type::date()};
  }
  if (a.is_integer() && b.id == TypeId::Date && op == kAdd) {
    return ArithTyping{Type::integer(), Type::date(), Type::date(), true};
  }
  if (a.id == TypeId::Date && b.id == TypeId::Date && op == kSub) {
    return ArithTyping{Type::date(), Type::date(), Type::integer()};
  }
  return std::nullopt;
}

bool can_cast(const Type& from, const Type& to) {
  if (from.id == TypeId::Null || from.id == to.id) return true;
  if (from.is_numeric() && to.is_numeric()) return true;
  if (from.is_string() || to.is_string()) return true;
  if (from.is_datetime() && to.is_datetime()) return true;
  if (from.is_timestamp() && to.id == TypeId::Time) return true;  // its time of day
  return (from.id == TypeId::Boolean && integral(to)) ||
         (integral(from) && to.id == TypeId::Boolean);
}

}  // namespace tally
