/* The tally library from C (and any language with a C FFI). The C++ API's umbrella header
 * is tally/tally.h, hence this name. Handles are opaque; every function that can fail
 * returns NULL or a non-zero status and leaves the error, per thread, for
 * tally_error_message / tally_error_kind / tally_error_line / tally_error_column. Results
 * leave as Arrow C Data arrays (tally/arrow_c_data.h). Link tally::tally (C++ inside: link
 * with the C++ compiler, or add libstdc++). examples/tally_example.c is a whole program.
 *
 *   tally_engine* engine = tally_open("auto");
 *   tally_result* r = tally_execute(engine, "SELECT 42 AS answer");
 *   struct ArrowSchema schema; struct ArrowArray array;
 *   tally_result_export_arrow(r, &schema, &array);    // then read, and release both
 *   tally_result_free(r); tally_close(engine);
 */
#ifndef TALLY_TALLY_C_H
#define TALLY_TALLY_C_H

#include <stddef.h>
#include <stdint.h>

#include "tally/arrow_c_data.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tally_engine tally_engine;
typedef struct tally_statement tally_statement;
typedef struct tally_result tally_result;

/* ---- errors of the calling thread's last failing call */
const char* tally_error_message(void); /* "" when none */
/* The kind, as tally::error_kind_name spells it: "syntax error", "binder error",
 * "type error", "not supported", "execution error", "data error", ...; "" when none. */
const char* tally_error_kind(void);
int tally_error_line(void);   /* 1-based; 0 when the error has no place in query text */
int tally_error_column(void); /* 1-based; 0 likewise */

/* ---- engines. device: "auto" (the GPU when usable), "cpu" or "gpu"; NULL: "auto". */
tally_engine* tally_open(const char* device);
void tally_close(tally_engine* engine);

/* Runs a script (CREATE TABLE, INSERT, COPY, SELECT, ...); the last statement's result. */
tally_result* tally_execute(tally_engine* engine, const char* sql);
/* Takes an Arrow struct array as table `name` (ownership as Engine::register_arrow_table:
 * both structs are released or moved from, success or not). 0 on success. */
int tally_register_arrow(tally_engine* engine, const char* name, struct ArrowSchema* schema,
                         struct ArrowArray* array);

/* ---- prepared SELECTs with `?` parameters, numbered from 1 */
tally_statement* tally_prepare(tally_engine* engine, const char* sql);
size_t tally_statement_parameter_count(const tally_statement* statement);
int tally_bind_int64(tally_statement* statement, size_t index, int64_t value);
int tally_bind_double(tally_statement* statement, size_t index, double value);
/* Text is parsed as the parameter's type: dates, decimals ("0.05", exact), strings. */
int tally_bind_text(tally_statement* statement, size_t index, const char* text);
int tally_bind_null(tally_statement* statement, size_t index);
tally_result* tally_statement_execute(const tally_statement* statement);
void tally_statement_free(tally_statement* statement);

/* ---- results */
size_t tally_result_row_count(const tally_result* result);
size_t tally_result_column_count(const tally_result* result);
const char* tally_result_column_name(const tally_result* result, size_t column);
const char* tally_result_column_type(const tally_result* result, size_t column); /* SQL */
const char* tally_result_device(const tally_result* result); /* "cpu", "gpu: <name>" */
/* Any cell as the tally command prints it ("NULL", "12.50", "1998-09-02"); the text stays
 * valid until the next call of this function in the thread. NULL on a bad row or column. */
const char* tally_result_text(const tally_result* result, size_t row, size_t column);
/* The result as an Arrow struct array ("+s"); the caller releases both structs. 0 on
 * success. */
int tally_result_export_arrow(const tally_result* result, struct ArrowSchema* schema,
                              struct ArrowArray* array);
void tally_result_free(tally_result* result);

#ifdef __cplusplus
}
#endif

#endif /* TALLY_TALLY_C_H */
