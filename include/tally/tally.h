// The tally library: include this (or the headers it includes) and link tally::tally.
// README.md, section "Library", describes the API; examples/ has a complete program.
#pragma once

#include "tally/arrow_c_data.h"
#include "tally/engine.h"
#include "tally/error.h"
#include "tally/gpu_info.h"
#include "tally/partial_result.h"
#include "tally/prepared_statement.h"
#include "tally/result_set.h"
