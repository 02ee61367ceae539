// The tally library's entry point: a set of tables and the execution of SQL against them.
//
//   tally::Engine engine;                       // GPU when there is one, else the CPU
//   engine.execute("CREATE TABLE t (k VARCHAR(5), v INTEGER); INSERT INTO t VALUES ('a', 1)");
//   tally::ResultSet r = engine.execute("SELECT COUNT(*) FROM t");
//   int64_t rows = r.get_int64(0, 0);
//
// Errors: every failure is a tally::Error (tally/error.h) with a kind and a message; a
// failing statement leaves the tables as they were.
//
// Threads: one Engine may be used from many threads at once. SELECTs (ad hoc or
// prepared) run concurrently on the CPU; on the GPU they are serialised (one query on the
// device at a time). Statements that change tables (CREATE, DROP, COPY, INSERT and the
// register_ functions) wait for running SELECTs and run alone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tally/arrow_c_data.h"
#include "tally/error.h"
#include "tally/partial_result.h"
#include "tally/prepared_statement.h"
#include "tally/result_set.h"

namespace tally {

enum class Device {
  Auto,  // the GPU when one is usable (falling back to the CPU for what it does not run)
  Cpu,
  Gpu,  // the GPU or an Error(Device/Unsupported)
};

struct EngineOptions {
  Device device = Device::Auto;
  unsigned cpu_threads = 0;  // threads the CPU engine uses per query; 0: one per CPU
  // The most GPU memory the engine holds (uploaded columns, tables, results); 0: all there
  // is. Columns beyond it are evicted; a query that needs more fails with Error(Device).
  uint64_t device_memory_limit = 0;
  // Where the GPU reads a table's columns from: "auto" (host memory when they take more
  // than half the device memory budget), "device" (uploaded once, kept), or "host" (pinned
  // host memory, streamed to the GPU in batches by every query: tables larger than the GPU).
  std::string placement = "auto";
  // The GPUs a table is split across: "" (the first GPU alone), "all", or ordinals "0,1".
  // Each runs the same kernels over its share of the rows; the parts' states combine on the
  // host. Queries with DISTINCT aggregates are not split (Error(Unsupported)).
  std::string devices = {};
  // Co-processing: one GPU streams the table from host memory while the CPU engine takes
  // chunks of the same rows from the other end of one queue; aggregated queries only.
  bool coprocess = false;
  // Told while a SELECT runs on the CPU engine, after each block of 16,384 rows: the rows
  // scanned so far and in all. Calls for one statement are serialised but come from the
  // engine's threads; the callback must not use the Engine. Empty: none.
  std::function<void(uint64_t rows_done, uint64_t rows_total)> progress = {};
  // A database folder to open (created when missing): its tables persist, and every
  // statement that changes one is durable when it returns (README "A database on disk").
  // Empty: tables live in memory only.
  std::string database = {};
};

// A column of caller-owned memory for Engine::register_columns: `rows` values of `kind`,
// and an optional validity bitmap in Arrow's layout (bit r of byte r / 8 set = row r is
// not NULL; nullptr = no NULLs). Layouts of `data`:
//   SmallInt int16, Integer int32, BigInt int64, Real float, Double double, Date int32
//   (days since 1970-01-01): used in place, not copied, where the values under NULLs are 0;
//   Decimal: int128 unscaled values (value * 10^scale) of DECIMAL(precision, scale), used
//   in place when precision > 18 (tally keeps narrower DECIMALs as int64: copied);
//   Boolean: one byte a value (0 is false), copied;
//   Varchar: the UTF-8 bytes, with `offsets` holding rows + 1 offsets into them (row r is
//   bytes [offsets[r], offsets[r + 1])); copied (dictionary encoded).
struct ColumnView {
  std::string name;
  TypeKind kind = TypeKind::BigInt;
  const void* data = nullptr;
  size_t rows = 0;
  const uint8_t* validity = nullptr;
  const int64_t* offsets = nullptr;  // Varchar only
  int precision = 0;                 // Decimal only
  int scale = 0;                     // Decimal only
};

// A table's name, columns (names, SQL types) and row count (Engine::tables, Engine::table).
struct TableInfo {
  std::string name;
  std::vector<ColumnInfo> columns;
  size_t rows = 0;
};

class Engine {
 public:
  explicit Engine(EngineOptions options = {});
  ~Engine();
  Engine(Engine&&) noexcept;
  Engine& operator=(Engine&&) noexcept;
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  const EngineOptions& options() const;

  // Stops the statements running on this Engine now (call it from another thread): each
  // throws Error(Cancelled), the CPU engine at its next block of rows, a COPY or file load
  // within a few MB, a statement for the GPU before its next compile or kernel launch, a
  // script before its next statement. Statements that start later run as usual.
  void cancel();

  // Runs a script of statements (CREATE TABLE, DROP TABLE, COPY, INSERT, SELECT, SET,
  // RESET, SHOW, DESCRIBE, EXPLAIN) in order and returns the last statement's result (for
  // statements without rows: no columns, and the tag). The whole script is parsed first, so
  // a syntax error runs nothing. A SET holds for this Engine's later statements, over its
  // EngineOptions (README "SQL reference").
  ResultSet execute(std::string_view sql);

  // Parses and binds one SELECT with `?` parameters.
  PreparedStatement prepare(std::string_view sql);

  // Runs one aggregate SELECT (no parameters) to its per-group states before the final
  // step, on the CPU engine: one part of a split input (tally/partial_result.h).
  PartialResult execute_partial(std::string_view sql);

  // ---- tables (besides CREATE TABLE, COPY and INSERT through execute)
  // Imports an Arrow struct array (a record batch: format "+s", one child per column) as
  // table `name`, replacing any table of that name. Takes ownership of both structs, as
  // Arrow's importers do: on return, success or failure, `schema` has been released and
  // `array` moved from (its release is null). Fixed-width columns that need no conversion
  // are not copied: their buffers stay in use until the last table and result referring
  // to them is gone, and then the array's release callback runs. See README "Library".
  void register_arrow_table(std::string_view name, ArrowSchema* schema, ArrowArray* array);

  // Registers caller-owned columns (ColumnView), the fixed-width ones without copying
  // them. The memory must stay valid and unchanged until `keep_alive` is destroyed, which happens
  // when the last table referring to the columns is gone (pass an empty pointer to promise the
  // memory outlives the Engine).
  void register_columns(std::string_view name, std::span<const ColumnView> columns,
                        std::shared_ptr<const void> keep_alive = nullptr);

  void drop_table(std::string_view name);  // Error(Catalog) when there is none
  std::vector<std::string> table_names() const;
  std::vector<TableInfo> tables() const;         // every table, in name order
  TableInfo table(std::string_view name) const;  // Error(Catalog) when there is none

  struct Impl;
  Impl& impl() { return *impl_; }

 private:
  std::shared_ptr<Impl> impl_;  // shared with the PreparedStatements it made
};

}  // namespace tally
