// tally's one error type. User errors (bad SQL, bad data, no device) are exceptions that
// carry a kind and, where the error comes from query text, the line and column. The type
// is part of the public library API, so it is defined in include/tally/error.h: internal
// errors reach library users unchanged.
#pragma once

#include "tally/error.h"
