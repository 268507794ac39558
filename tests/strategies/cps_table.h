// SPDX-License-Identifier: MIT
// CPS1988 for the strategies tests, read from the repository with its metadata (public data).
#pragma once

#include "core/io/csv_reader.h"
#include "core/io/dataset_metadata.h"
#include "tests/test_rows.h"

#include <QtTest/QtTest>

#include <cmath>
#include <vector>

namespace pbx::test {

inline data::Table loadCps()
{
    // Appended in place: GCC 12's -Warray-bounds misreads `std::string(…) + "…"` once inlined
    // (GCC bug 105651), which the tests' precompiled header makes it do here.
    std::string dir(PBX_SOURCE_DIR);
    dir += "/resources/datasets/";
    auto meta = io::readDatasetMetadataFile(dir + "cps1988.json");
    if (!meta)
        qFatal("%s", meta.error().message.c_str());
    io::CsvReadOptions options;
    options.metadata = &*meta;
    auto table = io::readCsvFile(dir + "cps1988.csv.gz", options);
    if (!table)
        qFatal("%s", table.error().message.c_str());
    return *table;
}

/// Counts of an integer column over lo…hi (one cell per value).
inline std::vector<double> integerHistogram(const data::Table &table, const char *column, int lo, int hi)
{
    std::vector<double> counts(static_cast<std::size_t>(hi - lo + 1), 0.0);
    const PublicRows rows(table);
    const auto values = rows->numeric(*table.columnIndex(column));
    for (const double v : values)
        counts[static_cast<std::size_t>(std::lround(v) - lo)] += 1.0;
    return counts;
}

} // namespace pbx::test
