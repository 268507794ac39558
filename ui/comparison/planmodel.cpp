// SPDX-License-Identifier: MIT
#include "ui/comparison/planmodel.h"

#include "core/accounting/zcdp_accountant.h"
#include "ui/comparison/plancommands.h"
#include "ui/util/boundformat.h"
#include "ui/util/numberformat.h"

#include <QBrush>
#include <QPalette>
#include <QUndoStack>

#include <cmath>

namespace pbx::ui {

using accounting::MechanismKind;
using accounting::PrivacyEvent;
using accounting::SamplingKind;

PlanModel::PlanModel(QObject *parent) : QAbstractTableModel(parent) {}

const PrivacyEvent &PlanModel::event(int row) const
{
    return m_ledger.events.at(static_cast<std::size_t>(row));
}

std::int64_t PlanModel::totalSteps() const
{
    std::int64_t steps = 0;
    for (const auto &e : m_ledger.events)
        steps += e.count;
    return steps;
}

void PlanModel::push(QUndoCommand *command)
{
    if (m_stack) {
        m_stack->push(command);
    } else {
        command->redo();
        delete command;
    }
}

bool PlanModel::addEvent(const PrivacyEvent &event, int row)
{
    if (m_readOnly || !accounting::validateEvent(event, 0).ok())
        return false;
    if (row < 0 || row > rowCount())
        row = rowCount();
    push(new AddPlanEventCommand(this, row, event));
    return true;
}

bool PlanModel::removeEvent(int row)
{
    if (m_readOnly || !validRow(row))
        return false;
    push(new RemovePlanEventCommand(this, row));
    return true;
}

bool PlanModel::moveEvent(int row, int offset)
{
    const int to = row + offset;
    if (m_readOnly || !validRow(row) || !validRow(to) || offset == 0)
        return false;
    push(new MovePlanEventCommand(this, row, to));
    return true;
}

bool PlanModel::setField(int row, int column, const QVariant &value)
{
    if (m_readOnly || !validRow(row) || !value.isValid())
        return false;
    const PrivacyEvent before = event(row);
    PrivacyEvent after = before;
    bool ok = true;
    switch (column) {
    case Mechanism: {
        const int kind = value.toInt(&ok);
        if (!ok || kind < 0 || kind > static_cast<int>(MechanismKind::BoundedRange))
            return false;
        if (static_cast<MechanismKind>(kind) == before.mechanism)
            return false;
        after = defaultEvent(static_cast<MechanismKind>(kind));
        after.count = before.count;
        after.sampling = before.sampling;
        after.sensitivity = before.sensitivity;
        break;
    }
    case Parameter:
        if (!hasField(before, Parameter))
            return false;
        setParameterValue(after, value.toDouble(&ok));
        break;
    case Sensitivity:
        after.sensitivity = value.toDouble(&ok);
        break;
    case Delta:
        after.delta = value.toDouble(&ok);
        break;
    case Count:
        after.count = value.toLongLong(&ok);
        break;
    case Sampling: {
        const int kind = value.toInt(&ok);
        if (!ok || kind < 0 || kind > static_cast<int>(SamplingKind::WithoutReplacement))
            return false;
        after.sampling.kind = static_cast<SamplingKind>(kind);
        if (after.sampling.kind == SamplingKind::None)
            after.sampling.rate = 1.0;
        else if (before.sampling.kind == SamplingKind::None)
            after.sampling.rate = 0.01;
        break;
    }
    case Rate:
        after.sampling.rate = value.toDouble(&ok);
        break;
    default:
        return false;
    }
    if (!ok || !hasField(before, column) || sameEvent(before, after)
        || !accounting::validateEvent(after, static_cast<std::size_t>(row)).ok())
        return false;
    push(new EditPlanEventCommand(this, row, column, before, after));
    return true;
}

bool PlanModel::replacePlan(const accounting::Ledger &ledger, const QString &name)
{
    if (m_readOnly || !accounting::validateLedger(ledger).ok())
        return false;
    push(new ReplacePlanCommand(this, ledger, tr("Load plan “%1”").arg(name)));
    return true;
}

bool PlanModel::setNeighbours(accounting::Neighbouring neighbours)
{
    if (m_readOnly || neighbours == m_ledger.neighbours)
        return false;
    push(new SetPlanNeighboursCommand(this, neighbours));
    return true;
}

void PlanModel::insertEventRaw(int row, const PrivacyEvent &event)
{
    beginInsertRows({}, row, row);
    m_ledger.events.insert(m_ledger.events.begin() + row, event);
    endInsertRows();
    Q_EMIT planChanged();
}

PrivacyEvent PlanModel::removeEventRaw(int row)
{
    beginRemoveRows({}, row, row);
    PrivacyEvent removed = m_ledger.events.at(static_cast<std::size_t>(row));
    m_ledger.events.erase(m_ledger.events.begin() + row);
    endRemoveRows();
    Q_EMIT planChanged();
    return removed;
}

void PlanModel::moveEventRaw(int from, int to)
{
    // beginMoveRows wants the destination as the row *before which* the row lands.
    beginMoveRows({}, from, from, {}, to > from ? to + 1 : to);
    PrivacyEvent moved = m_ledger.events.at(static_cast<std::size_t>(from));
    m_ledger.events.erase(m_ledger.events.begin() + from);
    m_ledger.events.insert(m_ledger.events.begin() + to, moved);
    endMoveRows();
    Q_EMIT planChanged();
}

void PlanModel::setEventRaw(int row, const PrivacyEvent &event)
{
    m_ledger.events.at(static_cast<std::size_t>(row)) = event;
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
    Q_EMIT planChanged();
}

void PlanModel::setLedgerRaw(const accounting::Ledger &ledger)
{
    beginResetModel();
    m_ledger = ledger;
    endResetModel();
    Q_EMIT planChanged();
}

void PlanModel::setNeighboursRaw(accounting::Neighbouring neighbours)
{
    m_ledger.neighbours = neighbours;
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, PerStep), index(rowCount() - 1, PerStep));
    Q_EMIT planChanged();
}

QString PlanModel::mechanismTitle(MechanismKind kind)
{
    switch (kind) {
    case MechanismKind::Gaussian:
        return tr("Gaussian");
    case MechanismKind::Laplace:
        return tr("Laplace");
    case MechanismKind::PureDp:
        return tr("pure ε-DP");
    case MechanismKind::ApproxDp:
        return tr("(ε, δ)-DP");
    case MechanismKind::Zcdp:
        return tr("ρ-zCDP");
    case MechanismKind::RandomizedResponse:
        return tr("randomized response");
    case MechanismKind::PostProcessing:
        return tr("post-processing");
    case MechanismKind::BoundedRange:
        return tr("bounded range (exponential mech.)");
    }
    return {};
}

QString PlanModel::samplingTitle(SamplingKind kind)
{
    switch (kind) {
    case SamplingKind::None:
        return tr("none");
    case SamplingKind::Poisson:
        return tr("Poisson");
    case SamplingKind::WithoutReplacement:
        return tr("w/o replacement");
    }
    return {};
}

QString PlanModel::parameterSymbol(MechanismKind kind)
{
    switch (kind) {
    case MechanismKind::Gaussian:
        return QStringLiteral("σ");
    case MechanismKind::Laplace:
        return QStringLiteral("b");
    case MechanismKind::PureDp:
    case MechanismKind::ApproxDp:
    case MechanismKind::RandomizedResponse:
    case MechanismKind::BoundedRange:
        return QStringLiteral("ε");
    case MechanismKind::Zcdp:
        return QStringLiteral("ρ");
    case MechanismKind::PostProcessing:
        return {};
    }
    return {};
}

double PlanModel::parameterValue(const PrivacyEvent &e)
{
    switch (e.mechanism) {
    case MechanismKind::Gaussian:
        return e.sigma;
    case MechanismKind::Laplace:
        return e.scale;
    case MechanismKind::PureDp:
    case MechanismKind::ApproxDp:
    case MechanismKind::RandomizedResponse:
    case MechanismKind::BoundedRange:
        return e.epsilon;
    case MechanismKind::Zcdp:
        return e.rho;
    case MechanismKind::PostProcessing:
        return 0.0;
    }
    return 0.0;
}

void PlanModel::setParameterValue(PrivacyEvent &e, double value)
{
    switch (e.mechanism) {
    case MechanismKind::Gaussian:
        e.sigma = value;
        break;
    case MechanismKind::Laplace:
        e.scale = value;
        break;
    case MechanismKind::PureDp:
    case MechanismKind::ApproxDp:
    case MechanismKind::RandomizedResponse:
    case MechanismKind::BoundedRange:
        e.epsilon = value;
        break;
    case MechanismKind::Zcdp:
        e.rho = value;
        break;
    case MechanismKind::PostProcessing:
        break;
    }
}

PrivacyEvent PlanModel::defaultEvent(MechanismKind kind)
{
    PrivacyEvent e;
    e.mechanism = kind;
    e.sensitivity = 1.0;
    switch (kind) {
    case MechanismKind::Gaussian:
        e.sigma = 1.0;
        break;
    case MechanismKind::Laplace:
        e.scale = 10.0;
        break;
    case MechanismKind::PureDp:
    case MechanismKind::RandomizedResponse:
    case MechanismKind::BoundedRange:
        e.epsilon = 0.1;
        break;
    case MechanismKind::ApproxDp:
        e.epsilon = 0.1;
        e.delta = 1e-7;
        break;
    case MechanismKind::Zcdp:
        e.rho = 0.01;
        break;
    case MechanismKind::PostProcessing:
        break;
    }
    return e;
}

QString PlanModel::perStepText(const PrivacyEvent &e, accounting::Neighbouring neighbours)
{
    if (e.outputDp)
        return e.delta > 0.0 ? tr("ε = %1, δ = %2 settled (output DP)")
                                   .arg(formatBound(e.epsilon), formatBound(e.delta))
                             : tr("ε = %1 settled (output DP)").arg(formatBound(e.epsilon));
    if (e.expost)
        return tr("ε = %1 ex-post").arg(formatBound(e.epsilon));
    const bool sampled = e.sampling.kind != SamplingKind::None && e.sampling.rate < 1.0;
    switch (e.mechanism) {
    case MechanismKind::PostProcessing:
        return tr("free");
    case MechanismKind::Zcdp:
        return tr("ρ = %1").arg(formatBound(e.rho));
    case MechanismKind::Gaussian: {
        if (sampled)
            return tr("σ/Δ = %1, q = %2")
                .arg(formatNumber(e.sigma / e.sensitivity), formatNumber(e.sampling.rate));
        auto rho = accounting::zcdpRhoPerStep(e, neighbours);
        return rho ? tr("ρ = %1").arg(formatBound(rho.value())) : QString();
    }
    case MechanismKind::BoundedRange:
        if (!sampled) {
            auto rho = accounting::zcdpRhoPerStep(e, neighbours);
            return rho ? tr("ε = %1 (bounded range: ρ = %2)")
                             .arg(formatBound(e.epsilon), formatBound(rho.value()))
                       : QString();
        }
        break;
    default:
        break;
    }
    auto step = accounting::approxDpPerStep(e, neighbours);
    if (!step)
        return tr("no amplification");
    QString text = step->delta > 0.0
                       ? tr("ε = %1, δ = %2").arg(formatBound(step->epsilon), formatBound(step->delta, 2))
                       : tr("ε = %1").arg(formatBound(step->epsilon));
    if (sampled)
        text += tr(" after sampling");
    return text;
}

QString PlanModel::describeEvent(const PrivacyEvent &e)
{
    QString text = mechanismTitle(e.mechanism);
    if (hasField(e, Parameter))
        text += QStringLiteral(" %1 = %2").arg(parameterSymbol(e.mechanism), formatNumber(parameterValue(e)));
    if (hasField(e, Sensitivity) && e.sensitivity != 1.0)
        text += QStringLiteral(", Δ = %1").arg(formatNumber(e.sensitivity));
    if (e.sampling.kind != SamplingKind::None)
        text += QStringLiteral(", q = %1").arg(formatNumber(e.sampling.rate));
    if (e.count != 1)
        text += QStringLiteral(" × %1").arg(formatNumber(static_cast<double>(e.count), 10));
    return text;
}

bool PlanModel::sameEvent(const PrivacyEvent &a, const PrivacyEvent &b)
{
    return a.mechanism == b.mechanism && a.sigma == b.sigma && a.scale == b.scale
           && a.sensitivity == b.sensitivity && a.epsilon == b.epsilon && a.delta == b.delta && a.rho == b.rho
           && a.count == b.count && a.sampling.kind == b.sampling.kind && a.sampling.rate == b.sampling.rate
           && a.partition == b.partition && a.expost == b.expost && a.outputDp == b.outputDp;
}

bool PlanModel::hasField(const PrivacyEvent &e, int column)
{
    switch (column) {
    case Mechanism:
    case Count:
    case Sampling:
    case PerStep:
        return true;
    case Parameter:
        return e.mechanism != MechanismKind::PostProcessing;
    case Sensitivity:
        return e.mechanism == MechanismKind::Gaussian || e.mechanism == MechanismKind::Laplace;
    case Delta:
        return e.mechanism == MechanismKind::ApproxDp;
    case Rate:
        return e.sampling.kind != SamplingKind::None;
    default:
        return false;
    }
}

int PlanModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_ledger.events.size());
}

int PlanModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PlanModel::displayValue(const PrivacyEvent &e, int column) const
{
    if (!hasField(e, column))
        return QStringLiteral("—");
    switch (column) {
    case Mechanism:
        return e.expost ? tr("Laplace noise reduction") : mechanismTitle(e.mechanism);
    case Parameter:
        return QStringLiteral("%1 = %2").arg(parameterSymbol(e.mechanism), formatNumber(parameterValue(e)));
    case Sensitivity:
        return formatNumber(e.sensitivity);
    case Delta:
        return formatNumber(e.delta, 3);
    case Count:
        return formatNumber(static_cast<double>(e.count), 12);
    case Sampling:
        return samplingTitle(e.sampling.kind);
    case Rate:
        return formatNumber(e.sampling.rate);
    case PerStep:
        return perStepText(e, m_ledger.neighbours);
    default:
        return {};
    }
}

QVariant PlanModel::rawValue(const PrivacyEvent &e, int column) const
{
    if (!hasField(e, column))
        return {};
    switch (column) {
    case Mechanism:
        return static_cast<int>(e.mechanism);
    case Parameter:
        return parameterValue(e);
    case Sensitivity:
        return e.sensitivity;
    case Delta:
        return e.delta;
    case Count:
        return static_cast<qlonglong>(e.count);
    case Sampling:
        return static_cast<int>(e.sampling.kind);
    case Rate:
        return e.sampling.rate;
    case PerStep:
        return perStepText(e, m_ledger.neighbours);
    default:
        return {};
    }
}

QVariant PlanModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || !validRow(index.row()) || index.column() >= ColumnCount)
        return {};
    const PrivacyEvent &e = event(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return displayValue(e, index.column());
    case Qt::EditRole:
    case RawValueRole:
        return rawValue(e, index.column());
    case Qt::ForegroundRole:
        if (!hasField(e, index.column()) || index.column() == PerStep)
            return QBrush(QPalette().color(QPalette::Disabled, QPalette::Text));
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == Mechanism || index.column() == Sampling || index.column() == PerStep)
            return QVariant(Qt::AlignLeft | Qt::AlignVCenter);
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        if (index.column() == PerStep)
            return tr("What one step guarantees on its own, under %1 neighbours")
                .arg(m_ledger.neighbours == accounting::Neighbouring::AddRemove ? tr("add/remove")
                                                                                : tr("replace-one"));
        if (e.expost)
            return tr("Laplace noise reduction: its loss ε is ex-post (the level it stopped "
                      "at), so only basic composition can account it.");
        return {};
    default:
        return {};
    }
}

bool PlanModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != Qt::EditRole || !index.isValid())
        return false;
    return setField(index.row(), index.column(), value);
}

Qt::ItemFlags PlanModel::flags(const QModelIndex &index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsSelectable | Qt::ItemIsEnabled;
    if (!m_readOnly && index.column() != PerStep && validRow(index.row())
        && hasField(event(index.row()), index.column()))
        f |= Qt::ItemIsEditable;
    return f;
}

QVariant PlanModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Vertical) {
        if (role == Qt::DisplayRole)
            return section + 1;
        return {};
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Parameter:
            return tr("Noise scale (σ, b) or per-step guarantee (ε, ρ)");
        case Sensitivity:
            return tr("Sensitivity Δ of the query (ℓ2 for Gaussian, ℓ1 for Laplace)");
        case Count:
            return tr("Number of identical steps");
        case Sampling:
            return tr("Subsampling before each step (amplifies privacy)");
        case Rate:
            return tr("Sampling rate q");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Mechanism:
        return tr("Mechanism");
    case Parameter:
        return tr("Parameter");
    case Sensitivity:
        return tr("Δ");
    case Delta:
        return tr("δ");
    case Count:
        return tr("Count");
    case Sampling:
        return tr("Sampling");
    case Rate:
        return tr("q");
    case PerStep:
        return tr("One step");
    default:
        return {};
    }
}

} // namespace pbx::ui
