// SPDX-License-Identifier: MIT
// The CPS1988 teaching instance of ERMG's logistic-regression box (core/growing/ermg.h): the
// dataset's columns as bounded feature vectors and ±1 labels.
#pragma once

#include "core/data/rows.h"
#include "core/data/table.h"
#include "core/growing/ermg.h"
#include "core/util/result.h"

namespace pbx::growing {

/// The CPS1988 teaching instance (d = 9): education/20, (experience + 8)/72, smsa, parttime, afam, the
/// region dummies midwest, south, west, and an intercept, each clipped to [0, 1] and divided by 3 (so
/// ‖x‖₂ ≤ 1 by public bounds, never by the data); label +1 iff wage ≥ 500. Errors: NotFound (a
/// missing column); INVALID_CONFIG (a column of the wrong type). A missing numeric value counts as 0.
Result<ErmData> cpsErmData(const data::Rows &table);
/// cpsErmData's errors from the schema alone (no row is read).
Result<void> checkCpsErmData(const data::Table &table);

} // namespace pbx::growing
