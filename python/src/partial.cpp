// tally::PartialResult for Python (tally.dask): states to bytes and back, merge, finalize.
#include <tally/partial_result.h>

#include <string>

#include "python/src/bindings.h"

namespace tally_python {

void bind_partial(py::module_& m) {
  using tally::PartialResult;
  py::class_<PartialResult>(m, "PartialResult")
      .def_property_readonly("sql", &PartialResult::sql)
      .def_property_readonly("group_count", &PartialResult::group_count)
      .def("serialize",
           [](const PartialResult& p) {
             std::string bytes;
             {
               py::gil_scoped_release release;
               bytes = p.serialize();
             }
             return py::bytes(bytes);
           })
      .def_static("deserialize",
                  [](const py::bytes& bytes) {
                    std::string data = bytes;
                    py::gil_scoped_release release;
                    return PartialResult::deserialize(data);
                  })
      .def("merge", &PartialResult::merge, py::call_guard<py::gil_scoped_release>())
      .def("finalize", &PartialResult::finalize, py::call_guard<py::gil_scoped_release>());
}

}  // namespace tally_python
