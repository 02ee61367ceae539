// "Did you mean" suggestions for unknown names (columns, tables, functions).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tally {

// Levenshtein distance (insertions, deletions, substitutions each cost 1).
int edit_distance(std::string_view a, std::string_view b);

// The candidate nearest to `name`, if it is close enough to be a likely typo: within edit
// distance 2, or a third of the name's length for long names. Ties go to the first.
std::optional<std::string> nearest_name(std::string_view name,
                                        const std::vector<std::string>& candidates);

// " (did you mean \"x\"?)" when a candidate is near, else "": appended to "does not
// exist" messages.
std::string did_you_mean(std::string_view name, const std::vector<std::string>& candidates);

}  // namespace tally
