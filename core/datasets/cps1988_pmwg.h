// SPDX-License-Identifier: MIT
// The CPS1988 universes of PMWG (core/growing/pmwg.h, universeShape): every row's cell from the
// dataset's columns and public cut points.
#pragma once

#include "core/data/rows.h"
#include "core/data/table.h"
#include "core/growing/pmwg.h"
#include "core/util/result.h"

#include <string_view>

namespace pbx::growing {

/// The universe from the table's schema alone (rowCells empty; no row is read). Errors:
/// INVALID_UNIVERSE (also a column of the wrong type); NotFound (a missing column);
/// ROW_OUTSIDE_UNIVERSE (declaredUniverseMap: a declared category the universe does not know, or
/// categories inferred from the data) — decided from metadata, never from a row.
Result<Universe> cpsUniverse(const data::Table &table, std::string_view name,
                             std::string_view field = "pmwg.universe");
/// The universe with every row's cell. Errors: as cpsUniverse(const data::Table &, …).
Result<Universe> cpsUniverse(const data::Rows &table, std::string_view name,
                             std::string_view field = "pmwg.universe");

} // namespace pbx::growing
