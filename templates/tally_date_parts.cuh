// EXTRACT/date_part fields and date_trunc units over days since 1970-01-01 (DATE),
// microseconds since 1970-01-01 00:00:00 (TIMESTAMP) and since midnight (TIME), shared verbatim
// by the CPU evaluator (compiler/eval/math_functions.cpp) and generated GPU code, so the two
// engines cannot disagree about ISO weeks or centuries. Plain C++ that both compilers read.
// The field and unit numbers are compiler/ir/expr.h's ExtractField and DateUnit.
#pragma once

#include "tally_host_device.cuh"

namespace tally_dates {

typedef long long i64;

TALLY_HD i64 floor_div(i64 a, i64 b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
TALLY_HD i64 floor_mod(i64 a, i64 b) { return a - floor_div(a, b) * b; }

// Hinnant's civil algorithms (as compiler/common/date.cpp).
TALLY_HD i64 days_from_ymd(i64 y, i64 m, i64 d) {
  y -= m <= 2;
  const i64 era = floor_div(y, 400);
  const i64 yoe = y - era * 400;
  const i64 doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  return era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719468;
}

struct Ymd {
  i64 year, month, day;
};

TALLY_HD Ymd ymd_from_days(i64 z) {
  z += 719468;
  const i64 era = floor_div(z, 146097);
  const i64 doe = z - era * 146097;
  const i64 yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const i64 doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const i64 mp = (5 * doy + 2) / 153;
  const i64 m = mp < 10 ? mp + 3 : mp - 9;
  Ymd r = {yoe + era * 400 + (m <= 2), m, doy - (153 * mp + 2) / 5 + 1};
  return r;
}

// The same civil steps in 32-bit unsigned arithmetic, where a GPU divides by a constant in a
// fraction of a 64-bit division's instructions: `z` counts days from 0000-03-01 plus any
// whole 400-year eras that keep it positive. Returns the era, the year of the era (from
// March), the day of that year and the month from March (0-11).
struct MarchDate32 {
  unsigned era, yoe, doy, mp;
};

TALLY_HD MarchDate32 march_date32(unsigned z) {
  const unsigned era = z / 146097u;
  const unsigned doe = z - era * 146097u;
  const unsigned yoe = (doe - doe / 1460u + doe / 36524u - doe / 146096u) / 365u;
  const unsigned doy = doe - (365u * yoe + yoe / 4u - yoe / 100u);
  MarchDate32 r = {era, yoe, doy, (5u * doy + 2u) / 153u};
  return r;
}

// ymd_from_days for days from 0000-03-01 to 2^31 - 1 days later, in 32 bits.
TALLY_HD Ymd ymd_from_days32(i64 days) {
  const MarchDate32 c = march_date32((unsigned)(days + 719468));
  const unsigned m = c.mp < 10u ? c.mp + 3u : c.mp - 9u;
  Ymd r = {(i64)(c.yoe + c.era * 400u + (m <= 2u)), (i64)m,
           (i64)(c.doy - (153u * c.mp + 2u) / 5u + 1u)};
  return r;
}

// d + months, the day clamped to the target month's last (PostgreSQL), as
// compiler/common/date.cpp's add_months: past a billion months a value far outside the DATE
// range, which the caller's range check refuses. The interpreter's, on both sides; the
// generated kernels keep tally_sql.cuh's device-only one, whose civil steps run in 32 bits.
TALLY_HD i64 add_months(i64 days, i64 months) {
  const i64 bound = 1000000000, far = (i64)1 << 40;
  if (months > bound || months < -bound) return months > 0 ? far : -far;
  const Ymd c = ymd_from_days(days);
  const i64 total = c.year * 12 + (c.month - 1) + months;
  const i64 year = total >= 0 ? total / 12 : (total - 11) / 12;
  const i64 month = total - year * 12 + 1;
  // Only the year's leap-ness matters, the same every 400 years.
  const i64 y = year % 400 + 400;
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  const i64 dim = month == 2 ? (leap ? 29 : 28)
                             : (month == 4 || month == 6 || month == 9 || month == 11 ? 30 : 31);
  return days_from_ymd(year, month, c.day < dim ? c.day : dim);
}

// 1 = Monday ... 7 = Sunday; 1970-01-01 was a Thursday.
TALLY_HD i64 iso_dow(i64 days) { return floor_mod(days + 3, 7) + 1; }

// The Thursday of the ISO week holding `days`: its year is the ISO year.
TALLY_HD i64 iso_thursday(i64 days) { return days - iso_dow(days) + 4; }

// PostgreSQL's centuries and millennia: the 21st century began on 2001-01-01.
TALLY_HD i64 ordinal_period(i64 year, i64 length) {
  return year > 0 ? (year + length - 1) / length : -((length - 1 - (year - 1)) / length);
}

// ExtractField: YEAR MONTH DAY QUARTER WEEK DOW ISODOW DOY ISOYEAR DECADE CENTURY
// MILLENNIUM EPOCH.
TALLY_HD i64 date_field(i64 days, int field) {
  const Ymd c = ymd_from_days(days);
  switch (field) {
    case 0:
      return c.year;
    case 1:
      return c.month;
    case 2:
      return c.day;
    case 3:
      return (c.month - 1) / 3 + 1;
    case 4: {
      const i64 thursday = iso_thursday(days);
      return (thursday - days_from_ymd(ymd_from_days(thursday).year, 1, 1)) / 7 + 1;
    }
    case 5:
      return floor_mod(days + 4, 7);
    case 6:
      return iso_dow(days);
    case 7:
      return days - days_from_ymd(c.year, 1, 1) + 1;
    case 8:
      return ymd_from_days(iso_thursday(days)).year;
    case 9:
      return floor_div(c.year, 10);
    case 10:
      return ordinal_period(c.year, 100);
    case 11:
      return ordinal_period(c.year, 1000);
    default:
      return days * 86400;
  }
}

// DateUnit: year quarter month week day decade century millennium. The first day of the
// period holding `days` (a week starts on Monday; a century in a year ending in 01).
TALLY_HD i64 date_trunc_days(i64 days, int unit) {
  const Ymd c = ymd_from_days(days);
  switch (unit) {
    case 0:
      return days_from_ymd(c.year, 1, 1);
    case 1:
      return days_from_ymd(c.year, (c.month - 1) / 3 * 3 + 1, 1);
    case 2:
      return days_from_ymd(c.year, c.month, 1);
    case 3:
      return days - iso_dow(days) + 1;
    case 4:
      return days;
    case 5:
      return days_from_ymd(floor_div(c.year, 10) * 10, 1, 1);
    case 6:
      return days_from_ymd(floor_div(c.year - 1, 100) * 100 + 1, 1, 1);
    default:
      return days_from_ymd(floor_div(c.year - 1, 1000) * 1000 + 1, 1, 1);
  }
}

// Group keys of date_trunc (compiler/plan/key_encoding.cpp): the calendar period holding
// `days` as an index, `period` months a period (1, 3, 12, 120: month, quarter, year, decade)
// counted from year 0, or weeks (kPeriodWeeks) counted from the Monday 1969-12-29; and the
// first day of period `index`, date_trunc's value for every day of it.
constexpr int kPeriodWeeks = -7;

TALLY_HD i64 period_index(i64 days, int period) {
  if (period == kPeriodWeeks) return floor_div(days + 3, 7);
  const Ymd c = ymd_from_days(days);
  return floor_div(c.year * 12 + c.month - 1, period);
}

// period_index for days within 2^30 of 1970 (the keys the planner counts in periods) in 32-bit
// unsigned arithmetic, the era shifted positive: the Scan's per-row step, where the 64-bit
// divisions of ymd_from_days took 4-5x a month key's Scan (H200, SF 10: 0.67 ms a month key).
// From March, a civil year's months are yoe * 12 + mp + 2 whichever year they fall in.
TALLY_HD i64 period_index32(i64 days, int period) {
  if (period == kPeriodWeeks) {
    const unsigned kShiftWeeks = 153391689u;  // x 7 = 2^30 - 1
    return (i64)(((unsigned)days + 3u + kShiftWeeks * 7u) / 7u) - (i64)kShiftWeeks;
  }
  const unsigned kShiftEras = 7350;  // 7,350 x 146,097 days pass 2^30
  const unsigned shifted_months = kShiftEras * 400u * 12u;
  const MarchDate32 c = march_date32((unsigned)days + 719468u + kShiftEras * 146097u);
  const unsigned months = (c.era * 400u + c.yoe) * 12u + c.mp + 2u;
  return (i64)(months / (unsigned)period) - (i64)(shifted_months / (unsigned)period);
}

TALLY_HD i64 period_first_day(i64 index, int period) {
  if (period == kPeriodWeeks) return index * 7 - 3;
  const i64 months = index * period;
  const i64 year = floor_div(months, 12);
  return days_from_ymd(year, months - year * 12 + 1, 1);
}

constexpr i64 kMicrosPerHour = 3600000000LL;
constexpr i64 kMicrosPerMinute = 60000000LL;
constexpr i64 kMicrosPerDayTs = 24 * kMicrosPerHour;

// ExtractField of a TIME, the micros since midnight (24:00:00 included, so HOUR can be
// 24 as in PostgreSQL): HOUR ... MICROSECOND (DuckDB's integers), EPOCH its whole seconds.
TALLY_HD i64 time_field(i64 time, int field) {
  switch (field) {
    case 13:
      return time / kMicrosPerHour;
    case 14:
      return time / kMicrosPerMinute % 60;
    case 15:
      return time / 1000000 % 60;
    case 16:
      return time % kMicrosPerMinute / 1000;
    case 17:
      return time % kMicrosPerMinute;
    default:
      return time / 1000000;
  }
}

// ExtractField of a TIMESTAMP: the time-of-day fields from the micros since midnight, EPOCH
// in whole seconds (floor), the others from its date.
TALLY_HD i64 timestamp_field(i64 micros, int field) {
  const i64 days = floor_div(micros, kMicrosPerDayTs);
  if (field == 12) return floor_div(micros, 1000000);
  if (field > 12) return time_field(micros - days * kMicrosPerDayTs, field);
  return date_field(days, field);
}

// DateUnit of a TIMESTAMP: the start of the period holding it (hour ... millisecond cut the
// micros; the larger units are those of its date, at midnight).
TALLY_HD i64 timestamp_trunc(i64 micros, int unit) {
  switch (unit) {
    case 8:
      return floor_div(micros, kMicrosPerHour) * kMicrosPerHour;
    case 9:
      return floor_div(micros, kMicrosPerMinute) * kMicrosPerMinute;
    case 10:
      return floor_div(micros, 1000000) * 1000000;
    case 11:
      return floor_div(micros, 1000) * 1000;
    default:
      return date_trunc_days(floor_div(micros, kMicrosPerDayTs), unit) * kMicrosPerDayTs;
  }
}

}  // namespace tally_dates
