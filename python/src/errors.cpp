// tally::Error as Python exceptions: the classes live in python/tally/errors.py (DB-API
// 2.0's hierarchy); this raises the one tally.errors.from_native picks for the kind, with
// the line and column of errors in query text.
#include <tally/error.h>

#include "python/src/bindings.h"

namespace tally_python {

namespace {

const char* kind_id(tally::ErrorKind kind) {
  switch (kind) {
    case tally::ErrorKind::Syntax:
      return "syntax";
    case tally::ErrorKind::Binder:
      return "binder";
    case tally::ErrorKind::Type:
      return "type";
    case tally::ErrorKind::Unsupported:
      return "unsupported";
    case tally::ErrorKind::Execution:
      return "execution";
    case tally::ErrorKind::Data:
      return "data";
    case tally::ErrorKind::Catalog:
      return "catalog";
    case tally::ErrorKind::Io:
      return "io";
    case tally::ErrorKind::Device:
      return "device";
    case tally::ErrorKind::OutOfMemory:
      return "out_of_memory";
    case tally::ErrorKind::Compile:
      return "compile";
    case tally::ErrorKind::Cache:
      return "cache";
    case tally::ErrorKind::Cancelled:
      return "cancelled";
    case tally::ErrorKind::Internal:
      break;
  }
  return "internal";
}

}  // namespace

void bind_errors(py::module_&) {
  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const tally::Error& e) {
      py::object line = py::none(), column = py::none();
      if (e.location()) {
        line = py::int_(e.location()->line);
        column = py::int_(e.location()->column);
      }
      py::object error = py::module_::import("tally.errors")
                             .attr("from_native")(kind_id(e.kind()), e.what(), line, column);
      PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(error.ptr())), error.ptr());
    }
  });
}

std::shared_ptr<const void> keep_alive(py::object objects) {
  auto* held = new py::object(std::move(objects));
  return std::shared_ptr<const void>(held, [](py::object* o) {
    if (!Py_IsInitialized()) return;  // the interpreter is gone: nothing left to release
    py::gil_scoped_acquire gil;
    delete o;
  });
}

}  // namespace tally_python
