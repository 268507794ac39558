// SPDX-License-Identifier: MIT
#include "ui/comparison/strategyresultsmodel.h"

#include "ui/util/boundformat.h"
#include "ui/util/numberformat.h"
#include "ui/util/strategyinfo.h"

#include <QBrush>
#include <QFont>
#include <QPalette>

#include <algorithm>
#include <cmath>

namespace pbx::ui {

StrategyResultsModel::StrategyResultsModel(QObject *parent) : QAbstractTableModel(parent) {}

void StrategyResultsModel::clear()
{
    beginResetModel();
    m_outcomes.clear();
    m_stale = false;
    m_preview = false;
    endResetModel();
}

void StrategyResultsModel::setResults(const std::vector<StrategyOutcome> &outcomes, bool epsilonAtDelta,
                                      double delta, double epsilon)
{
    beginResetModel();
    m_outcomes = outcomes;
    m_epsilonAtDelta = epsilonAtDelta;
    m_delta = delta;
    m_epsilon = epsilon;
    m_stale = false;
    m_preview = false;
    endResetModel();
}

void StrategyResultsModel::setStale(bool stale)
{
    if (stale == m_stale)
        return;
    m_stale = stale;
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1),
                           {Qt::ForegroundRole, Qt::FontRole});
}

void StrategyResultsModel::setPreview(bool preview)
{
    if (preview == m_preview)
        return;
    m_preview = preview;
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1), {Qt::FontRole});
}

const StrategyOutcome *StrategyResultsModel::outcome(int row) const
{
    if (row < 0 || row >= static_cast<int>(m_outcomes.size()))
        return nullptr;
    return &m_outcomes[static_cast<std::size_t>(row)];
}

int StrategyResultsModel::rowOf(const QString &name) const
{
    return strategyIndex(name);
}

QString StrategyResultsModel::perStepText(const StrategyOutcome &o, bool epsilonAtDelta)
{
    if (!o.perStep)
        return {};
    const accounting::PerStepSummary &p = *o.perStep;
    const double total = o.answer.delta;
    const QString steps
        = (p.convertedSteps == 1 ? tr("1 Gaussian/zCDP step at δ = %1")
                                 : tr("%1 Gaussian/zCDP steps at δ = %2 each")
                                       .arg(formatNumber(static_cast<double>(p.convertedSteps), 12)))
              .arg(formatBound(p.stepDelta, 3));
    // The total δ the strategy claims, and how much of it the steps charge by themselves.
    if (epsilonAtDelta && std::isinf(o.answer.epsilon))
        return tr("%1: the steps' Σδᵢ = %2 leaves nothing of δ = %3")
            .arg(steps, formatBound(p.stepsDelta, 3), formatBound(total, 3));
    // Basic composition (also when advanced or optimal fell back to it) charges the steps' δ only.
    if (o.name == QStringLiteral("basic") || toQString(o.answer.method).startsWith(QStringLiteral("basic")))
        return tr("%1: total δ = Σδᵢ ≤ %2").arg(steps, formatBound(p.stepsDelta, 3));
    const double own = std::max(0.0, total - p.stepsDelta);
    return tr("%1: total δ = %2 = Σδᵢ %3 + %4 of the composition")
        .arg(steps, formatBound(total, 3), formatBound(p.stepsDelta, 3), formatBound(own, 3));
}

QString StrategyResultsModel::detailText(const StrategyOutcome &o, bool epsilonAtDelta)
{
    if (!o.applicable)
        return tr("Not applicable: %1").arg(o.reason);
    const auto &a = o.answer;
    QStringList parts;
    const QString method = toQString(a.method);
    // Basic composition (also when advanced or optimal fell back to it) charges the steps' δ only.
    if (o.name == QStringLiteral("basic") || toQString(o.answer.method).startsWith(QStringLiteral("basic"))) {
        parts << (epsilonAtDelta && std::isinf(a.epsilon) ? tr("δ is below the ledger's own δ: no finite ε")
                                                          : tr("ε's add up"));
    } else if (o.name == QStringLiteral("advanced")) {
        parts << (method.startsWith(QStringLiteral("basic")) ? tr("basic composition is smaller here")
                                                             : tr("Dwork–Rothblum–Vadhan bound"));
    } else if (o.name == QStringLiteral("optimal")) {
        parts << (a.discretisationInterval
                      ? tr("Murtagh–Vadhan via PLD, d = %1").arg(formatNumber(*a.discretisationInterval))
                      : tr("exact (KOV, equal steps)"));
    } else if (o.name == QStringLiteral("zcdp")) {
        // Losses rounded up as the gauge prints them (the simple bound is the session's guarantee
        // under a zCDP filter: it read 0.2567 beside the gauge's and the note's 0.2568).
        if (a.rho)
            parts << tr("ρ = %1").arg(formatBound(*a.rho));
        if (a.simpleEpsilon)
            parts << tr("simple bound ε = %1").arg(formatBound(*a.simpleEpsilon));
    } else if (o.name == QStringLiteral("pld") && a.discretisationInterval) {
        parts << tr("d = %1").arg(formatNumber(*a.discretisationInterval));
    }
    if (a.optimalOrder && std::isfinite(*a.optimalOrder))
        parts << tr("order α = %1").arg(formatNumber(*a.optimalOrder));
    if (a.optimisticEpsilon && epsilonAtDelta)
        parts << tr("optimistic ε ≥ %1").arg(formatLowerBound(*a.optimisticEpsilon)); // a lower bound: down
    if (a.optimisticDelta && !epsilonAtDelta)
        parts << tr("optimistic δ ≥ %1").arg(formatNumber(*a.optimisticDelta, 3));
    if (o.perStep)
        parts << perStepText(o, epsilonAtDelta);
    return parts.join(QStringLiteral("; "));
}

int StrategyResultsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(strategyInfos().size());
}

int StrategyResultsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant StrategyResultsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const StrategyInfo &info = strategyInfos().at(index.row());
    const StrategyOutcome *o = outcome(index.row());
    const int column = index.column();
    switch (role) {
    case NameRole:
        return info.name;
    case ApplicableRole:
        return o && o->applicable;
    case Qt::DisplayRole:
        switch (column) {
        case Strategy:
            return info.title;
        case Value:
            if (!o)
                return QStringLiteral("…");
            if (!o->applicable)
                return QStringLiteral("—");
            return m_epsilonAtDelta ? formatBound(o->answer.epsilon) : formatBound(o->answer.delta, 3);
        case Detail:
            return o ? detailText(*o, m_epsilonAtDelta) : QString();
        default:
            return {};
        }
    case RawValueRole:
        switch (column) {
        case Strategy:
            return info.name;
        case Value:
            if (!o || !o->applicable)
                return {};
            return m_epsilonAtDelta ? o->answer.epsilon : o->answer.delta;
        case Detail:
            return o ? detailText(*o, m_epsilonAtDelta) : QString();
        default:
            return {};
        }
    case Qt::DecorationRole:
        if (column == Strategy)
            return info.colour;
        return {};
    case Qt::ForegroundRole:
        if (m_stale || (o && !o->applicable && column != Strategy))
            return QBrush(QPalette().color(QPalette::Disabled, QPalette::Text));
        return {};
    case Qt::FontRole:
        if (column == Value && o && o->applicable) {
            QFont font;
            font.setBold(true);
            font.setItalic(m_stale || m_preview);
            return font;
        }
        if (m_stale || m_preview) {
            QFont font;
            font.setItalic(true);
            return font;
        }
        return {};
    case Qt::TextAlignmentRole:
        if (column == Value)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        if (!o)
            return {};
        if (!o->applicable)
            return tr("<p>%1 does not apply to this ledger:</p><p>%2</p>")
                .arg(info.title, o->reason.toHtmlEscaped());
        return tr("<p><b>%1</b></p><p>%2</p>").arg(info.title, toQString(o->answer.method).toHtmlEscaped());
    default:
        return {};
    }
}

QVariant StrategyResultsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Strategy:
        return tr("Strategy");
    case Value:
        return m_epsilonAtDelta ? tr("ε at δ = %1").arg(formatNumber(m_delta, 3))
                                : tr("δ at ε = %1").arg(formatNumber(m_epsilon));
    case Detail:
        return tr("Detail");
    default:
        return {};
    }
}

} // namespace pbx::ui
