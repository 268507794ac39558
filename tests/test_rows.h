// SPDX-License-Identifier: MIT
// Tests read true answers to check them: through door (b) of core/data/rows.h, on a public copy of
// the test's table (docs/private-data.md). Converts to the data::Rows the functions under test take.
#pragma once

#include "core/data/rows.h"
#include "core/data/table.h"

namespace pbx::test {

/// A public copy of `table` and its rows. Not copyable (the rows refer to the copy); pass it where a
/// `const data::Rows &` is expected, e.g. `query.evaluate(pbx::test::PublicRows(table))`.
struct PublicRows
{
    explicit PublicRows(const data::Table &t)
        : table(t.withPublic(true)), rows(*data::publicRows(table, "a test"))
    {}
    PublicRows(const PublicRows &) = delete;
    PublicRows &operator=(const PublicRows &) = delete;
    operator const data::Rows &() const { return rows; }
    const data::Rows *operator->() const { return &rows; }

    data::Table table;
    data::Rows rows;
};

} // namespace pbx::test
