// Emits CUDA statements that evaluate one IR expression for the current row, with the
// CPU evaluator's semantics: NULL flags beside every value, lazy AND/OR/CASE/COALESCE (so a
// guarded division never runs, as on the CPU), errors raised as status bits.
#pragma once

#include <string>
#include <vector>

#include "compiler/codegen/gpu_program.h"
#include "compiler/codegen/program_names.h"
#include "compiler/codegen/symbol_table.h"

namespace tally {

// A value in generated code: C expressions (usually variable names) for the value and its
// NULL flag. Types: bool for BOOLEAN, i128 for DECIMAL, f64 for REAL/DOUBLE, i64 otherwise.
struct CudaOperand {
  std::string value;
  std::string null;
};

std::string cuda_type(const Type& t);

// The C type a plain column stores, as runtime/storage/column.h lays it out.
const char* plain_storage_type(const Type& t);

// The head of a generated kernel (its body follows in braces, beginning with
// `const u64* __restrict__ args = arg_block.words;`): one parameter, the whole argument
// block of `arg_count` words, passed by value (constant bank, no registers or loads from
// memory to reach a column pointer). Throws Error(Unsupported) past the parameter block's size.
std::string kernel_head(const char* name, uint32_t block, int min_blocks, size_t arg_count);

// Arguments the kernel reads from `args`: the emitter asks for them as it meets columns,
// parameters and lookups, and the kernel emitter declares them once at the top.
class CudaArgs {
 public:
  int add(ArgSlot slot);  // index in the args block (deduplicated)
  const std::vector<ArgSlot>& slots() const { return slots_; }

 private:
  std::vector<ArgSlot> slots_;
};

class CudaExprEmitter {
 public:
  // `string_domains` null: computed strings are refused (Unsupported) rather than emitted.
  // Temporaries take fresh names from `symbols`; columns are read through `columns`.
  CudaExprEmitter(const BoundSelect& query, const std::vector<ColumnStats>& stats,
                  std::vector<DictLookup>& lookups, CudaArgs& args, std::string& preamble,
                  SymbolTable& symbols, const std::vector<ColumnNames>& columns,
                  std::vector<StringDomain>* string_domains = nullptr);

  // Appends the statements computing `e` to `out`; returns where its value is.
  CudaOperand emit(const Expr& e, std::string& out);

  // The C type holding `e`'s value: cuda_type, narrowed to i64 for bounded DECIMALs.
  std::string column_type(int scan_column) const;

  // Throws Error(Unsupported) if `e` contains something the GPU cannot evaluate.
  void check_supported(const Expr& e) const;

  // Where the Finalizer holds a group's key and aggregate values, so that an expression above
  // the aggregation (HAVING: compiler/plan/device_having.h) reads GroupKeyRef and AggregateRef
  // from them; before this they are unsupported.
  void set_group_operands(std::vector<CudaOperand> keys, std::vector<CudaOperand> aggregates);
  // Where the Finalizer holds a dictionary column's code: the cell of a key that is that
  // column (compiler/plan/device_having.h), read in place of the Scan's decoded row.
  void set_column_operand(int scan_column, CudaOperand code);

  // The string domain of a computed VARCHAR expression already emitted, or -1.
  int string_domain_of(const Expr& e) const;

 private:
  // A value of `e`'s type and its NULL flag, declared with a name that says what it holds.
  CudaOperand declare(const Expr& e, std::string& out);
  std::string value_type(const Expr& e) const;
  CudaOperand emit_node(const Expr& e, std::string& out);
  CudaOperand emit_column(const Expr& e, std::string& out);
  CudaOperand emit_constant(const Expr& e, std::string& out);
  CudaOperand emit_parameter(const Expr& e, std::string& out);
  CudaOperand emit_lookup(const Expr& e, int column, std::string& out);
  // A variable holding the row's code of dictionary `column` as a lookup index.
  std::string code_index(int column, std::string& out);
  // The lookup's index (deduplicated), its table declared in the preamble.
  int lookup_id(const DictLookup& lookup);
  // The entry `index` of lookup `id`, read as a value of `type`.
  CudaOperand read_lookup(const Type& type, int id, const std::string& index, std::string& out);
  CudaOperand read_constant_lookup(const Type& type, int id, std::string& out);
  // The expression reading entry `index` of lookup table `table` as `type`.
  std::string lookup_value(const Type& type, const std::string& table,
                           const std::string& index) const;
  // A computed VARCHAR: its id in its string domain (compiler/plan/string_domain.h).
  CudaOperand emit_string(const Expr& e, std::string& out);
  // A non-string expression over one computed string: a table by domain id.
  CudaOperand emit_per_string(const Expr& e, const Expr& source, std::string& out);
  // A non-string expression over strings that read no column: one host-computed value.
  CudaOperand emit_constant_lookup(const Expr& e, std::string& out);
  // A comparison of two string expressions (StringRead::Kind::TwoStrings) as one of their
  // ids in a domain holding both sides' strings.
  CudaOperand emit_string_comparison(const Expr& e, std::string& out);
  int domain_for(const Expr& e);
  void check_string(const Expr& e) const;
  CudaOperand emit_arith(const Expr& e, std::string& out);
  // `magnitude`: magnitude_log2 of e.
  std::string scaled_add(const Expr& e, long double magnitude, const std::string& result,
                         const std::string& a, int ka, const std::string& b, int kb) const;
  CudaOperand emit_compare(const Expr& e, std::string& out);
  CudaOperand emit_logic(const Expr& e, std::string& out);
  CudaOperand emit_in_list(const Expr& e, std::string& out);
  CudaOperand emit_case(const Expr& e, std::string& out);
  CudaOperand emit_coalesce(const Expr& e, std::string& out);
  CudaOperand emit_cast(const Expr& e, std::string& out);
  CudaOperand emit_unary(const Expr& e, std::string& out);
  CudaOperand emit_round(const Expr& e, std::string& out);
  CudaOperand emit_date(const Expr& e, std::string& out);
  // cuda_expr_functions.cpp: ExprKind::Function
  CudaOperand emit_function(const Expr& e, std::string& out);
  std::string rounding_code(const Expr& e, const std::string& a) const;
  std::string double_function_code(const Expr& e, const std::vector<CudaOperand>& args,
                                   const std::string& result) const;
  CudaOperand emit_extremum(const Expr& e, std::string& out);
  // The single dictionary column `e` reads, if `e` reads exactly one and it is VARCHAR.
  int lookup_column(const Expr& e) const;

  const BoundSelect& query_;
  const std::vector<ColumnStats>& stats_;
  std::vector<DictLookup>& lookups_;
  CudaArgs& args_;
  std::string& preamble_;
  SymbolTable& symbols_;
  const std::vector<ColumnNames>& columns_;
  std::vector<StringDomain>* string_domains_;
  std::vector<std::string> lookup_names_;  // per lookup: its table's values (`<name>_null`)
  // Per lookup of no column: the preamble's copy of its one entry ("" until read).
  std::vector<std::string> constant_lookups_;
  int domain_ = -1;  // the domain the string being emitted belongs to (-1: none)
  std::vector<CudaOperand> key_operands_, aggregate_operands_;  // set_group_operands
  std::vector<std::pair<int, CudaOperand>> column_operands_;    // set_column_operand
  // The operand holding a scan column's value: the Scan's decoded row, or its Finalizer stand-in.
  CudaOperand column_operand(int scan_column) const;
};

}  // namespace tally
