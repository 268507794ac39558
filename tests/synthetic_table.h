// SPDX-License-Identifier: MIT
// A synthetic table with known answers, shared by the core and io tests.
#pragma once

#include "core/data/table.h"

#include <memory>

namespace pbx::test {

/// 20,000 rows: region ∈ {north, south} (south = every 4th row), age = 20 + (i mod 50),
/// income = 1000 + 10·(i mod 300). The truths below follow from these formulas.
inline std::shared_ptr<const data::Table> syntheticTable()
{
    const std::size_t n = 20000;
    data::Column region{
        {"region", data::ColumnType::Categorical, std::nullopt, "", {"north", "south"}}, {}, {}};
    data::Column age{{"age", data::ColumnType::Numeric, data::Bounds{0, 100}, "", {}}, {}, {}};
    data::Column income{{"income", data::ColumnType::Numeric, data::Bounds{0, 5000}, "", {}}, {}, {}};
    for (std::size_t i = 0; i < n; ++i) {
        region.codes.push_back(i % 4 == 0 ? 1 : 0);
        age.numeric.push_back(20.0 + static_cast<double>(i % 50));
        income.numeric.push_back(1000.0 + 10.0 * static_cast<double>(i % 300));
    }
    auto t = data::Table::create("synthetic", {region, age, income});
    return std::make_shared<const data::Table>(std::move(t.value()));
}

} // namespace pbx::test
