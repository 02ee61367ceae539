#include "tools/fuzz/mutator.h"

#include <cctype>

#include "tools/fuzz/literals.h"

namespace tally::fuzz {

namespace {

bool is_word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' ||
         static_cast<unsigned char>(c) >= 0x80;
}

// The end of the quoted token that starts at `i` (quote character `q`, doubled to escape).
size_t quoted_end(std::string_view s, size_t i, char q) {
  size_t j = i + 1;
  while (j < s.size()) {
    if (s[j] == q) {
      if (j + 1 < s.size() && s[j + 1] == q) {
        j += 2;
        continue;
      }
      return j + 1;
    }
    ++j;
  }
  return s.size();
}

size_t token_end(std::string_view s, size_t i) {
  char c = s[i];
  if (std::isspace(static_cast<unsigned char>(c))) {
    size_t j = i;
    while (j < s.size() && std::isspace(static_cast<unsigned char>(s[j]))) ++j;
    return j;
  }
  if (c == '\'' || c == '"') return quoted_end(s, i, c);
  if (s.substr(i, 2) == "--") {
    size_t nl = s.find('\n', i);
    return nl == std::string_view::npos ? s.size() : nl;
  }
  if (is_word_char(c) || c == '.') {
    size_t j = i;
    while (j < s.size() && (is_word_char(s[j]) || s[j] == '.')) ++j;
    return j;
  }
  static const std::string_view kPairs[] = {"::", "||", "==", "=>", "<>", "!=", "<=", ">="};
  for (auto pair : kPairs)
    if (s.substr(i, 2) == pair) return i + 2;
  return i + 1;
}

bool is_literal(const std::string& token) {
  if (token.empty()) return false;
  if (token[0] == '\'' || token == "?") return true;
  return std::isdigit(static_cast<unsigned char>(token[0])) || token[0] == '.';
}

bool is_space(const std::string& token) {
  return !token.empty() && std::isspace(static_cast<unsigned char>(token[0]));
}

std::string joined(const std::vector<std::string>& tokens) {
  std::string text;
  for (const auto& t : tokens) text += t;
  return text;
}

// Index of a random non-whitespace token, or tokens.size() when there is none.
size_t random_token(Rng& rng, const std::vector<std::string>& tokens) {
  std::vector<size_t> solid;
  for (size_t i = 0; i < tokens.size(); ++i)
    if (!is_space(tokens[i])) solid.push_back(i);
  return solid.empty() ? tokens.size() : rng.pick(solid);
}

const std::vector<std::string>& insertable() {
  static const std::vector<std::string> kTokens = {" SELECT ",
                                                   " FROM ",
                                                   " WHERE ",
                                                   " GROUP BY ",
                                                   " HAVING ",
                                                   " ORDER BY ",
                                                   " LIMIT ",
                                                   " OFFSET ",
                                                   " AND ",
                                                   " OR ",
                                                   " NOT ",
                                                   " IS NULL ",
                                                   " IS NOT NULL ",
                                                   " BETWEEN ",
                                                   " IN ",
                                                   " LIKE ",
                                                   " CASE ",
                                                   " WHEN ",
                                                   " THEN ",
                                                   " ELSE ",
                                                   " END ",
                                                   " CAST(",
                                                   " AS ",
                                                   " DISTINCT ",
                                                   " ALL ",
                                                   " NULL ",
                                                   " COUNT(*) ",
                                                   " SUM(",
                                                   " AVG(",
                                                   " MIN(",
                                                   " MAX(",
                                                   " COALESCE(",
                                                   " EXTRACT(YEAR FROM ",
                                                   " INTERVAL '1' MONTH ",
                                                   " DATE ",
                                                   " ASC ",
                                                   " DESC ",
                                                   " NULLS FIRST ",
                                                   "(",
                                                   ")",
                                                   ",",
                                                   "+",
                                                   "-",
                                                   "*",
                                                   "/",
                                                   "%",
                                                   "||",
                                                   "::",
                                                   "=",
                                                   "<>",
                                                   "<",
                                                   ">=",
                                                   ".",
                                                   "?",
                                                   "'",
                                                   "\"",
                                                   " UNION ",
                                                   " JOIN ",
                                                   " OVER ",
                                                   " EXISTS ",
                                                   " ::DECIMAL(38,37) ",
                                                   " ::VARCHAR ",
                                                   "/*",
                                                   "--",
                                                   " STDDEV(",
                                                   " BOOL_AND(",
                                                   " VARIANCE("};
  return kTokens;
}

// Puts `depth` parentheses around one token: deep nesting reaches the depth limits.
void nest(Rng& rng, std::vector<std::string>& tokens) {
  size_t at = random_token(rng, tokens);
  if (at == tokens.size()) return;
  size_t depth = rng.chance(10) ? rng.between(900, 1100) : rng.between(1, 40);
  tokens[at] = std::string(depth, '(') + tokens[at] + std::string(depth, ')');
}

void random_bytes(Rng& rng, std::string& text) {
  for (int n = static_cast<int>(rng.between(1, 4)); n > 0; --n) {
    size_t at = rng.below(text.size() + 1);
    text.insert(at, 1, static_cast<char>(rng.below(256)));
  }
}

// Replaces one literal (or, without literals, any token) by an edge value: the statement
// stays valid SQL, so this edit reaches the binder and the engines.
void replace_literal(Rng& rng, std::vector<std::string>& tokens) {
  std::vector<size_t> literals;
  for (size_t i = 0; i < tokens.size(); ++i)
    if (is_literal(tokens[i])) literals.push_back(i);
  size_t at = literals.empty() ? random_token(rng, tokens) : rng.pick(literals);
  if (at < tokens.size()) tokens[at] = edge_literal(rng);
}

void edit_tokens(Rng& rng, std::vector<std::string>& tokens) {
  size_t at = random_token(rng, tokens);
  if (at == tokens.size()) {
    tokens.push_back(rng.pick(insertable()));
    return;
  }
  auto where = tokens.begin() + static_cast<std::ptrdiff_t>(at);
  switch (rng.below(4)) {
    case 0:
      tokens.erase(where);
      break;
    case 1:
      tokens.insert(where, tokens[at]);
      break;
    case 2:
      std::swap(tokens[at], tokens[random_token(rng, tokens)]);
      break;
    default:
      tokens.insert(where, rng.pick(insertable()));
  }
}

}  // namespace

std::vector<std::string> tokenize(std::string_view sql) {
  std::vector<std::string> tokens;
  for (size_t i = 0; i < sql.size();) {
    size_t end = token_end(sql, i);
    tokens.emplace_back(sql.substr(i, end - i));
    i = end;
  }
  return tokens;
}

std::string mutate(Rng& rng, std::string_view sql) {
  std::vector<std::string> tokens = tokenize(sql);
  for (int n = rng.chance(60) ? 1 : static_cast<int>(rng.between(2, 3)); n > 0; --n) {
    uint64_t kind = rng.below(100);
    if (kind < 35) {
      replace_literal(rng, tokens);
    } else if (kind < 60) {
      edit_tokens(rng, tokens);
    } else if (kind < 72) {
      nest(rng, tokens);
    } else if (kind < 80 && tokens.size() > 1) {
      tokens.resize(rng.between(1, static_cast<int64_t>(tokens.size()) - 1));
    } else if (kind < 92) {
      // Every literal at once: queries whose every constant is an edge.
      for (auto& t : tokens)
        if (is_literal(t)) t = edge_literal(rng);
    } else {
      std::string text = joined(tokens);
      random_bytes(rng, text);
      tokens = tokenize(text);
    }
  }
  return joined(tokens);
}

}  // namespace tally::fuzz
