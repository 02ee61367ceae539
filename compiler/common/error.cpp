#include "compiler/common/error.h"

namespace tally {

const char* error_kind_name(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::Syntax:
      return "syntax error";
    case ErrorKind::Binder:
      return "binder error";
    case ErrorKind::Type:
      return "type error";
    case ErrorKind::Unsupported:
      return "not supported";
    case ErrorKind::Execution:
      return "execution error";
    case ErrorKind::Data:
      return "data error";
    case ErrorKind::Catalog:
      return "catalog error";
    case ErrorKind::Io:
      return "I/O error";
    case ErrorKind::Device:
      return "device error";
    case ErrorKind::OutOfMemory:
      return "out of memory";
    case ErrorKind::Compile:
      return "compile error";
    case ErrorKind::Cache:
      return "cache error";
    case ErrorKind::Internal:
      return "internal error";
    case ErrorKind::Cancelled:
      return "cancelled";
  }
  return "error";
}

void unsupported_on_gpu(const std::string& what) {
  throw Error(ErrorKind::Unsupported, what + " is not supported on the GPU yet");
}

}  // namespace tally
