// The pieces of the extension module tally._tally, one file each (python/src/).
#pragma once

#include <pybind11/pybind11.h>

#include <memory>

namespace tally_python {

namespace py = pybind11;

void bind_errors(py::module_& m);   // tally::Error -> the tally.Error subclasses
void bind_engine(py::module_& m);   // Engine, PreparedStatement, gpu_info
void bind_results(py::module_& m);  // ResultSet and its columns as numpy arrays
void bind_partial(py::module_& m);  // PartialResult: partial aggregate states

// Holds Python objects for as long as the library keeps the handle (released with the
// GIL taken, from whichever thread drops the last reference).
std::shared_ptr<const void> keep_alive(py::object objects);

}  // namespace tally_python
