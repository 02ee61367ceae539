// The extension module tally._tally: the C++ library's Engine, PreparedStatement and
// ResultSet for the Python package tally (python/tally/), which adds connect(), pandas,
// the DB-API cursor and tally.dask.
#include "python/src/bindings.h"

PYBIND11_MODULE(_tally, m) {
  m.doc() = "tally's C++ library (include/tally/); use the package tally, not this module";
  tally_python::bind_errors(m);
  tally_python::bind_results(m);
  tally_python::bind_partial(m);
  tally_python::bind_engine(m);
}
