// Engine::register_columns from Python: python/tally/columns.py turns DataFrames, dicts
// and numpy arrays into tuples (name, kind, data, validity, offsets, precision, scale) of
// contiguous numpy arrays in the layouts ColumnView takes; this points ColumnViews at
// their memory and hands the arrays to the engine as the keep-alive handle, so that
// fixed-width numeric columns are used in place, not copied.
#include <pybind11/numpy.h>
#include <tally/engine.h>

#include <string>
#include <vector>

#include "python/src/bindings.h"

namespace tally_python {

namespace {

tally::TypeKind kind_of(const std::string& name) {
  static const std::pair<const char*, tally::TypeKind> kKinds[] = {
      {"boolean", tally::TypeKind::Boolean}, {"smallint", tally::TypeKind::SmallInt},
      {"integer", tally::TypeKind::Integer}, {"bigint", tally::TypeKind::BigInt},
      {"real", tally::TypeKind::Real},       {"double", tally::TypeKind::Double},
      {"decimal", tally::TypeKind::Decimal}, {"date", tally::TypeKind::Date},
      {"varchar", tally::TypeKind::Varchar}};
  for (const auto& [n, kind] : kKinds) {
    if (name == n) return kind;
  }
  throw py::value_error("unknown column kind: " + name);
}

// The array's first byte; it must be C-contiguous (columns.py makes it so).
const void* address(const py::object& object) {
  if (object.is_none()) return nullptr;
  py::array array = py::reinterpret_borrow<py::array>(object);
  if (!(array.flags() & py::array::c_style)) {
    throw py::value_error("register_columns takes contiguous arrays");
  }
  return array.data();
}

}  // namespace

// columns: a list of (name, kind, data, validity or None, offsets or None, precision,
// scale); rows: the table's row count.
void register_columns(tally::Engine& engine, const std::string& table, const py::list& columns,
                      size_t rows) {
  std::vector<tally::ColumnView> views;
  for (const py::handle& item : columns) {
    auto column = item.cast<py::tuple>();
    tally::ColumnView view;
    view.name = column[0].cast<std::string>();
    view.kind = kind_of(column[1].cast<std::string>());
    view.data = address(column[2]);
    view.rows = rows;
    view.validity = static_cast<const uint8_t*>(address(column[3]));
    view.offsets = static_cast<const int64_t*>(address(column[4]));
    view.precision = column[5].cast<int>();
    view.scale = column[6].cast<int>();
    views.push_back(std::move(view));
  }
  std::shared_ptr<const void> arrays = keep_alive(columns);
  py::gil_scoped_release release;
  engine.register_columns(table, views, std::move(arrays));
}

}  // namespace tally_python
