#!/usr/bin/env bash
# Fails when a comment in tally's sources outside tests/ cites a file or folder that the
# project does not have.
# Usage: check_comment_paths.sh <source dir>   (CTest runs it as the test comment_paths)
#
# A citation is a token of a comment that names a folder of the project
# ("runtime/gpu/", "compiler/plan/planner.cpp", "compiler/plan/thread_cell_packing.*",
# "tally/error.h" for include/tally/error.h) or a file by its extension ("planner.cpp",
# "tally_sql.cuh", "bench/RESULTS.md"); one level of braces is expanded
# ("transform_{name,select}.cpp"). A path resolves from the source root, from the citing
# file's folder or (tally/...) from include/; a bare file name resolves when a file of
# that name is anywhere in the project. A path that leaves the project ("../x") fails.
# Files of other projects a comment may name (cuda.h, ...) are listed in `external` below.
set -euo pipefail
cd "${1:?usage: check_comment_paths.sh <source dir>}"

external=' cuda.h nvrtc.h dlfcn.h '
folders='compiler|runtime|templates|tests|bench|tools|cli|api|python|include|grammar|queries|examples|scripts|cmake|tally'
extensions='h|hpp|cpp|cuh|c|sh|md|txt|g4|sql|test|cmake|in|py'

sources=()
while IFS= read -r -d '' file; do sources+=("$file"); done < <(find compiler runtime templates \
  api include cli tools python bench cmake scripts grammar CMakeLists.txt -type f \( -name '*.h' \
  -o -name '*.cpp' -o -name '*.cuh' -o -name '*.c' -o -name '*.cmake' -o -name CMakeLists.txt \
  -o -name '*.in' -o -name '*.sh' -o -name '*.g4' \) -print0 | sort -z)

declare -A names  # base name of every file of the project -> 1
while IFS= read -r path; do names[${path##*/}]=1; done < <(find . -type f -not -path './.git/*' \
  -not -path './build*' -printf '%P\n')

exists() {  # a path (possibly with * or ?) -> status 0 when something matches it
  compgen -G "$1" >/dev/null
}

resolves() {  # citing file, cited path (braces expanded) -> status 0 when it exists
  local file=$1 cited=$2
  if [[ $cited == ../* ]]; then
    return 1
  elif [[ $cited == */* ]]; then
    exists "$cited" || exists "${file%/*}/$cited" || exists "include/$cited"
  elif [[ $cited == *[*?]* ]]; then
    exists "$cited" || exists "*/$cited" || exists "*/*/$cited" || exists "*/*/*/$cited"
  else
    [ -n "${names[$cited]:-}" ] || [[ $external == *" $cited "* ]]
  fi
}

# "file<TAB>line<TAB>token" for every citation in a comment. Comments: after // and inside
# /* */ in C++ and CUDA, after # elsewhere. URLs are not citations.
citations() {
  awk -v folders="$folders" -v extensions="$extensions" '
    FNR == 1 { in_block = 0; hash = FILENAME ~ /(\.cmake|CMakeLists\.txt|\.in|\.sh)$/ }
    {
      text = ""
      if (hash) {
        if (match($0, /(^|[ \t])#/)) text = substr($0, RSTART + RLENGTH)
      } else {
        line = $0
        if (in_block) {
          if (match(line, /\*\//)) { text = substr(line, 1, RSTART - 1); in_block = 0 }
          else text = line
        } else if (match(line, /\/\//)) {
          text = substr(line, RSTART + 2)
        } else if (match(line, /\/\*/)) {
          text = substr(line, RSTART + 2)
          if (match(text, /\*\//)) text = substr(text, 1, RSTART - 1)
          else in_block = 1
        }
      }
      gsub(/[a-z]+:\/\/[^ \t]*/, "", text)
      path = "(\\.\\./)*(((" folders ")/[A-Za-z0-9_.{},*/-]*)|([A-Za-z0-9_*{][A-Za-z0-9_.{},*/-]*\\.(" extensions ")))"
      while (match(text, path)) {
        token = substr(text, RSTART, RLENGTH)
        before = RSTART > 1 ? substr(text, RSTART - 1, 1) : ""
        after = substr(text, RSTART + RLENGTH, 1)
        text = substr(text, RSTART + RLENGTH)
        if (before ~ /[A-Za-z0-9_.\/$-]/) continue  # inside a word or path: "$HOME/tally/x"
        if (after ~ /[A-Za-z0-9_(]/) continue        # "t.clear()", "atom.global.cas": no file
        sub(/[.,:;]+$/, "", token)
        print FILENAME "\t" FNR "\t" token
      }
    }' "$@"
}

status=0
while IFS=$'\t' read -r file line token; do
  cited=("$token")
  if [[ $token =~ ^(.*)\{([^}]*)\}(.*)$ ]]; then
    cited=()
    IFS=, read -r -a alternatives <<<"${BASH_REMATCH[2]}"
    for alternative in "${alternatives[@]}"; do
      cited+=("${BASH_REMATCH[1]}$alternative${BASH_REMATCH[3]}")
    done
  fi
  for path in "${cited[@]}"; do
    if ! resolves "$file" "$path"; then
      echo "$file:$line: the comment cites $path, which the project does not have" >&2
      status=1
    fi
  done
done < <(citations "${sources[@]}")

[ $status -eq 0 ] && echo "comment paths: every file a comment cites exists"
exit $status
