// SPDX-License-Identifier: MIT
// The comparison view's four charts: ε(k) of every strategy over the ledger's prefixes, the δ(ε)
// privacy profile, the RDP curve over orders, and the privacy-loss distribution as a histogram.
// Each follows the table's query: ε at δ, or δ at ε (then δ(k), δ by order, and the PLD's mass
// beyond the queried ε). A caption that repeats a table number prints the row's own number,
// rounded up as the table rounds it (ui/util/boundformat.h).
// Qt Charts stays inside these classes: their API takes plain numbers. Each chart is built once
// (its series exist from the start, one per strategy, hidden while empty); updates replace() the
// points and are coalesced by the ChartFrame's timer. Strategy colours and titles come from
// ui/util/strategyinfo.h, so the table and the charts agree.
#pragma once

#include "ui/charts/chartframe.h"

#include <QHash>
#include <QString>

#include <vector>

QT_FORWARD_DECLARE_CLASS(QAreaSeries)
QT_FORWARD_DECLARE_CLASS(QLineSeries)
QT_FORWARD_DECLARE_CLASS(QLogValueAxis)
QT_FORWARD_DECLARE_CLASS(QScatterSeries)
QT_FORWARD_DECLARE_CLASS(QValueAxis)

namespace pbx::ui {

/// One strategy's curve: y over x (NaN: not applicable there, not drawn; +∞: not drawn).
struct StrategyCurve
{
    QString name; ///< the core's strategy name: "basic" … "pld"
    std::vector<double> x;
    std::vector<double> y;
};

/// ε at δ after k steps (or after request k) for every strategy, on one chart; an optional
/// horizontal budget line. In δ-at-ε mode (setDeltaCurves) δ at ε after k steps, on a log axis.
class CompositionCurveChart final : public ChartFrame
{
    Q_OBJECT
public:
    explicit CompositionCurveChart(QWidget *parent = nullptr);
    ~CompositionCurveChart() override;

    /// Curves start at (0, 0). `xTitle`: "steps composed k" or "request #".
    void setCurves(const std::vector<StrategyCurve> &curves, const QString &xTitle, double delta);
    /// δ at `epsilon` after k steps (y: δ in [0, 1], drawn on a log axis; δ below its floor on
    /// the floor). The budget line is not drawn (it is an ε).
    void setDeltaCurves(const std::vector<StrategyCurve> &curves, const QString &xTitle, double epsilon);
    bool deltaMode() const { return m_deltaMode; }
    /// The chart's title, e.g. "ε after k steps, at δ = 1e-5".
    QString title() const;
    /// A dashed horizontal line at ε = `budget` (≤ 0: none).
    void setBudget(double budget);
    /// A note appended to the legend (e.g. a coarser PLD grid for the curves); empty: none.
    void setNote(const QString &note);
    void clear(const QString &message = {});

    /// Points drawn for a strategy (the origin included on a linear axis); 0 when hidden.
    int pointCount(const QString &name) const;
    /// ε is drawn on a log axis: the strategies' curves peak more than a decade apart (basic
    /// composition at 1,356 beside RDP and the PLD below 5 left those flat at zero on a linear
    /// axis). Otherwise linear from 0.
    bool logScale() const;

protected:
    void rebuild() override;

private:
    QHash<QString, QLineSeries *> m_series;
    void attachY(QAbstractAxis *axis);
    QLogValueAxis *m_logEpsilonAxis = nullptr; ///< ε mode, curves spanning more than a decade

    QLineSeries *m_budgetSeries = nullptr;
    QValueAxis *m_axisX = nullptr;
    QValueAxis *m_axisY = nullptr;
    QLogValueAxis *m_logAxisY = nullptr; ///< δ-at-ε mode
    QAbstractAxis *m_attachedY = nullptr;
    std::vector<StrategyCurve> m_curves;
    QString m_xTitle;
    double m_delta = 1e-5;
    double m_epsilon = 1.0;
    bool m_deltaMode = false;
    double m_budget = 0.0;
    QString m_note;
    QString m_clearMessage;
};

/// δ(ε) for every strategy on a log δ axis, with the queried δ (and ε) marked.
class PrivacyProfileChart final : public ChartFrame
{
    Q_OBJECT
public:
    explicit PrivacyProfileChart(QWidget *parent = nullptr);
    ~PrivacyProfileChart() override;

    /// Every curve shares `epsilons`; δ below the axis floor is drawn on the floor. A vertical
    /// marker at `epsilonMarker` when > 0.
    void setProfiles(const std::vector<StrategyCurve> &curves, double delta, double epsilonMarker);
    void clear(const QString &message = {});

    int pointCount(const QString &name) const;
    double floor() const { return m_floor; }
    QString title() const;

protected:
    void rebuild() override;

private:
    QHash<QString, QLineSeries *> m_series;
    QLineSeries *m_deltaLine = nullptr;
    QLineSeries *m_epsilonLine = nullptr;
    QValueAxis *m_axisX = nullptr;
    QLogValueAxis *m_axisY = nullptr;
    std::vector<StrategyCurve> m_curves;
    double m_delta = 1e-5;
    double m_epsilonMarker = 0.0;
    double m_floor = 1e-12;
    QString m_clearMessage;
};

/// The composed RDP curve ε̂(α) over orders (log axis) and the ε at δ each order would give (or,
/// in δ-at-ε mode, the δ at ε each order would give, on a right log axis); the optimal order is
/// marked and the caption prints the table's RDP number.
class RdpCurveChart final : public ChartFrame
{
    Q_OBJECT
public:
    explicit RdpCurveChart(QWidget *parent = nullptr);
    ~RdpCurveChart() override;

    /// ε at `delta` by order; `rowEpsilon` is the table's RDP ε (the curve's lowest point).
    void setCurve(std::vector<double> orders, std::vector<double> rdp, std::vector<double> epsilonByOrder,
                  double optimalOrder, double delta, double rowEpsilon);
    /// δ at `epsilon` by order; `rowDelta` is the table's RDP δ (the curve's lowest point).
    void setDeltaCurve(std::vector<double> orders, std::vector<double> rdp, std::vector<double> deltaByOrder,
                       double optimalOrder, double epsilon, double rowDelta);
    bool deltaMode() const { return m_deltaMode; }
    QString title() const;
    /// The marked optimum's value as drawn (ε, or δ in δ-at-ε mode); NaN when none.
    double optimumValue() const;
    /// Nothing to draw, and why.
    void clear(const QString &message);

    int pointCount() const;
    double optimalOrder() const { return m_optimal; }

protected:
    void rebuild() override;

private:
    /// What setCurve and setDeltaCurve share: the curve by order (ε at δ, or δ at ε when
    /// `deltaMode`), its optimum and the table's value `row`.
    void showCurve(std::vector<double> orders, std::vector<double> rdp, std::vector<double> byOrder,
                   double optimalOrder, double row, bool deltaMode);

    QLineSeries *m_rdpSeries = nullptr;
    QLineSeries *m_epsilonSeries = nullptr;
    QLineSeries *m_deltaSeries = nullptr;
    QScatterSeries *m_optimumSeries = nullptr;
    QScatterSeries *m_deltaOptimumSeries = nullptr;
    QLogValueAxis *m_axisX = nullptr;
    QValueAxis *m_axisY = nullptr;
    QLogValueAxis *m_axisDelta = nullptr; ///< right axis, δ-at-ε mode
    std::vector<double> m_orders;
    std::vector<double> m_rdp;
    std::vector<double> m_epsilon; ///< by order: ε at δ, or δ at ε in δ-at-ε mode
    double m_optimal = 0.0;
    double m_delta = 1e-5;
    double m_queryEpsilon = 1.0;
    double m_row = 0.0;
    bool m_deltaMode = false;
    QString m_clearMessage;
};

/// The composed privacy-loss distribution: mass per bin against the loss ℓ (log mass axis), the
/// mass beyond ε (what δ pays for) in another colour, and a marker at ε.
class PldHistogramChart final : public ChartFrame
{
    Q_OBJECT
public:
    explicit PldHistogramChart(QWidget *parent = nullptr);
    ~PldHistogramChart() override;

    /// Bins centred at `loss` of width `binWidth` with `mass`; `epsilon` the threshold marked
    /// (the PLD's ε at δ, or the queried ε in δ-at-ε mode); `infinityMass` P[L = ∞].
    void setHistogram(std::vector<double> loss, std::vector<double> mass, double binWidth, double epsilon,
                      double infinityMass, double interval, bool addDirection);
    /// The table's query and the PLD row's number, for the title and the caption: ε at `delta`
    /// (`row` = the PLD's ε, the marked threshold) or δ at `epsilon` (`row` = the PLD's δ).
    void setQuery(bool epsilonAtDelta, double delta, double epsilon, double row);
    QString title() const;
    void clear(const QString &message);

    int binCount() const;
    /// Total mass drawn beyond ε (tests, accessibility).
    double massBeyondEpsilon() const;

protected:
    void rebuild() override;

private:
    QAreaSeries *m_below = nullptr;
    QAreaSeries *m_above = nullptr;
    QLineSeries *m_belowUpper = nullptr;
    QLineSeries *m_belowLower = nullptr;
    QLineSeries *m_aboveUpper = nullptr;
    QLineSeries *m_aboveLower = nullptr;
    QLineSeries *m_epsilonLine = nullptr;
    QValueAxis *m_axisX = nullptr;
    QLogValueAxis *m_axisY = nullptr;
    std::vector<double> m_loss;
    std::vector<double> m_mass;
    double m_binWidth = 0.0;
    double m_epsilon = 0.0;
    double m_infinityMass = 0.0;
    double m_interval = 0.0;
    bool m_add = false;
    bool m_epsilonAtDelta = true;
    double m_queryDelta = 1e-5;
    double m_queryEpsilon = 1.0;
    double m_row = 0.0;
    QString m_clearMessage;
};

} // namespace pbx::ui
