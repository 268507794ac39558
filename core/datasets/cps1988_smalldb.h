// SPDX-License-Identifier: MIT
// The CPS1988 teaching instance of SmallDBG's box (core/growing/smalldb.h): the universe
// region × smsa × parttime and its 28 marginal counting queries.
#pragma once

#include "core/data/rows.h"
#include "core/data/table.h"
#include "core/util/result.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace pbx::growing {

/// |Q| of the SmallDB teaching instance (cpsSmallDbInstance): 8 one-way + 20 two-way marginal cells.
inline constexpr std::size_t kCpsSmallDbQueries = 28;

/// The CPS1988 teaching instance of SmallDBG: universe region(4) × smsa(2) × parttime(2), N = 16 (cell =
/// region·4 + smsa·2 + parttime, values in the order northeast, midwest, south, west; no, yes), and
/// |Q| = 28 counting queries: every 1-way marginal cell (8) and every 2-way one (20).
struct SmallDbInstance
{
    static constexpr std::size_t kCells = 16;
    std::vector<std::uint32_t> rowCells;            ///< the cell of every table row (empty from the schema)
    std::vector<std::vector<std::uint8_t>> queries; ///< [q][cell]
    std::vector<std::string> names;                 ///< each query as a predicate text
};
/// The instance from the table's schema alone (rowCells empty; no row is read).
/// Errors: NotFound (a missing column); INVALID_BLACK_BOX (a column not categorical);
/// ROW_OUTSIDE_UNIVERSE (declaredUniverseMap: a declared category the universe does not know, or
/// categories inferred from the data) — decided from metadata, never from a row.
Result<SmallDbInstance> cpsSmallDbInstance(const data::Table &table);
/// The instance with every row's cell. Errors: as cpsSmallDbInstance(const data::Table &).
Result<SmallDbInstance> cpsSmallDbInstance(const data::Rows &rows);

} // namespace pbx::growing
