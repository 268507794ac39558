// SPDX-License-Identifier: MIT
// Shared by the source tests: CPS1988 (the embedded dataset) written into SQLite and PostgreSQL
// tables, and the comparison of every aggregate a database source computes with the in-memory
// table's (TableSource, the existing code paths).
#pragma once

#include "core/data/query.h"
#include "core/data/rows.h"
#include "core/data/source.h"
#include "core/io/dataset_metadata.h"
#include "resources/dataset_catalog.h"
#include "tests/test_rows.h"

#include <charconv>
#include <cmath>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace pbx::test {

/// Public metadata (unless `isPublic` is false) declaring `columns`.
inline io::DatasetMetadata metadataOf(std::vector<io::ColumnMetadata> columns, bool isPublic = true)
{
    io::DatasetMetadata metadata;
    metadata.isPublic = isPublic;
    metadata.columns = std::move(columns);
    return metadata;
}

/// A numeric column with declared clipping bounds.
inline io::ColumnMetadata numericColumn(std::string name, data::Bounds bounds)
{
    io::ColumnMetadata column;
    column.name = std::move(name);
    column.type = data::ColumnType::Numeric;
    column.bounds = bounds;
    return column;
}

/// A categorical column with declared categories (none: read from the data where allowed).
inline io::ColumnMetadata categoricalColumn(std::string name, std::vector<std::string> categories = {})
{
    io::ColumnMetadata column;
    column.name = std::move(name);
    column.type = data::ColumnType::Categorical;
    column.categories = std::move(categories);
    return column;
}

/// The true statistics of `spec` on `source`; an error fails the test binary (the query is the test's own).
inline data::QueryStatistics statistics(const data::SourceAggregates &source, const data::QuerySpec &spec)
{
    auto compiled = data::CompiledQuery::compile(spec, source.source().schema());
    if (!compiled)
        qFatal("%s", compiled.error().message.c_str());
    auto result = source.statistics(*compiled);
    if (!result)
        qFatal("%s", result.error().message.c_str());
    return *result;
}

/// The embedded CPS1988 (public) and its shipped sidecar metadata.
inline data::Table cpsTable()
{
    return resources::loadDataset("cps1988").value();
}

inline io::DatasetMetadata cpsMetadata()
{
    return io::readDatasetMetadataFile(PBX_SOURCE_DIR "/resources/datasets/cps1988.json").value();
}

/// Shortest text that reads back as the same double (what both databases' inputs parse exactly).
inline std::string exactText(double value)
{
    char buffer[64];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
    return std::string(buffer, end);
}

/// A row's value of column `column` as text: the number's exact text, or the label.
inline std::string cellText(const data::Rows &rows, std::size_t column, std::size_t row)
{
    const data::ColumnInfo &info = rows.columnInfo(column);
    if (info.type == data::ColumnType::Numeric)
        return exactText(rows.numeric(column)[row]);
    return info.categories[static_cast<std::size_t>(rows.codes(column)[row])];
}

/// The predicates every source must answer as the in-memory table does. The first seven have
/// counts computed independently in R (tests/data/tst_cps1988.cpp): 28155, 8760, 7008, 4512, 438,
/// The rows of CPS1988's seven columns as PostgreSQL COPY text: tab-separated cells (cellText),
/// one line per row.
inline std::string cpsCopyText(const data::Table &cps)
{
    const PublicRows rows(cps);
    std::string lines;
    for (std::size_t r = 0; r < rows->rowCount(); ++r)
        for (std::size_t c = 0; c < 7; ++c)
            lines += cellText(rows, c, r) + (c < 6 ? '\t' : '\n');
    return lines;
}

/// 483, 15.
inline const std::vector<std::pair<std::string, long>> &cpsPredicates()
{
    static const std::vector<std::pair<std::string, long>> predicates = {
        {"", 28155},
        {"region == \"south\"", 8760},
        {"region == \"south\" and education >= 12", 7008},
        {"ethnicity == \"afam\" or parttime == \"yes\"", 4512},
        {"experience < 0", 438},
        {"not smsa == \"yes\" and wage > 1000", 483},
        {"wage > 5000", 15},
        {"region != \"west\" and (education < 12 or experience >= 30)", -1},
        {"not (region == \"northeast\" or region == \"midwest\") and parttime != \"yes\"", -1},
        {"wage <= 354.5 and wage >= 100.25 and education == 12", -1},
        {"experience > -3 and experience <= 2.5", -1},
        {"wage < 0", 0},
    };
    return predicates;
}

/// The queries: count; sums and means with the declared bounds and with given ones.
inline std::vector<data::QuerySpec> cpsQueries()
{
    using data::Aggregate;
    std::vector<data::QuerySpec> queries;
    queries.push_back({Aggregate::Count, "", std::nullopt, ""});
    queries.push_back({Aggregate::Sum, "wage", std::nullopt, ""});
    queries.push_back({Aggregate::Mean, "wage", std::nullopt, ""});
    queries.push_back({Aggregate::Sum, "wage", data::Bounds{100, 1000}, ""});
    queries.push_back({Aggregate::Mean, "experience", std::nullopt, ""});
    queries.push_back({Aggregate::Sum, "education", data::Bounds{8.5, 16}, ""});
    return queries;
}

/// What the agreement check found.
struct Agreement
{
    std::string failure;          ///< empty when everything agreed
    int compared = 0;             ///< statistics compared (count, sum and centred sum each one)
    int bitIdentical = 0;         ///< of which exactly equal
    double largestRelative = 0.0; ///< largest |a − b| / scale over the sums
    int selective = 0;            ///< predicates selecting some rows but not all (compareOnPredicates)
};

/// Compares every query × predicate and every categorical histogram of `source` with `memory`
/// (the same data in memory): counts equal, sums within 1e-9 of the sum's scale n·max(|L|, |U|)
/// (the bound on Σ|clip(x)|, so a centred sum near 0 is held to the same absolute standard).
inline Agreement compareWithMemory(const data::SourceAggregates &source, const data::SourceAggregates &memory)
{
    Agreement agreement;
    const data::Table &schema = source.source().schema();
    const data::Table &memorySchema = memory.source().schema();
    for (const auto &[where, expectedCount] : cpsPredicates()) {
        for (data::QuerySpec spec : cpsQueries()) {
            spec.where = where;
            const std::string what = std::string(data::aggregateName(spec.aggregate)) + " " + spec.column
                                     + " where '" + where + "'";
            auto onSource = data::CompiledQuery::compile(spec, schema);
            auto inMemory = data::CompiledQuery::compile(spec, memorySchema);
            if (!onSource || !inMemory)
                return {what + ": does not compile: " + (onSource ? inMemory : onSource).error().message};
            auto a = source.statistics(*onSource);
            auto b = memory.statistics(*inMemory);
            if (!a || !b)
                return {what + ": " + (a ? b : a).error().message};
            ++agreement.compared;
            if (a->count != b->count)
                return {what + ": count " + exactText(a->count) + " != " + exactText(b->count)};
            if (expectedCount >= 0 && a->count != double(expectedCount))
                return {what + ": count " + exactText(a->count) + ", R says "
                        + std::to_string(expectedCount)};
            agreement.bitIdentical += 1;
            if (spec.aggregate == data::Aggregate::Count)
                continue;
            const data::Bounds bounds = onSource->bounds();
            const double scale
                = std::max(1.0, b->count * std::max(std::fabs(bounds.lower), std::fabs(bounds.upper)));
            const std::pair<double, double> pairs[]
                = {{a->clippedSum, b->clippedSum}, {a->centredSum, b->centredSum}};
            for (const auto &[x, y] : pairs) {
                ++agreement.compared;
                const double relative = std::fabs(x - y) / scale;
                agreement.largestRelative = std::max(agreement.largestRelative, relative);
                if (x == y)
                    ++agreement.bitIdentical;
                else if (!(relative <= 1e-9))
                    return {what + ": sum " + exactText(x) + " != " + exactText(y)};
            }
        }
        auto predicate = data::Predicate::compile(where, schema);
        auto memoryPredicate = data::Predicate::compile(where, memorySchema);
        for (const char *column : {"ethnicity", "smsa", "region", "parttime"}) {
            auto a = source.categoryCounts(column, *predicate);
            auto b = memory.categoryCounts(column, *memoryPredicate);
            if (!a || !b)
                return {std::string("histogram ") + column + ": " + (a ? b : a).error().message};
            ++agreement.compared;
            if (a->labels != b->labels || a->counts != b->counts)
                return {std::string("histogram ") + column + " where '" + where + "' differs"};
            ++agreement.bitIdentical;
        }
    }
    return agreement;
}

/// `count` random predicates over CPS1988's columns (seeded, so every run asks the same): up to
/// three levels of and / or / not over comparisons whose literals are values some row holds (so
/// == and the boundaries of < and <= matter), values between them, and the declared categories.
inline std::vector<std::string> randomCpsPredicates(const data::Rows &rows, int count, std::uint64_t seed)
{
    std::mt19937_64 random(seed);
    const auto pick = [&](std::size_t n) { return static_cast<std::size_t>(random() % n); };
    const char *operators[] = {"==", "!=", "<", "<=", ">", ">="};
    std::function<std::string(int)> expression = [&](int depth) -> std::string {
        const std::size_t choice = depth > 0 ? pick(6) : 5;
        if (choice == 0)
            return "not (" + expression(depth - 1) + ")";
        if (choice == 1 || choice == 2)
            return "(" + expression(depth - 1) + (choice == 1 ? " and " : " or ") + expression(depth - 1)
                   + ")";
        const std::size_t column = pick(rows.columnCount());
        const data::ColumnInfo &info = rows.columnInfo(column);
        if (info.type == data::ColumnType::Categorical)
            return info.name + (pick(2) ? " == '" : " != '") + info.categories[pick(info.categories.size())]
                   + "'";
        double literal = rows.numeric(column)[pick(rows.rowCount())];
        if (pick(3) == 0)
            literal += pick(2) ? 0.5 : -0.25;
        return info.name + " " + operators[pick(6)] + " " + exactText(literal);
    };
    std::vector<std::string> predicates;
    for (int i = 0; i < count; ++i)
        predicates.push_back(expression(1 + static_cast<int>(pick(3))));
    return predicates;
}

/// compareWithMemory's check over `predicates` (no expected counts): a count, the mean of wage and
/// of experience (count, sum and centred sum each), and the region histogram per predicate.
inline Agreement compareOnPredicates(const data::SourceAggregates &source,
                                     const data::SourceAggregates &memory,
                                     const std::vector<std::string> &predicates)
{
    Agreement agreement;
    const data::Table &schema = source.source().schema();
    const data::Table &memorySchema = memory.source().schema();
    for (const std::string &where : predicates) {
        for (data::QuerySpec spec :
             {data::QuerySpec{data::Aggregate::Count, "", std::nullopt, ""},
              data::QuerySpec{data::Aggregate::Mean, "wage", std::nullopt, ""},
              data::QuerySpec{data::Aggregate::Mean, "experience", std::nullopt, ""}}) {
            spec.where = where;
            auto onSource = data::CompiledQuery::compile(spec, schema);
            auto inMemory = data::CompiledQuery::compile(spec, memorySchema);
            if (!onSource || !inMemory)
                return {"'" + where
                        + "' does not compile: " + (onSource ? inMemory : onSource).error().message};
            auto a = source.statistics(*onSource);
            auto b = memory.statistics(*inMemory);
            if (!a || !b)
                return {"'" + where + "': " + (a ? b : a).error().message};
            if (spec.aggregate == data::Aggregate::Count && b->count > 0 && b->count < 28155)
                ++agreement.selective;
            const data::Bounds bounds = onSource->bounds();
            const double scale
                = std::max(1.0, b->count * std::max(std::fabs(bounds.lower), std::fabs(bounds.upper)));
            const std::pair<double, double> pairs[]
                = {{a->count, b->count}, {a->clippedSum, b->clippedSum}, {a->centredSum, b->centredSum}};
            for (std::size_t k = 0; k < (spec.aggregate == data::Aggregate::Count ? 1u : 3u); ++k) {
                const auto [x, y] = pairs[k];
                ++agreement.compared;
                const double relative = std::fabs(x - y) / scale;
                agreement.largestRelative = std::max(agreement.largestRelative, relative);
                if (x == y)
                    ++agreement.bitIdentical;
                else if (k == 0 || !(relative <= 1e-9))
                    return {"'" + where + "': " + exactText(x) + " != " + exactText(y)};
            }
        }
        auto a = source.categoryCounts("region", *data::Predicate::compile(where, schema));
        auto b = memory.categoryCounts("region", *data::Predicate::compile(where, memorySchema));
        if (!a || !b)
            return {"histogram where '" + where + "': " + (a ? b : a).error().message};
        ++agreement.compared;
        if (a->counts != b->counts)
            return {"histogram where '" + where + "' differs"};
        ++agreement.bitIdentical;
    }
    return agreement;
}

} // namespace pbx::test
