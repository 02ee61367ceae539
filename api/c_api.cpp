// The C API (include/tally/tally_c.h): opaque handles over Engine, PreparedStatement and
// ResultSet; every tally::Error (and any other exception) is caught at the boundary and
// kept per thread for tally_error_*.
#include <new>
#include <string>

#include "tally/engine.h"
#include "tally/tally_c.h"

struct tally_engine {
  tally::Engine engine;
};
struct tally_statement {
  tally::PreparedStatement statement;
};
struct tally_result {
  tally::ResultSet result;
};

namespace {

struct LastError {
  std::string message;
  std::string kind;
  int line = 0;
  int column = 0;
};
thread_local LastError last_error;
thread_local std::string last_text;

// Runs `body`; on an exception records it and returns `failed`.
template <typename T, typename Body>
T guarded(T failed, Body body) {
  last_error = LastError{};
  try {
    return body();
  } catch (const tally::Error& e) {
    last_error.message = e.what();
    last_error.kind = tally::error_kind_name(e.kind());
    if (e.location()) {
      last_error.line = e.location()->line;
      last_error.column = e.location()->column;
    }
  } catch (const std::bad_alloc&) {
    last_error.message = "out of host memory";
    last_error.kind = tally::error_kind_name(tally::ErrorKind::OutOfMemory);
  } catch (const std::exception& e) {
    last_error.message = e.what();
    last_error.kind = tally::error_kind_name(tally::ErrorKind::Internal);
  }
  return failed;
}

int failure_status(const char* message) {
  last_error = LastError{message, tally::error_kind_name(tally::ErrorKind::Data), 0, 0};
  return 1;
}

tally_result* wrap(tally::ResultSet result) { return new tally_result{std::move(result)}; }

}  // namespace

extern "C" {

const char* tally_error_message(void) { return last_error.message.c_str(); }
const char* tally_error_kind(void) { return last_error.kind.c_str(); }
int tally_error_line(void) { return last_error.line; }
int tally_error_column(void) { return last_error.column; }

tally_engine* tally_open(const char* device) {
  return guarded<tally_engine*>(nullptr, [&] {
    tally::EngineOptions options;
    std::string name = device ? device : "auto";
    if (name == "cpu") {
      options.device = tally::Device::Cpu;
    } else if (name == "gpu") {
      options.device = tally::Device::Gpu;
    } else if (name != "auto") {
      throw tally::Error(
          tally::ErrorKind::Unsupported,
          "tally_open: device must be \"auto\", \"cpu\" or \"gpu\", not \"" + name + "\"");
    }
    return new tally_engine{tally::Engine(options)};
  });
}

void tally_close(tally_engine* engine) { delete engine; }

tally_result* tally_execute(tally_engine* engine, const char* sql) {
  if (!engine || !sql) return failure_status("tally_execute: a null argument"), nullptr;
  return guarded<tally_result*>(nullptr, [&] { return wrap(engine->engine.execute(sql)); });
}

int tally_register_arrow(tally_engine* engine, const char* name, ArrowSchema* schema,
                         ArrowArray* array) {
  if (!engine || !name) return failure_status("tally_register_arrow: a null argument");
  return guarded<int>(1, [&] {
    engine->engine.register_arrow_table(name, schema, array);
    return 0;
  });
}

tally_statement* tally_prepare(tally_engine* engine, const char* sql) {
  if (!engine || !sql) return failure_status("tally_prepare: a null argument"), nullptr;
  return guarded<tally_statement*>(
      nullptr, [&] { return new tally_statement{engine->engine.prepare(sql)}; });
}

size_t tally_statement_parameter_count(const tally_statement* statement) {
  return statement ? statement->statement.parameter_count() : 0;
}

int tally_bind_int64(tally_statement* statement, size_t index, int64_t value) {
  if (!statement) return failure_status("tally_bind_int64: a null statement");
  return guarded<int>(1, [&] {
    statement->statement.bind_int64(index, value);
    return 0;
  });
}

int tally_bind_double(tally_statement* statement, size_t index, double value) {
  if (!statement) return failure_status("tally_bind_double: a null statement");
  return guarded<int>(1, [&] {
    statement->statement.bind_double(index, value);
    return 0;
  });
}

int tally_bind_text(tally_statement* statement, size_t index, const char* text) {
  if (!statement || !text) return failure_status("tally_bind_text: a null argument");
  return guarded<int>(1, [&] {
    statement->statement.bind(index, std::string_view(text));
    return 0;
  });
}

int tally_bind_null(tally_statement* statement, size_t index) {
  if (!statement) return failure_status("tally_bind_null: a null statement");
  return guarded<int>(1, [&] {
    statement->statement.bind_null(index);
    return 0;
  });
}

tally_result* tally_statement_execute(const tally_statement* statement) {
  if (!statement) return failure_status("tally_statement_execute: a null statement"), nullptr;
  return guarded<tally_result*>(nullptr, [&] { return wrap(statement->statement.execute()); });
}

void tally_statement_free(tally_statement* statement) { delete statement; }

size_t tally_result_row_count(const tally_result* result) {
  return result ? result->result.row_count() : 0;
}

size_t tally_result_column_count(const tally_result* result) {
  return result ? result->result.column_count() : 0;
}

const char* tally_result_column_name(const tally_result* result, size_t column) {
  if (!result || column >= result->result.column_count()) return nullptr;
  return result->result.column(column).name.c_str();
}

const char* tally_result_column_type(const tally_result* result, size_t column) {
  if (!result || column >= result->result.column_count()) return nullptr;
  return result->result.column(column).type_name.c_str();
}

const char* tally_result_device(const tally_result* result) {
  return result ? result->result.device().c_str() : "";
}

const char* tally_result_text(const tally_result* result, size_t row, size_t column) {
  if (!result) return failure_status("tally_result_text: a null result"), nullptr;
  return guarded<const char*>(nullptr, [&] {
    last_text = result->result.get_text(row, column);
    return last_text.c_str();
  });
}

int tally_result_export_arrow(const tally_result* result, ArrowSchema* schema, ArrowArray* array) {
  if (!result || !schema || !array) {
    return failure_status("tally_result_export_arrow: a null argument");
  }
  return guarded<int>(1, [&] {
    result->result.export_arrow(schema, array);
    return 0;
  });
}

void tally_result_free(tally_result* result) { delete result; }

}  // extern "C"
