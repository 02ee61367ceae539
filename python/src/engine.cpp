// tally::Engine and tally::PreparedStatement for Python. Statements run with the GIL
// released, so other Python threads go on while tally works (and may cancel it).
#include <pybind11/stl.h>
#include <tally/engine.h>
#include <tally/gpu_info.h>

#include <string>

#include "python/src/bindings.h"

namespace tally_python {

void register_columns(tally::Engine& engine, const std::string& table, const py::list& columns,
                      size_t rows);  // python/src/columns.cpp

namespace {

tally::Device device_of(const std::string& name) {
  if (name == "auto") return tally::Device::Auto;
  if (name == "cpu") return tally::Device::Cpu;
  if (name == "gpu") return tally::Device::Gpu;
  throw py::value_error("device must be \"auto\", \"cpu\" or \"gpu\", not \"" + name + "\"");
}

py::dict table_dict(const tally::TableInfo& info) {
  py::list columns;
  for (const tally::ColumnInfo& column : info.columns) {
    columns.append(py::make_tuple(column.name, column.type_name));
  }
  py::dict table;
  table["name"] = info.name;
  table["rows"] = info.rows;
  table["columns"] = columns;
  return table;
}

void bind_statement(py::module_& m) {
  using tally::PreparedStatement;
  py::class_<PreparedStatement>(m, "PreparedStatement")
      .def_property_readonly("sql", &PreparedStatement::sql)
      .def_property_readonly("parameter_count", &PreparedStatement::parameter_count)
      .def("parameter_type", &PreparedStatement::parameter_type)
      .def(
          "bind_bool",
          [](PreparedStatement& s, size_t i, bool v) -> PreparedStatement& { return s.bind(i, v); })
      .def("bind_int64", &PreparedStatement::bind_int64)
      .def("bind_double", &PreparedStatement::bind_double)
      .def("bind_decimal", &PreparedStatement::bind_decimal)
      .def("bind_text",
           [](PreparedStatement& s, size_t i, const std::string& v) -> PreparedStatement& {
             return s.bind(i, v);
           })
      .def("bind_null", &PreparedStatement::bind_null)
      .def("clear_bindings", &PreparedStatement::clear_bindings)
      .def("execute", &PreparedStatement::execute, py::call_guard<py::gil_scoped_release>());
}

}  // namespace

void bind_engine(py::module_& m) {
  bind_statement(m);
  py::class_<tally::Engine>(m, "Engine")
      .def(py::init([](const std::string& device, unsigned cpu_threads, py::object progress,
                       const std::string& database) {
             tally::EngineOptions options;
             options.device = device_of(device);
             options.cpu_threads = cpu_threads;
             options.database = database;
             if (!progress.is_none()) {
               // Copies of the callback are made and dropped without the GIL: they share
               // one handle, whose last owner takes the GIL to let the callable go.
               std::shared_ptr<const void> held = keep_alive(progress);
               options.progress = [held](uint64_t done, uint64_t total) {
                 py::gil_scoped_acquire gil;
                 static_cast<const py::object*>(held.get())->operator()(done, total);
               };
             }
             return tally::Engine(options);
           }),
           py::arg("device") = "auto", py::arg("cpu_threads") = 0, py::arg("progress") = py::none(),
           py::arg("database") = "")
      .def("cancel", &tally::Engine::cancel)
      .def("execute", &tally::Engine::execute, py::call_guard<py::gil_scoped_release>())
      .def("prepare", &tally::Engine::prepare, py::call_guard<py::gil_scoped_release>())
      .def("execute_partial", &tally::Engine::execute_partial,
           py::call_guard<py::gil_scoped_release>())
      .def("register_columns", &register_columns)
      .def("drop_table", &tally::Engine::drop_table)
      .def("table_names", &tally::Engine::table_names)
      .def("tables",
           [](const tally::Engine& e) {
             py::list tables;
             for (const tally::TableInfo& info : e.tables()) tables.append(table_dict(info));
             return tables;
           })
      .def("table", [](const tally::Engine& e, const std::string& name) {
        return table_dict(e.table(name));
      });
  m.def("gpu_info", [] {
    tally::GpuInfo info = tally::gpu_info();
    py::dict out;
    out["usable"] = info.usable;
    out["reason"] = info.reason;
    out["device_count"] = info.device_count;
    out["driver_version"] = info.driver_version;
    out["name"] = info.name;
    out["compute_capability"] = py::make_tuple(info.compute_major, info.compute_minor);
    out["memory_bytes"] = info.memory_bytes;
    return out;
  });
}

}  // namespace tally_python
