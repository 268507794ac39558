// SPDX-License-Identifier: MIT
// The 64-row table the session benchmarks run on (one categorical column, a quarter "south"):
// small enough that the measured time is the session's bookkeeping, not the data.
#pragma once

#include "core/data/table.h"

#include <cstdio>
#include <cstdlib>
#include <memory>

namespace pbx::bench {

inline std::shared_ptr<const data::Table> tinyTable()
{
    data::Column region{
        {"region", data::ColumnType::Categorical, std::nullopt, "", {"north", "south"}}, {}, {}};
    for (std::size_t i = 0; i < 64; ++i)
        region.codes.push_back(i % 4 == 0 ? 1 : 0);
    auto t = data::Table::create("tiny", {region});
    if (!t) {
        std::fprintf(stderr, "%s\n", t.error().message.c_str());
        std::exit(1);
    }
    return std::make_shared<const data::Table>(std::move(t.value()));
}

} // namespace pbx::bench
