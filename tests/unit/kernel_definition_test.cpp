// The generated kernels' signature (one by-value argument block, sized to the program), and
// the source writer that lays out their bodies.
#include <doctest/doctest.h>

#include "compiler/codegen/cuda_expr.h"
#include "compiler/codegen/source_writer.h"
#include "compiler/codegen/symbol_table.h"
#include "compiler/common/error.h"

namespace tally {

TEST_CASE("kernel head: the argument block travels by value - sized to the program") {
  const std::string k = kernel_head("tally_scan", 128, 8, 17);
  CHECK(k ==
        "extern \"C\" __global__ void __launch_bounds__(128, 8) tally_scan(const "
        "__grid_constant__ KernelArgs<17> arg_block)");
}

TEST_CASE("kernel head: more arguments than a 4 KB parameter block is a clear error") {
  CHECK_NOTHROW(kernel_head("k", 256, 1, 512));
  try {
    kernel_head("k", 256, 1, 513);
    FAIL("513 arguments were accepted");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Unsupported);
    CHECK(std::string(e.what()).find("513 arguments") != std::string::npos);
  }
}

TEST_CASE("source writer: blocks close themselves and snippets take their depth") {
  SourceWriter w;
  {
    auto k = w.block("void k()");
    w.line("int a = {};", 1);
    {
      auto loop = w.block("for (;;)");
      w.lines("  if (a) {\n        a = 0; }\nelse { a = 1; }\n#pragma unroll\n}\nbreak;\n");
    }
  }
  CHECK(w.text() ==
        "void k() {\n"
        "  int a = 1;\n"
        "  for (;;) {\n"
        "    if (a) {\n"
        "      a = 0; }\n"
        "    else { a = 1; }\n"
        "    #pragma unroll\n"
        "  }\n"
        "  break;\n"
        "  }\n"
        "}\n");
}

TEST_CASE("symbol table: names from hints - unique - never the device library's") {
  SymbolTable t;
  CHECK(t.fresh("L_Quantity") == "l_quantity");
  CHECK(t.fresh("l_quantity") == "l_quantity1");
  CHECK(t.fresh("sum(l_extendedprice * (1 - l_discount))") == "sum_l_extendedprice_1_l_discount");
  CHECK(t.fresh("2nd") == "v2nd");
  // Names of the device library and keywords are taken already.
  CHECK(t.fresh("atomic_add") == "atomic_add1");
  CHECK(t.fresh("for") == "for1");
  bool declared = false;
  const std::string p = t.declare("parameter0", "param1", declared, true);
  CHECK(declared);
  CHECK(t.declare("parameter0", "other", declared) == p);
  CHECK_FALSE(declared);
  CHECK(t.fresh("param1_null") == "param1_null1");  // the pair's NULL flag is taken
  {
    SymbolTable::Scope scope(t);
    CHECK(t.fresh("subtotal") == "subtotal");
  }
  CHECK(t.fresh("subtotal") == "subtotal");  // free again after its scope
}

}  // namespace tally
