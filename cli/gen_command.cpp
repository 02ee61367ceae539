// tally gen: write the built-in tables as .tbl files, for COPY or other engines.
#include <fmt/format.h>

#include <filesystem>
#include <iostream>

#include "cli/commands.h"
#include "tools/data/generated_data.h"
#include "tools/data/paper_tables.h"
#include "tools/data/tbl_writer.h"
#include "tools/data/tpch_lineitem.h"

namespace tally::cli {

namespace {

struct GenArgs {
  std::string table;
  double sf = 1;
  size_t rows = 1'000'000;
  double zipf = 0;
  uint64_t seed = 0;
  std::string out = ".";
};

int gen(const GenArgs& args) {
  GeneratedData wanted;
  if (args.table == "lineitem") {
    wanted.tpch_sf = args.sf;
  } else if (args.table == "orders") {
    wanted.orders_rows = args.rows;
  } else {
    wanted.atable_rows = args.rows;
  }
  require_memory_to_generate(wanted);
  TablePtr table;
  if (args.table == "lineitem") {
    table = generate_lineitem(args.sf, args.seed);
  } else if (args.table == "orders") {
    table = generate_orders_table(args.rows, 1000, args.seed);
  } else {
    table = generate_atable(args.rows, 1u << 20, args.zipf, args.seed);
  }
  std::filesystem::create_directories(args.out);
  std::string path = (std::filesystem::path(args.out) / (args.table + ".tbl")).string();
  write_tbl(*table, path);
  std::cout << fmt::format("wrote {} rows to {}\n", table->rows(), path);
  return 0;
}

}  // namespace

Runner add_gen_command(CLI::App& app) {
  auto args = std::make_shared<GenArgs>();
  CLI::App* cmd = app.add_subcommand("gen", "Write a built-in table as a .tbl file");
  cmd->add_option("table", args->table, "lineitem, orders (Query A) or atable (Query B)")
      ->required()
      ->check(CLI::IsMember({"lineitem", "orders", "atable"}));
  cmd->add_option("--sf", args->sf, "TPC-H scale factor (lineitem)")->check(CLI::PositiveNumber);
  cmd->add_option("--rows", args->rows, "Rows (orders, atable)");
  cmd->add_option("--zipf", args->zipf, "Zipf exponent of atable.col1 (0: uniform)");
  cmd->add_option("--seed", args->seed, "Generator seed");
  cmd->add_option("--out", args->out, "Output directory");
  return [args] { return gen(*args); };
}

}  // namespace tally::cli
