// SET / RESET / SHOW: the session's settings. A setting overrides one field of the
// ExecOptions its caller passes (the command's flags, EngineOptions); RESET goes back to
// the caller's value, as PostgreSQL's RESET goes back to the session's default.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "compiler/common/error.h"
#include "runtime/session/database.h"

namespace tally {

struct SettingRow {
  std::string name;
  std::string value;
  std::string description;
};

class SessionSettings {
 public:
  // Checks `value` and keeps it. An unknown name is an Error(Binder) that lists the known
  // ones; a bad value an Error(Execution) saying what the setting takes.
  void set(const std::string& name, const std::string& value, SourceLocation name_at,
           SourceLocation value_at);
  void reset(const std::string& name, SourceLocation at);
  void reset_all();

  // `base` with every SET value in place of its own.
  ExecOptions apply(ExecOptions base) const;

  // The value in force (`base` with the SET values), as SHOW prints it.
  std::string show(const std::string& name, const ExecOptions& base, SourceLocation at) const;
  std::vector<SettingRow> show_all(const ExecOptions& base) const;

  // Every setting's name, in the order SHOW ALL lists them.
  static std::vector<std::string> names();

 private:
  std::map<std::string, std::string> values_;  // canonical name -> canonical value
};

}  // namespace tally
