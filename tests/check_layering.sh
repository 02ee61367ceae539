#!/usr/bin/env bash
# Fails when an #include "..." in tally's sources points up the pipeline.
# Usage: check_layering.sh <source dir>   (CTest runs it as the test include_layering)
#
# The order, lowest first (`layers` below is its one definition):
#   compiler/common < compiler/functions < compiler/parse < compiler/ir < compiler/eval
#   < compiler/bind < compiler/plan < compiler/codegen
#   < the runtime folders, among which
#       runtime/storage < runtime/load
#       runtime/cuda < runtime/compile < runtime/gpu   (runtime/compile also reads tables:
#                                                        runtime/storage < runtime/compile)
#       runtime/storage, runtime/result < runtime/cpu  (runtime/result: the Result and its
#       runtime/result < runtime/gpu                     host finish, shared by both engines)
#       runtime/cpu < runtime/gpu                        (GPU parts become the CPU engine's
#                                                        partial states: runtime/gpu/state_cells.h)
#       runtime/session above every runtime folder
#   < api and tools (siblings: neither includes the other) < cli, and python (the Python
#   module's bindings) above api.
# So compiler/ never includes runtime/. templates/ (the device library) and include/tally/
# (the public headers) are leaves any layer may include; templates/ include nothing of
# the project but templates/. Within one layer anything goes.
#
# Each line of `layers` is a layer (a folder and everything under it; a file belongs to
# the longest one that prefixes its path) and the layers right below it. A layer may
# include its own files and those of every layer below it, transitively; nothing else.
# Known exceptions, one "file -> included path" a line with the reason beside it, are in
# layering_exceptions.txt next to this script.
set -euo pipefail
exceptions_file="$(dirname "$(realpath "$0")")/layering_exceptions.txt"
cd "${1:?usage: check_layering.sh <source dir>}"

layers='
compiler/common:
compiler/functions:  compiler/common
compiler/parse:      compiler/functions
compiler/ir:         compiler/parse
compiler/eval:       compiler/ir
compiler/bind:       compiler/eval
compiler/plan:       compiler/bind
compiler/codegen:    compiler/plan
runtime/storage:     compiler/codegen
runtime/load:        runtime/storage
runtime/result:      compiler/codegen
runtime/cuda:        compiler/codegen
runtime/compile:     runtime/cuda runtime/storage
runtime/gpu:         runtime/compile runtime/result runtime/cpu
runtime/cpu:         runtime/storage runtime/result
runtime/session:     runtime/load runtime/gpu runtime/cpu
api:                 runtime/session
tools:               runtime/session
cli:                 api tools
python:              api
'

declare -A below  # layer -> the layers right below it
names=()
while IFS=: read -r layer lower; do
  [ -n "$layer" ] || continue
  names+=("$layer")
  below[$layer]="$lower"
done <<<"$layers"

declare -A reach  # "from to" -> 1 when layer `from` may include layer `to`
mark_reachable() {  # from, then a layer reachable from it
  local layer
  for layer in ${below[$2]}; do
    reach["$1 $layer"]=1
    mark_reachable "$1" "$layer"
  done
}
for layer in "${names[@]}"; do
  reach["$layer $layer"]=1
  mark_reachable "$layer" "$layer"
done

layer=""
layer_of() {  # a path under the source dir -> $layer: the longest listed prefix, or ""
  local candidate
  layer=""
  for candidate in "${names[@]}" templates include/tally; do
    if [[ $1 == "$candidate"/* && ${#candidate} -gt ${#layer} ]]; then layer=$candidate; fi
  done
}

declare -A allowed
if [ -f "$exceptions_file" ]; then
  while read -r line; do
    line=${line%%#*}
    read -r file arrow target <<<"$line" || true
    [ -n "${file:-}" ] && [ "$arrow" = "->" ] && allowed["$file $target"]=1
  done <"$exceptions_file"
fi

status=0
fail() {
  echo "$1" >&2
  status=1
}
while IFS= read -r line; do
  file=${line%%:*}
  included=${line#*\"}
  included=${included%%\"*}
  # A project path: from the source root, "tally/..." for include/tally, or relative.
  if [[ $included == tally/* ]]; then
    target=include/$included
  elif [ -e "$included" ]; then
    target=$included
  elif [ -e "${file%/*}/$included" ]; then
    target=${file%/*}/$included
  else
    continue  # not the project's (the generated parser's headers)
  fi
  [ -n "${allowed["$file $included"]:-}" ] && continue
  layer_of "$file"
  from=$layer
  layer_of "$target"
  to=$layer
  if [ -z "$from" ]; then
    fail "$file: in no layer; add its folder to the order in $0"
  elif [ "$from" = templates ]; then
    [ "$to" = templates ] || fail "$file includes \"$included\": templates/ include only templates/"
  elif [ "$to" = templates ] || [ "$to" = include/tally ]; then
    continue
  elif [ -z "$to" ]; then
    fail "$file includes \"$included\", which is in no layer"
  elif [ -z "${reach["$from $to"]:-}" ]; then
    fail "$file includes \"$included\": $from may not include $to (see the order in $0)"
  fi
done < <(find compiler runtime api tools cli python templates include -type f \
  \( -name '*.h' -o -name '*.cpp' -o -name '*.cuh' \) -print0 | sort -z |
  xargs -0 grep -H '^[[:space:]]*#[[:space:]]*include[[:space:]]*"')

[ $status -eq 0 ] && echo "include layering: every include points down the pipeline"
exit $status
