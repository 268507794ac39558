// SPDX-License-Identifier: MIT
#include "core/odp/budget_recovery.h"
#include "core/session/odp/odp_mechanisms.h"
#include "core/util/try.h"

#include <algorithm>
#include <cmath>

namespace pbx::session {

namespace {

Error invalid(const std::string &message)
{
    return makeError(ErrorCode::InvalidArgument, message);
}

Result<void> checkParameters(const RecoverRequestSpec &spec)
{
    if (!std::isfinite(spec.labelThreshold))
        return invalid("label_threshold: must be a finite number");
    if (!std::isfinite(spec.lambda) || !(spec.lambda > 0.0))
        return invalid("lambda: must be a finite number > 0");
    if (!std::isfinite(spec.epsilonModel) || !(spec.epsilonModel > 0.0))
        return invalid("epsilon_model: must be a finite number > 0");
    if (!std::isfinite(spec.epsilonTest) || !(spec.epsilonTest > 0.0))
        return invalid("epsilon_test: must be a finite number > 0");
    if (!(spec.tau >= 0.0 && spec.tau <= 1.0))
        return invalid("tau: must lie in [0, 1]");
    return {};
}

odp::RecoveryParameters parametersOf(const RecoverRequestSpec &spec)
{
    odp::RecoveryParameters p;
    p.lambda = spec.lambda;
    p.epsilonModel = spec.epsilonModel;
    p.epsilonTest = spec.epsilonTest;
    p.tau = spec.tau;
    p.relation = data::Neighbouring::Replace;
    return p;
}

struct Feature
{
    std::size_t column;
    bool numeric;
    double lo, hi;
    std::size_t levels; // one-hot width of a categorical column (its first level is the base)
};

/// The design of the regression from metadata alone (no row is read): the label column, the
/// features, the dimension d of θ and the split sizes (row i is a test row iff i mod 5 = 4).
struct Layout
{
    std::size_t label = 0;
    std::vector<Feature> features;
    Eigen::Index d = 1; // the intercept
    std::size_t rows = 0;
    std::size_t testRows = 0;
    std::size_t trainRows() const { return rows - testRows; }
};

Result<Layout> layoutOf(const RecoverRequestSpec &spec, const data::Table &table)
{
    PBX_RETURN_IF_ERROR(checkParameters(spec));
    const auto label = table.columnIndex(spec.labelColumn);
    if (!label)
        return makeError(ErrorCode::NotFound, "label_column: unknown column '" + spec.labelColumn + "'");
    if (table.columnInfo(*label).type != data::ColumnType::Numeric)
        return invalid("label_column: '" + spec.labelColumn + "' must be numeric");
    if (spec.features.empty())
        return invalid("features: name at least one column");
    Layout layout;
    layout.label = *label;
    for (const auto &name : spec.features) {
        const auto col = table.columnIndex(name);
        if (!col)
            return makeError(ErrorCode::NotFound, "features: unknown column '" + name + "'");
        if (*col == *label)
            return invalid("features: '" + name + "' is the label column");
        if (std::count(spec.features.begin(), spec.features.end(), name) > 1)
            return invalid("features: '" + name + "' is named twice");
        const auto &info = table.columnInfo(*col);
        if (info.type == data::ColumnType::Numeric) {
            if (!info.declaredBounds || !(info.declaredBounds->lower < info.declaredBounds->upper))
                return invalid("features: '" + name
                               + "' must have declared bounds (they scale it to [0, 1])");
            layout.features.push_back(
                {*col, true, info.declaredBounds->lower, info.declaredBounds->upper, 1});
            layout.d += 1;
        } else {
            // θ has one coefficient per level: levels from the data would release their number.
            if (info.domainFromData)
                return invalid("features: '" + name
                               + "': its categories were inferred from the data; declare them in metadata");
            const std::size_t levels = info.categories.empty() ? 0 : info.categories.size() - 1;
            layout.features.push_back({*col, false, 0.0, 0.0, levels});
            layout.d += static_cast<Eigen::Index>(levels);
        }
    }
    layout.rows = table.rowCount();
    if (layout.rows < 5)
        return invalid("the dataset gives an empty split: the test part (rows with i mod 5 = 4) needs at "
                       "least 5 rows");
    layout.testRows = layout.rows / 5; // i mod 5 = 4 for i < n
    return layout;
}

/// The labelled rows, split by position (row i is a test row iff i mod 5 = 4). A missing numeric
/// feature counts as 0 (its lower bound), a missing label as y = −1: public rules, so nothing here
/// refuses on a row's value.
Result<odp::RecoverySplit> splitOf(const RecoverRequestSpec &spec, const data::Rows &table)
{
    PBX_TRY(layout, layoutOf(spec, table.table()));
    const Eigen::Index d = layout.d;
    const std::size_t n = layout.rows;
    // Each feature contributes at most 1 to ‖x‖², the intercept 1: dividing by √(1 + q) bounds ‖x‖ by 1
    // for every possible record (a public bound, Chaudhuri et al. 2011).
    const double scale = 1.0 / std::sqrt(1.0 + static_cast<double>(layout.features.size()));
    odp::RecoverySplit split;
    split.train.x.setZero(static_cast<Eigen::Index>(layout.trainRows()), d);
    split.train.y.resize(static_cast<Eigen::Index>(layout.trainRows()));
    split.test.x.setZero(static_cast<Eigen::Index>(layout.testRows), d);
    split.test.y.resize(static_cast<Eigen::Index>(layout.testRows));
    Eigen::Index tr = 0;
    Eigen::Index te = 0;
    for (std::size_t i = 0; i < n; ++i) {
        Eigen::VectorXd row = Eigen::VectorXd::Zero(d);
        row[0] = 1.0;
        Eigen::Index at = 1;
        for (const auto &f : layout.features) {
            if (f.numeric) {
                const double v = table.numeric(f.column)[i];
                row[at++] = std::isnan(v) ? 0.0 : (std::clamp(v, f.lo, f.hi) - f.lo) / (f.hi - f.lo);
            } else {
                const std::int32_t code = table.codes(f.column)[i];
                if (code >= 1 && static_cast<std::size_t>(code) <= f.levels)
                    row[at + code - 1] = 1.0;
                at += static_cast<Eigen::Index>(f.levels);
            }
        }
        row *= scale;
        const double y = table.numeric(layout.label)[i] > spec.labelThreshold ? 1.0 : -1.0;
        if (i % 5 == 4) {
            split.test.x.row(te) = row;
            split.test.y[te++] = y;
        } else {
            split.train.x.row(tr) = row;
            split.train.y[tr++] = y;
        }
    }
    return split;
}

} // namespace

Result<odp::OdpGuarantee> recoverRequestGuarantee(const RecoverRequestSpec &spec, const data::Table &table)
{
    PBX_TRY(layout, layoutOf(spec, table));
    PBX_TRY(c, odp::calibrateRecovery(parametersOf(spec), layout.trainRows(), layout.testRows));
    return odp::recoveryGuarantee(c);
}

Result<void> checkRecoverRequest(const RecoverRequestSpec &spec, const data::Table &table)
{
    PBX_RETURN_IF_ERROR(recoverRequestGuarantee(spec, table));
    return {};
}

Result<int> runRecoverRequest(const RecoverRequestSpec &spec, const data::Rows &table,
                              mechanisms::RandomBits &bits, OdpRecord &record)
{
    PBX_TRY(split, splitOf(spec, table));
    PBX_TRY(run, odp::runRecovery(split.train, split.test, parametersOf(spec), bits));
    RecoveryOutput out;
    out.released = run.released;
    if (run.released)
        out.theta.assign(run.theta.data(), run.theta.data() + run.theta.size());
    out.noisyError = run.noisyError;
    out.testNoise = run.calibration.testNoise;
    out.trainRows = static_cast<std::size_t>(split.train.y.size());
    out.testRows = static_cast<std::size_t>(split.test.y.size());
    record.recovery = std::move(out);
    return run.released ? 1 : 0;
}

Result<void> auditRecoverOutput(const RecoverRequestSpec &spec, const OdpRecord &r, const data::Table &table)
{
    if (!r.recovery)
        return invalid("a settled recover event without its output");
    const RecoveryOutput &o = *r.recovery;
    if (*r.cell != (o.released ? 1 : 0))
        return invalid("it settled in cell " + std::to_string(*r.cell) + " but its model was "
                       + (o.released ? "released" : "withheld (⊥)"));
    PBX_TRY(layout, layoutOf(spec, table));
    if (o.released != !o.theta.empty()
        || (o.released && o.theta.size() != static_cast<std::size_t>(layout.d)))
        return invalid("its model has " + std::to_string(o.theta.size()) + " coefficients, not "
                       + std::to_string(o.released ? layout.d : 0));
    PBX_TRY(c, odp::calibrateRecovery(parametersOf(spec), layout.trainRows(), layout.testRows));
    if (o.trainRows != layout.trainRows() || o.testRows != layout.testRows || o.testNoise != c.testNoise)
        return invalid("its split or test noise is not the one its parameters give");
    if (!std::isfinite(o.noisyError))
        return invalid("its noisy test error is not a finite number");
    // Released iff ẽ ≤ τ (Algorithm 5): the cell follows from the published ẽ.
    if (o.released != (o.noisyError <= spec.tau))
        return invalid("its noisy error " + std::to_string(o.noisyError)
                       + " and τ = " + std::to_string(spec.tau) + " give the other cell");
    for (double t : o.theta)
        if (!std::isfinite(t))
            return invalid("a model coefficient is not a finite number");
    return {};
}

} // namespace pbx::session
