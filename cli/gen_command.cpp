// tally gen: write a built-in table (or a database's table) as a .tbl file, for COPY or
// other engines.
#include <fmt/format.h>

#include <filesystem>
#include <iostream>

#include "cli/commands.h"
#include "cli/shared_options.h"
#include "compiler/common/error.h"
#include "tools/data/generated_data.h"
#include "tools/data/paper_tables.h"
#include "tools/data/tbl_writer.h"
#include "tools/data/tpch_lineitem.h"

namespace tally::cli {

namespace {

struct GenArgs {
  std::string table;
  GeneratedData data;  // the data options every subcommand takes
  std::string out = ".";
};

constexpr uint64_t kDefaultRows = 1'000'000;

// The built-in table to write: the one named, else the one a data option asks for.
std::string table_to_write(const GenArgs& args) {
  if (!args.table.empty()) return args.table;
  const GeneratedData& d = args.data;
  int asked = (d.tpch_sf > 0) + (d.orders_rows > 0) + (d.atable_rows > 0);
  if (asked != 1) {
    throw Error(ErrorKind::Unsupported,
                "gen needs one table: lineitem, orders or atable (or one of --tpch, --orders, "
                "--atable)");
  }
  return d.tpch_sf > 0 ? "lineitem" : d.orders_rows > 0 ? "orders" : "atable";
}

// `--rows` is `--atable`'s other spelling, and gives the size of whichever table is named.
TablePtr generate(const std::string& table, const GeneratedData& d) {
  GeneratedData wanted;
  uint64_t rows = table == "orders" && d.orders_rows == 0 ? d.atable_rows : 0;
  rows = rows ? rows : table == "orders" ? d.orders_rows : d.atable_rows;
  rows = rows ? rows : kDefaultRows;
  if (table == "lineitem") {
    wanted.tpch_sf = d.tpch_sf > 0 ? d.tpch_sf : 1;
  } else if (table == "orders") {
    wanted.orders_rows = rows;
  } else if (table == "atable") {
    wanted.atable_rows = rows;
  } else {
    throw Error(ErrorKind::Unsupported,
                fmt::format("gen writes lineitem, orders or atable (or, with --db, a table of "
                            "the database), not \"{}\"",
                            table));
  }
  require_memory_to_generate(wanted);
  if (wanted.tpch_sf > 0) return generate_lineitem(wanted.tpch_sf, d.seed);
  if (wanted.orders_rows > 0) return generate_orders_table(rows, 1000, d.seed);
  return generate_atable(rows, 1u << 20, d.zipf, d.seed);
}

// With --db, the database's table of that name.
TablePtr stored_table(const GenArgs& args) {
  if (args.table.empty()) throw Error(ErrorKind::Unsupported, "gen --db needs a table name");
  // Opening creates a missing database; gen only reads one.
  if (!std::filesystem::exists(args.data.database)) {
    throw Error(ErrorKind::Io, fmt::format("no database at {}", args.data.database));
  }
  Database db;
  generate_tables(GeneratedData{.database = args.data.database}, db, false);
  TablePtr table = db.table(args.table);
  if (!table) {
    throw Error(ErrorKind::Catalog,
                fmt::format("table \"{}\" does not exist in {}", args.table, args.data.database));
  }
  return table;
}

// --out names a directory (created; the file is TABLE.tbl in it) or, ending in .tbl, the file.
std::string output_path(const std::string& out, const std::string& table) {
  const std::filesystem::path given(out);
  if (given.extension() == ".tbl") {
    if (given.has_parent_path()) std::filesystem::create_directories(given.parent_path());
    return given.string();
  }
  std::filesystem::create_directories(given);
  return (given / (table + ".tbl")).string();
}

int gen(const GenArgs& args) {
  try {
    std::string name = args.data.database.empty() ? table_to_write(args) : args.table;
    TablePtr table = args.data.database.empty() ? generate(name, args.data) : stored_table(args);
    const std::string path = output_path(args.out, name);
    write_tbl(*table, path);
    std::cout << fmt::format("wrote {} rows to {}\n", table->rows(), path);
  } catch (const std::exception& e) {
    return report_error(e, "");
  }
  return 0;
}

}  // namespace

Runner add_gen_command(CLI::App& app) {
  auto args = std::make_shared<GenArgs>();
  CLI::App* cmd = app.add_subcommand(
      "gen", "Write a built-in table (or, with --db, a database's table) as a .tbl file");
  cmd->add_option("table", args->table,
                  "lineitem, orders (Query A) or atable (Query B); none: the one --tpch, "
                  "--orders or --atable asks for");
  add_data_options(cmd, args->data);
  cmd->add_option("--out", args->out, "Output directory, or a file ending in .tbl");
  return [args] { return gen(*args); };
}

}  // namespace tally::cli
