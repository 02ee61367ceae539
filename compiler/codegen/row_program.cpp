#include "compiler/codegen/row_program.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "compiler/codegen/lookup_tables.h"
#include "compiler/codegen/row_program_emitter.h"
#include "compiler/codegen/row_program_fields.h"
#include "compiler/codegen/row_program_float.h"
#include "compiler/codegen/row_program_top.h"
#include "compiler/common/error.h"
#include "compiler/common/string_heap.h"
#include "compiler/ir/grouping_sets.h"
#include "compiler/plan/expr_facts.h"
#include "compiler/plan/string_domain.h"
#include "compiler/plan/value_bounds.h"

namespace tally {

namespace {

using tally_interp::Instr;

[[noreturn]] void decline(std::string why) { decline_row_program(std::move(why)); }

// Values a register may hold: every intermediate is proved to stay within this, so 64-bit
// wrapping arithmetic never wraps.
constexpr long double kSafeMagnitude = 4.0e18L;

long double pow10(int n) { return std::pow(10.0L, n); }

// The largest magnitude a value of `t` has, where the CPU engine checks it.
long double type_limit(const Type& t) {
  switch (t.id) {
    case TypeId::SmallInt:
      return 32767;
    case TypeId::Integer:
      return 2147483647;
    case TypeId::Decimal:
      return pow10(t.precision) - 1;
    default:
      return kSafeMagnitude;
  }
}

bool is_int64_payload(const Type& t) {
  switch (t.id) {
    case TypeId::Boolean:
    case TypeId::SmallInt:
    case TypeId::Integer:
    case TypeId::BigInt:
    case TypeId::Date:
    case TypeId::Timestamp:
    case TypeId::TimestampTz:
    case TypeId::Time:
      return true;
    case TypeId::Decimal:  // a wide one too: every value is proved to fit 64 bits
      return true;
    default:
      return false;
  }
}

// The statistics with a range for each 16-byte DECIMAL column whose values all fit the
// registers' safe range (a DECIMAL(38,2) of amounts), which the interpreter then reads as
// 64-bit values.
std::vector<ColumnStats> narrowed_stats(const RowProgramInputs& in) {
  std::vector<ColumnStats> stats = in.stats;
  const auto safe = static_cast<int128>(kSafeMagnitude);
  for (size_t c = 0; c < stats.size(); ++c) {
    ColumnStats& s = stats[c];
    if (!in.query.scan.at(c).type.is_wide_decimal() || !s.has_values) continue;
    if (s.wide_min < -safe || s.wide_max > safe) continue;
    s.has_range = true;
    s.min = static_cast<int64_t>(s.wide_min);
    s.max = static_cast<int64_t>(s.wide_max);
  }
  return stats;
}

class Builder : RowProgramEmitter {
 public:
  explicit Builder(const RowProgramInputs& in) : in_(in), stats_(narrowed_stats(in)) {}

  RowProgram build() {
    const BoundSelect& q = in_.query;
    if (!q.aggregated) decline("the interpreted tier runs aggregations only");
    if (!q.grouping_sets.empty()) decline("grouping sets take the generated kernels");
    if (q.filter) p_.filter = boolean(*q.filter);
    for (const ExprPtr& key : q.group_keys) add_key(*key);
    p_.layout = layout_states(q, in_.stats, in_.rows);
    add_fields();
    if (std::min(p_.groups, in_.rows) > kInterpretedGroupsMax) {
      p_.large = true;
      auto top = top_order(q, p_, in_.stats, in_.parameters, in_.rows);
      if (const auto* order = std::get_if<tally_interp::TopOrder>(&top)) {
        p_.selects_top = true;
        p_.top = *order;
      }
    }
    return std::move(p_);
  }

 private:
  int reg() {
    if (p_.registers >= tally_interp::kMaxRegisters)
      decline("the statement needs too many registers");
    return p_.registers++;
  }

  int emit(int op, int a = -1, int b = -1, int c = -1, int64_t imm = 0, int sub = 0) override {
    const int dst = reg();
    p_.instrs.push_back(Instr{op, sub, dst, a, b, c, imm});
    return dst;
  }

  void may_divide_by_zero() override { p_.faults = true; }

  // A divisor the interval analysis does not prove non-zero: the rows track the CPU engine's
  // error (Program::faults).
  void check_divisor(const Expr& divisor) {
    const ValueBounds d = bounds(divisor);
    if (!d.known || (d.lo <= 0 && d.hi >= 0)) may_divide_by_zero();
  }

  int constant(int64_t v, bool null = false) {
    return emit(tally_interp::kOpConst, -1, null ? 1 : 0, -1, v);
  }

  ValueBounds bounds(const Expr& e) const override {
    return value_bounds(e, stats_, &in_.parameters);
  }

  const Value* parameter(const Expr& e) const override {
    if (e.kind != ExprKind::Parameter || e.index < 0) return nullptr;
    const auto at = static_cast<size_t>(e.index);
    return at < in_.parameters.size() ? &in_.parameters[at] : nullptr;
  }

  // Declines where `e` may leave its type's range or the registers' safe range.
  void check_range(const Expr& e, long double scale = 1) const {
    const ValueBounds b = bounds(e);
    if (!b.known) decline(fmt::format("no bound is known for {}", expr_to_string(e)));
    const long double limit = std::min(type_limit(e.type), kSafeMagnitude / scale);
    if (b.lo < -limit || b.hi > limit) {
      decline(fmt::format("{} may pass the range the interpreter holds", expr_to_string(e)));
    }
  }

  int boolean(const Expr& e) {
    if (e.type.id != TypeId::Boolean) decline("a condition that is not BOOLEAN");
    return value(e);
  }

  // The register of `e`'s value at scale `scale` (DECIMALs; 0 for the rest).
  int scaled(const Expr& e, int scale) {
    const int r = value(e);
    const int from = e.type.is_decimal() ? e.type.scale : 0;
    if (scale == from) return r;
    if (scale < from) decline("a DECIMAL whose scale would fall");
    check_range(e, pow10(scale - from));
    return emit(tally_interp::kOpScale, r, -1, -1, static_cast<int64_t>(pow10(scale - from)));
  }

  int value(const Expr& e) override {
    if (leaves_ != nullptr && e.type.is_string()) return string_value(e);
    if (!is_int64_payload(e.type) && !e.type.is_float() &&
        !(e.kind == ExprKind::ColumnRef && dictionary_of(e.index))) {
      decline(fmt::format("{} is {}, which the interpreter does not hold", expr_to_string(e),
                          e.type.to_string()));
    }
    if (const int c = dictionary_lookup_column(e, in_.query); c >= 0 && dictionary_of(c)) {
      return lookup(e, c);
    }
    if (is_float_operation(e)) return float_operation(*this, e);
    switch (e.kind) {
      case ExprKind::ColumnRef:
        return column(e.index);
      case ExprKind::Constant:
        return literal(e.value, e.type);
      case ExprKind::Parameter:
        if (const Value* given = parameter(e)) return literal(*given, e.type);
        decline("a parameter without a value");
      case ExprKind::Arith:
        return arith(e);
      case ExprKind::Round:
        return round(e);
      case ExprKind::Negate:
      case ExprKind::Abs:
        check_range(e);
        return emit(e.kind == ExprKind::Negate ? tally_interp::kOpNeg : tally_interp::kOpAbs,
                    value(*e.children[0]));
      case ExprKind::Compare:
        return compare(e.op, *e.children[0], *e.children[1]);
      case ExprKind::And:
      case ExprKind::Or:
        return logic(e);
      case ExprKind::Not:
        return emit(tally_interp::kOpNot, boolean(*e.children[0]));
      case ExprKind::IsNull:
        return emit(tally_interp::kOpIsNull, value(*e.children[0]), -1, -1, 0, e.negated ? 1 : 0);
      case ExprKind::InList:
        return in_list(e);
      case ExprKind::Case:
        return case_when(e);
      case ExprKind::Coalesce:
        return coalesce(e);
      case ExprKind::Cast:
        return cast(e);
      case ExprKind::Extract:
        return extract(e);
      case ExprKind::DateAdd:
        return date_add(e);
      case ExprKind::Function:
        if (e.op == kDateTrunc) return date_trunc(e);
        break;
      default:
        break;
    }
    decline(fmt::format("{} is not one of the interpreter's operations", expr_to_string(e)));
  }

  // Where the lookups' evaluations intern strings and read the parameters' (a VARCHAR
  // parameter is an id of the statement's heap).
  StringHeap& strings() { return in_.strings ? *in_.strings : own_strings_; }

  const std::vector<std::string>* dictionary_of(int scan_column) const {
    if (scan_column < 0 || static_cast<size_t>(scan_column) >= in_.dictionaries.size()) {
      return nullptr;
    }
    return in_.dictionaries[scan_column];
  }

  int column(int scan_column) {
    if (auto it = column_regs_.find(scan_column); it != column_regs_.end()) return it->second;
    const ColumnStats& s = in_.stats.at(scan_column);
    const Type& t = in_.query.scan.at(scan_column).type;
    RowProgramColumn c{scan_column, tally_interp::kColBitPacked, s.base,
                       static_cast<uint32_t>(s.bits)};
    if (s.layout == ColumnStats::Layout::Plain) {
      if (t.id == TypeId::Real && s.plain_width == 4) {
        c.kind = tally_interp::kColPlainF32;
      } else if (t.id == TypeId::Boolean && s.plain_width == 1) {
        c.kind = tally_interp::kColPlainU8;
      } else if (s.plain_width == 2) {
        c.kind = tally_interp::kColPlainI16;
      } else if (s.plain_width == 4) {
        c.kind = tally_interp::kColPlainI32;
      } else if (s.plain_width == 8) {
        c.kind = tally_interp::kColPlainI64;
      } else if (s.plain_width == 16 && stats_.at(scan_column).has_range) {
        c.kind = tally_interp::kColPlainI128Low;
      } else {
        const std::string& name = in_.query.scan[scan_column].name;
        if (s.plain_width == 16) decline(fmt::format("column {} holds values past 64 bits", name));
        decline(fmt::format("column {} is stored {} bytes a value", name, s.plain_width));
      }
    } else if (s.bits > 64) {
      decline("a column of more than 64 bits");
    }
    const int a = static_cast<int>(p_.columns.size());
    p_.columns.push_back(c);
    int r = emit(tally_interp::kOpColumn, a);
    if (t.id == TypeId::Boolean) r = emit(tally_interp::kOpCompare, r, constant(0), -1, 0, kNe);
    column_regs_[scan_column] = r;
    return r;
  }

  int literal(const Value& v, const Type& t) {
    if (v.null) return constant(0, true);
    if (t.is_float()) return constant(float_register_bits(v.f));
    if (t.is_decimal()) {
      if (v.d > static_cast<int128>(kSafeMagnitude) || v.d < -static_cast<int128>(kSafeMagnitude))
        decline("a DECIMAL constant past 64 bits");
      return constant(static_cast<int64_t>(v.d));
    }
    return constant(v.i);
  }

  int arith(const Expr& e) {
    const Expr& a = *e.children[0];
    const Expr& b = *e.children[1];
    if (e.op == kDiv) return divide(e);
    check_range(e);
    int scale = 0;
    if (e.type.is_decimal()) {
      scale = e.type.scale;
      if (e.op == kMul) {
        const int sa = a.type.is_decimal() ? a.type.scale : 0;
        const int sb = b.type.is_decimal() ? b.type.scale : 0;
        if (sa + sb != scale) decline("a DECIMAL product whose scale is not its factors' sum");
        check_range(a);
        check_range(b);
        return emit(tally_interp::kOpMul, value(a), value(b));
      }
    } else if (e.op == kMul) {
      return emit(tally_interp::kOpMul, value(a), value(b));
    }
    const int ra = scaled(a, scale), rb = scaled(b, scale);
    switch (e.op) {
      case kAdd:
        return emit(tally_interp::kOpAdd, ra, rb);
      case kSub:
        return emit(tally_interp::kOpSub, ra, rb);
      default: {
        check_divisor(b);
        return emit(tally_interp::kOpMod, ra, rb);
      }
    }
  }

  // ROUND to `digits` places: the dropped digits divided away, rounded half away from zero,
  // and for digits < 0 the zeros put back (compiler/eval/arith.cpp eval_round).
  int round(const Expr& e) {
    const Expr& c = *e.children[0];
    check_range(e);
    const int from = c.type.is_decimal() ? c.type.scale : 0, digits = e.digits;
    if (digits >= from) return scaled(c, e.type.is_decimal() ? e.type.scale : 0);
    if (from - digits > 18) decline("a ROUND that drops more than 18 digits");
    const int kept = emit(tally_interp::kOpDivRound, value(c),
                          constant(static_cast<int64_t>(pow10(from - digits))));
    if (digits >= 0) return kept;
    return emit(tally_interp::kOpScale, kept, -1, -1, static_cast<int64_t>(pow10(-digits)));
  }

  // Integers truncate; a DECIMAL quotient at scale s is the dividend raised to scale
  // s + the divisor's, over the divisor's unscaled value, rounded (compiler/eval/arith.cpp). A
  // divisor of 0 raises an error on the CPU engine: the rows track it (Program::faults).
  int divide(const Expr& e) {
    const Expr& a = *e.children[0];
    const Expr& b = *e.children[1];
    check_divisor(b);
    check_range(e);
    if (!e.type.is_decimal()) return emit(tally_interp::kOpDiv, value(a), value(b));
    check_range(b);  // divide_rounded negates the divisor
    const int divisor_scale = b.type.is_decimal() ? b.type.scale : 0;
    return emit(tally_interp::kOpDivRound, scaled(a, e.type.scale + divisor_scale), value(b));
  }

  int compare(int op, const Expr& a, const Expr& b) {
    if (a.type.is_string() || b.type.is_string())
      decline("a string comparison beyond one column's dictionary");
    if (a.type.is_float() || b.type.is_float()) return float_compare(*this, op, a, b);
    const int scale =
        std::max(a.type.is_decimal() ? a.type.scale : 0, b.type.is_decimal() ? b.type.scale : 0);
    return emit(tally_interp::kOpCompare, scaled(a, scale), scaled(b, scale), -1, 0, op);
  }

  int logic(const Expr& e) {
    const int op = e.kind == ExprKind::And ? tally_interp::kOpAnd : tally_interp::kOpOr;
    int r = boolean(*e.children[0]);
    for (size_t i = 1; i < e.children.size(); ++i) {
      r = emit(op, r, boolean(*e.children[i]), -1, 0, tally_interp::kLazy);
    }
    return r;
  }

  int in_list(const Expr& e) {
    int r = -1;
    for (size_t i = 1; i < e.children.size(); ++i) {
      const int eq = compare(kEq, *e.children[0], *e.children[i]);
      r = r < 0 ? eq : emit(tally_interp::kOpOr, r, eq);
    }
    return e.negated ? emit(tally_interp::kOpNot, r) : r;
  }

  // The value of one of `e`'s branches at e's scale.
  int branch(const Expr& branch_expr, const Type& type) {
    if (type.is_float() != branch_expr.type.is_float())
      decline(
          fmt::format("a branch {} of another type than its CASE", expr_to_string(branch_expr)));
    return scaled(branch_expr, type.is_decimal() ? type.scale : 0);
  }

  int case_when(const Expr& e) {
    const size_t pairs = (e.children.size() - 1) / 2;
    int r = branch(*e.children.back(), e.type);
    for (size_t i = pairs; i-- > 0;) {
      const int when = boolean(*e.children[2 * i]);
      r = emit(tally_interp::kOpSelect, when, branch(*e.children[2 * i + 1], e.type), r, 0,
               tally_interp::kLazy);
    }
    return r;
  }

  int coalesce(const Expr& e) {
    int r = branch(*e.children.back(), e.type);
    for (size_t i = e.children.size() - 1; i-- > 0;) {
      r = emit(tally_interp::kOpCoalesce, branch(*e.children[i], e.type), r, -1, 0,
               tally_interp::kLazy);
    }
    return r;
  }

  int cast(const Expr& e) {
    const Expr& from = *e.children[0];
    const Type& f = from.type;
    const Type& t = e.type;
    const bool integral_from = f.is_integer() || f.is_decimal();
    if (integral_from && (t.is_integer() || t.is_decimal())) {
      check_range(e);
      return scaled(from, t.is_decimal() ? t.scale : 0);
    }
    if (f.id == t.id && f.id != TypeId::Decimal) return value(from);
    decline(fmt::format("a cast from {} to {}", f.to_string(), t.to_string()));
  }

  int extract(const Expr& e) {
    const Expr& from = *e.children[0];
    if (from.type.id == TypeId::Date)
      return emit(tally_interp::kOpDateField, value(from), -1, -1, 0, e.op);
    if (from.type.is_timestamp())
      return emit(tally_interp::kOpTsField, value(from), -1, -1, 0, e.op);
    decline("EXTRACT from a TIME");
  }

  // A DATE plus an interval of months and days, proved to stay a DATE: the CPU engine's error
  // for a result past the range cannot happen.
  int date_add(const Expr& e) {
    const Expr& from = *e.children[0];
    if (e.type.id != TypeId::Date || from.type.id != TypeId::Date)
      decline(fmt::format("{} takes the generated kernels", expr_to_string(e)));
    check_range(e);
    int r = value(from);
    if (e.months != 0) r = emit(tally_interp::kOpAddMonths, r, -1, -1, e.months);
    return e.days != 0 ? emit(tally_interp::kOpAdd, r, constant(e.days)) : r;
  }

  int date_trunc(const Expr& e) {
    const Expr& from = *e.children[0];
    if (from.type.id == TypeId::Date && e.type.id == TypeId::Date)
      return emit(tally_interp::kOpDateTrunc, value(from), -1, -1, 0, e.digits);
    if (from.type.is_timestamp() && e.type.id == from.type.id)
      return emit(tally_interp::kOpTsTrunc, value(from), -1, -1, 0, e.digits);
    decline("a date_trunc that changes its argument's type");
  }

  // The program's lookup tables, by the CPU evaluator (build_lookup_tables, as the generated
  // kernels' are), its VARCHAR parameters read from the statement's heap.
  LookupTables build_tables(const GpuProgram& program) {
    return build_lookup_tables(
        program, in_.query,
        [&](int c) -> const std::vector<std::string>& { return *dictionary_of(c); }, in_.parameters,
        strings());
  }

  // `table`, indexed by the code of `scan_column`, read at run time: the codes' values of
  // `type` then NULL's (DECIMALs unscaled, doubles' bits), then their NULL flags.
  int read_table(int scan_column, const LookupTable& table, const Type& type) {
    const int64_t at = static_cast<int64_t>(p_.lookups.size());
    for (const Value& v : table.values) {
      const int128 payload =
          type.is_decimal() ? v.d : (type.is_float() ? float_register_bits(v.f) : v.i);
      if (!type.is_float() && (payload > static_cast<int128>(kSafeMagnitude) ||
                               payload < -static_cast<int128>(kSafeMagnitude))) {
        decline("a DECIMAL past 64 bits");
      }
      p_.lookups.push_back(static_cast<tally_interp::u64>(v.null ? 0 : payload));
    }
    for (uint8_t state : table.states) p_.lookups.push_back(state == kLookupNull ? 1 : 0);
    const int codes = static_cast<int>(table.values.size()) - 1;
    return emit(tally_interp::kOpLookup, column(scan_column), -1, codes, at);
  }

  // `e` over one dictionary column, evaluated for every code and for NULL.
  int lookup(const Expr& e, int scan_column) {
    GpuProgram one;
    const ExprPtr unowned(ExprPtr{}, &e);  // `e` outlives the tables' evaluation
    one.lookups.push_back(DictLookup{unowned, scan_column});
    const LookupTables built = build_tables(one);
    if (!built.error.empty()) {
      decline(
          fmt::format("{} fails for a value of its column: {}", expr_to_string(e), built.error));
    }
    return read_table(scan_column, built.tables.at(0), e.type);
  }

  // A VARCHAR value as an id into a domain of every string it can produce: the strings of its
  // leaves (one column's, per code, or a constant's) computed by the CPU evaluator, sorted and
  // deduplicated by build_lookup_tables as for the generated kernels; CASE and COALESCE above
  // the leaves pick ids row by row. Sets `domain` to the domain's index in p_.domains.
  int string_id(const Expr& e, int& domain) {
    StringDomainShape shape;
    try {
      shape = string_domain_shape(e, in_.query, in_.stats);
    } catch (const Error& err) {
      decline(err.what());
    }
    GpuProgram program;
    const ExprPtr unowned(ExprPtr{}, &e);  // `e` outlives the tables' evaluation
    program.string_domains.push_back(StringDomain{unowned, shape.bound});
    for (const ExprPtr& leaf : shape.leaves) {
      program.lookups.push_back(DictLookup{leaf, string_leaf_column(*leaf, in_.query), 0});
    }
    const LookupTables built = build_tables(program);
    if (!built.error.empty())
      decline(fmt::format("{} fails for a string: {}", expr_to_string(e), built.error));
    domain = static_cast<int>(p_.domains.size());
    std::vector<std::string>& words = p_.domains.emplace_back();
    for (int64_t id : built.domains.at(0)) words.push_back(strings().get(id));
    leaves_ = &shape.leaves;
    leaf_tables_ = &built.tables;
    const int r = value(e);
    leaves_ = nullptr;
    leaf_tables_ = nullptr;
    return r;
  }

  // A VARCHAR expression inside string_id: a leaf, or CASE / COALESCE over leaves.
  int string_value(const Expr& e) {
    for (size_t i = 0; i < leaves_->size(); ++i) {
      if (expr_equal(*(*leaves_)[i], e)) return string_leaf(i);
    }
    if (e.kind == ExprKind::Case) return case_when(e);
    if (e.kind == ExprKind::Coalesce) return coalesce(e);
    decline(fmt::format("the string expression {}", expr_to_string(e)));
  }

  // Leaf i's id: a constant's, or its column's table of ids by code.
  int string_leaf(size_t i) {
    const LookupTable& table = (*leaf_tables_)[i];
    const int scan_column = string_leaf_column(*(*leaves_)[i], in_.query);
    if (scan_column < 0) {
      return table.states.at(0) == kLookupValue ? constant(table.values[0].i) : constant(0, true);
    }
    return read_table(scan_column, table, Type::bigint());
  }

  void add_key(const Expr& key) {
    if (contains_kind(key, ExprKind::GroupingSetId))
      decline("grouping sets take the generated kernels");
    const bool dictionary_key = key.kind == ExprKind::ColumnRef && dictionary_of(key.index);
    int domain = -1;
    const int r = key.type.is_string() && !dictionary_key ? string_id(key, domain) : value(key);
    long double lo = 0, hi = 0;
    if (domain >= 0) {
      hi = static_cast<long double>(p_.domains[domain].size()) - 1;
    } else if (key.type.is_string()) {
      hi = static_cast<long double>(dictionary_of(key.index)->size()) - 1;
    } else {
      const ValueBounds b = bounds(key);
      if (!b.known) decline(fmt::format("group key {} has no bounded domain", expr_to_string(key)));
      lo = b.lo;
      hi = b.hi;
    }
    const long double size = hi - lo + 2;  // and one digit for NULL
    if (size > 1e15L || static_cast<long double>(p_.groups) * size > 4e18L)
      decline("the group keys' domain passes 62 bits");
    p_.keys.push_back(
        tally_interp::Key{r, 0, static_cast<int64_t>(lo), static_cast<uint64_t>(size)});
    p_.key_domains.push_back(domain);
    p_.groups *= static_cast<uint64_t>(size);
  }

  void add_fields() {
    const BoundSelect& q = in_.query;
    std::vector<int> arg_regs(q.aggregates.size(), -1), key_regs(arg_regs), flags(arg_regs);
    p_.aggregate_domains.assign(q.aggregates.size(), -1);
    for (size_t a = 0; a < q.aggregates.size(); ++a) {
      const AggregateCall& call = q.aggregates[a];
      if (!interpreter_aggregate(call.kind))
        decline(fmt::format("{} takes the generated kernels", call.text.str()));
      if (call.distinct) check_distinct();
      if (!call.distinct && p_.layout.square_split[a] != 0)
        decline("a variance whose squares pass 128 bits");
      if (call.key) {  // ARG_MIN / ARG_MAX: its value, NULL where either argument is
        const char* why = nullptr;
        flags[a] = arg_pair_flags(call, &why);
        if (why != nullptr) decline(why);
        key_regs[a] = value(*call.key);
        const int present = emit(tally_interp::kOpIsNull, key_regs[a], -1, -1, 0, 1);
        arg_regs[a] = emit(tally_interp::kOpSelect, present, value(*call.arg), constant(0, true));
      } else if (call.arg && call.arg->type.is_string()) {
        // MIN and MAX keep an id, which orders as its string does; COUNT reads only NULLs,
        // or ids where DISTINCT.
        const bool extreme = call.kind == AggKind::Min || call.kind == AggKind::Max;
        if (!extreme && call.kind != AggKind::Count) decline("an aggregate of strings");
        arg_regs[a] = string_id(*call.arg, p_.aggregate_domains[a]);
      } else if (call.arg && call.distinct && call.arg->type.is_float()) {
        // the DISTINCT set's key: -0.0 as 0.0 and one NaN, as the CPU engine's set keeps them
        arg_regs[a] = emit(tally_interp::kOpFloat, value(*call.arg), -1, -1, 0,
                           tally_interp::kFloatCanonical);
      } else if (call.arg) {
        arg_regs[a] = value(*call.arg);
      }
      if (call.distinct) p_.distinct_values += distinct_bound(call, a);
    }
    for (size_t f = 0; f < p_.layout.fields.size(); ++f) {
      const int a = p_.layout.fields[f].aggregate;
      const int op = a >= 0 && q.aggregates[a].distinct
                         ? distinct_field_op(a, f)
                         : interpreter_field_op(p_.layout.fields[f].kind);
      if (op < 0) decline("a state the interpreter does not merge");
      if (a < 0) {
        p_.fields.push_back(tally_interp::Field{op, -1, -1, 0});
      } else {
        p_.fields.push_back(tally_interp::Field{op, arg_regs[a], key_regs[a], flags[a]});
      }
    }
  }

  // A DISTINCT value's set entry is tagged group * kDistinctTags + field.
  void check_distinct() const {
    if (p_.groups > (uint64_t{1} << 57)) decline("DISTINCT over more than 2^57 possible groups");
    if (p_.layout.fields.size() > tally_interp::kDistinctTags)
      decline("a DISTINCT aggregate beside more than 64 state fields");
  }

  // At most how many (group, value) entries aggregate a puts in the DISTINCT set.
  uint64_t distinct_bound(const AggregateCall& call, size_t a) const {
    long double values = static_cast<long double>(in_.rows);
    if (const int d = p_.aggregate_domains[a]; d >= 0) {
      values = static_cast<long double>(p_.domains[d].size());
    } else if (const ValueBounds b = bounds(*call.arg); b.known) {
      values = b.hi - b.lo + 1;
    }
    return static_cast<uint64_t>(
        std::min(static_cast<long double>(in_.rows), values * static_cast<long double>(p_.groups)));
  }

  // A DISTINCT aggregate's first field puts its values in the set; the host builds the whole
  // state from them, so its other fields merge nothing.
  int distinct_field_op(int a, size_t f) const {
    const std::vector<int>& ids = p_.layout.aggregate_fields.at(static_cast<size_t>(a));
    return !ids.empty() && static_cast<size_t>(ids[0]) == f ? tally_interp::kFieldDistinct
                                                            : tally_interp::kFieldUnused;
  }

  const RowProgramInputs& in_;
  const std::vector<ColumnStats> stats_;  // narrowed_stats
  StringHeap own_strings_;
  RowProgram p_;
  std::map<int, int> column_regs_;
  // Inside string_id: the domain's leaves and their tables of ids.
  const std::vector<ExprPtr>* leaves_ = nullptr;
  const std::vector<LookupTable>* leaf_tables_ = nullptr;
};

}  // namespace

void decline_row_program(std::string why) { throw RowProgramDeclined{std::move(why)}; }

std::variant<RowProgram, std::string> compile_row_program(const RowProgramInputs& in) {
  try {
    return Builder(in).build();
  } catch (const RowProgramDeclined& d) {
    return d.why;
  }
}

int64_t row_program_key(const RowProgram& p, uint64_t group, size_t k, bool* null) {
  for (size_t j = p.keys.size(); j-- > k + 1;) group /= p.keys[j].size;
  const tally_interp::Key& key = p.keys[k];
  const uint64_t digit = group % key.size;
  *null = digit == key.size - 1;
  return key.lo + static_cast<int64_t>(digit);
}

}  // namespace tally
