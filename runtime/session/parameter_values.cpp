#include "runtime/session/parameter_values.h"

#include <fmt/format.h>

#include "compiler/common/error.h"
#include "compiler/eval/evaluator.h"

namespace tally {

std::vector<Value> convert_parameters(const BoundSelect& query,
                                      const std::vector<std::string>& texts, StringHeap& strings) {
  if (texts.size() != query.parameter_types.size()) {
    throw Error(
        ErrorKind::Execution,
        fmt::format("the statement has {} parameter{} but {} value{} given",
                    query.parameter_types.size(), query.parameter_types.size() == 1 ? "" : "s",
                    texts.size(), texts.size() == 1 ? " was" : "s were"));
  }
  std::vector<Value> values;
  for (size_t i = 0; i < texts.size(); ++i) {
    if (texts[i] == "NULL") {
      values.push_back(Value());
      continue;
    }
    try {
      Value text = Value::from_int(strings.intern(texts[i]));
      values.push_back(cast_value(text, Type::varchar(), query.parameter_types[i], &strings));
    } catch (const Error& e) {
      throw Error(ErrorKind::Execution, fmt::format("parameter ${}: {}", i + 1, e.what()));
    }
  }
  return values;
}

}  // namespace tally
