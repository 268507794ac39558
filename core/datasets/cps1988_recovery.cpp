// SPDX-License-Identifier: MIT
#include "core/datasets/cps1988_recovery.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace pbx::odp {

RecoverySplitSizes cps1988RecoverySplitSizes(std::size_t rows)
{
    return {rows - rows / 5, rows / 5};
}

Result<RecoverySplit> cps1988Recovery(const data::Rows &table, const std::string &features,
                                      double labelThreshold)
{
    if (features != "full" && features != "weak")
        return makeError(ErrorCode::InvalidArgument, "features must be 'full' or 'weak'");
    if (!std::isfinite(labelThreshold))
        return makeError(ErrorCode::InvalidArgument, "label threshold must be finite");
    const char *needed[] = {"wage", "education", "experience", "ethnicity", "smsa", "region", "parttime"};
    std::size_t col[7];
    for (int i = 0; i < 7; ++i) {
        auto idx = table.columnIndex(needed[i]);
        if (!idx)
            return makeError(ErrorCode::NotFound, std::string("column '") + needed[i] + "' not found");
        col[i] = *idx;
    }
    auto code = [&](std::size_t c, const std::string &label) -> int {
        const auto &cats = table.columnInfo(c).categories;
        const auto it = std::find(cats.begin(), cats.end(), label);
        return it == cats.end() ? -1 : static_cast<int>(it - cats.begin());
    };
    const int afam = code(col[3], "afam");
    const int smsaYes = code(col[4], "yes");
    const int midwest = code(col[5], "midwest");
    const int south = code(col[5], "south");
    const int west = code(col[5], "west");
    const int partYes = code(col[6], "yes");
    if (afam < 0 || smsaYes < 0 || midwest < 0 || south < 0 || west < 0 || partYes < 0)
        return makeError(ErrorCode::InvalidArgument, "a categorical level is missing from the declared list");
    const bool full = features == "full";
    const Eigen::Index d = full ? 9 : 5;
    const double scale = 1.0 / std::sqrt(full ? 7.0 : 3.0);
    const std::size_t n = table.rowCount();
    const RecoverySplitSizes sizes = cps1988RecoverySplitSizes(n);
    RecoverySplit split;
    split.train.x.resize(static_cast<Eigen::Index>(sizes.trainRows), d);
    split.train.y.resize(static_cast<Eigen::Index>(sizes.trainRows));
    split.test.x.resize(static_cast<Eigen::Index>(sizes.testRows), d);
    split.test.y.resize(static_cast<Eigen::Index>(sizes.testRows));
    Eigen::Index tr = 0;
    Eigen::Index te = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const double wage = table.numeric(col[0])[i];
        const double edu = std::clamp(table.numeric(col[1])[i], 0.0, 20.0) / 20.0;
        const double exper = (std::clamp(table.numeric(col[2])[i], -8.0, 64.0) + 8.0) / 72.0;
        const int region = table.codes(col[5])[i];
        Eigen::VectorXd row(d);
        const double a = table.codes(col[3])[i] == afam ? 1.0 : 0.0;
        const double mw = region == midwest ? 1.0 : 0.0;
        const double so = region == south ? 1.0 : 0.0;
        const double we = region == west ? 1.0 : 0.0;
        if (full)
            row << 1.0, edu, exper, a, table.codes(col[4])[i] == smsaYes ? 1.0 : 0.0, mw, so, we,
                table.codes(col[6])[i] == partYes ? 1.0 : 0.0;
        else
            row << 1.0, a, mw, so, we;
        row *= scale;
        const double label = wage > labelThreshold ? 1.0 : -1.0;
        if (i % 5 == 4) {
            split.test.x.row(te) = row;
            split.test.y[te++] = label;
        } else {
            split.train.x.row(tr) = row;
            split.train.y[tr++] = label;
        }
    }
    return split;
}

} // namespace pbx::odp
