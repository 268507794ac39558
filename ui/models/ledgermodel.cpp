// SPDX-License-Identifier: MIT
#include "ui/models/ledgermodel.h"

#include "core/report/event_description.h"

#include "ui/util/boundformat.h"
#include "ui/util/numberformat.h"
#include "ui/util/palette.h"
#include "ui/util/plaintext.h"
#include "ui/util/privacytext.h"

#include <QBrush>
#include <QColor>
#include <QFont>

namespace pbx::ui {

namespace {

bool isRefused(const session::LedgerEvent &event)
{
    return event.status == session::EventStatus::Refused;
}

bool isNumericColumn(int column)
{
    switch (column) {
    case LedgerModel::Number:
    case LedgerModel::Answer:
    case LedgerModel::ErrorBound:
    case LedgerModel::Attempts:
    case LedgerModel::Cost:
    case LedgerModel::Spent:
    case LedgerModel::ExPostSpent:
    case LedgerModel::EpsilonSpent:
        return true;
    default:
        return false;
    }
}

} // namespace

LedgerModel::LedgerModel(QObject *parent) : QAbstractTableModel(parent) {}

void LedgerModel::setUnitSymbol(const QString &symbol)
{
    if (symbol == m_unit)
        return;
    m_unit = symbol;
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

void LedgerModel::setEvents(std::vector<session::LedgerEvent> events)
{
    beginResetModel();
    m_events = std::move(events);
    endResetModel();
}

void LedgerModel::appendEvent(const session::LedgerEvent &event)
{
    const int row = static_cast<int>(m_events.size());
    beginInsertRows({}, row, row);
    m_events.push_back(event);
    endInsertRows();
}

void LedgerModel::clear()
{
    setEvents({});
}

QString LedgerModel::describeRequest(const session::QueryRequest &request)
{
    return toQString(report::requestLine(request));
}

QString LedgerModel::describeQuery(const data::QuerySpec &query)
{
    return toQString(report::describeQuery(query));
}

QString LedgerModel::describeTarget(const session::AccuracyTarget &target)
{
    return toQString(report::targetLine(target));
}

int LedgerModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_events.size());
}

int LedgerModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LedgerModel::rawValue(const session::LedgerEvent &event, int column) const
{
    const bool refused = isRefused(event);
    switch (column) {
    case Number:
        return static_cast<double>(event.index + 1);
    case Id:
        return toQString(event.request.id);
    case Query:
        return describeRequest(event.request);
    case Target: // an output-DP request has no accuracy target: its noise follows from its cell
        return report::hasAccuracyTarget(event.request) ? describeTarget(event.request.target)
                                                        : QStringLiteral("—");
    case Status:
        return toQString(session::eventStatusName(event.status));
    case Answer:
        return refused ? QVariant() : QVariant(event.answer);
    case ErrorBound:
        return refused ? QVariant() : QVariant(event.errorBound);
    case Mechanism:
        return toQString(event.mechanismName());
    case Attempts:
        return static_cast<double>(event.attempts.size());
    case Cost:
        return event.cost;
    case Spent:
        return event.spentAfter;
    case ExPostSpent:
        return event.expostSpentAfter;
    case EpsilonSpent:
        return event.epsilonSpentAfter;
    case Accounting:
        return toQString(event.accounting);
    case Reason:
        return toQString(event.reason);
    default:
        return {};
    }
}

QVariant LedgerModel::displayValue(const session::LedgerEvent &event, int column) const
{
    const bool refused = isRefused(event);
    switch (column) {
    case Number:
        return QString::number(event.index + 1);
    case Status:
        if (refused)
            return tr("refused");
        return event.targetMet ? tr("released ✓") : tr("released");
    case Answer:
        if (const std::string picks = report::selectionText(event); !picks.empty())
            return toQString(picks); // a mode releases categories, not a number
        return refused ? QStringLiteral("—") : formatNumber(event.answer, 6);
    case ErrorBound:
        return refused ? QStringLiteral("—") : QStringLiteral("±") + formatNumber(event.errorBound, 3);
    case Mechanism:
        return event.mechanism == session::EventMechanism::None ? QStringLiteral("—")
                                                                : toQString(event.mechanismName());
    case Attempts:
        return QString::number(event.attempts.size());
    case Cost: {
        // Privacy losses rounded up to four digits, as the result card, the gauge and the lessons
        // write them (issue 29 §3): "0.0593" under a card's "0.05932" was a smaller loss.
        if (refused)
            return formatBound(event.cost);
        QString text = formatBound(event.cost);
        // The header names the filter's unit; a cost in another unit says which.
        if (chargeSymbol(event.costKind) != m_unit || event.costKind == filters::ChargeKind::ExPost)
            text += u' ' + chargeUnit(event.costKind);
        if (event.costDelta > 0.0)
            text += QStringLiteral(", δ %1").arg(formatBound(event.costDelta, 2));
        return text;
    }
    case Spent:
        return formatBound(event.spentAfter);
    case ExPostSpent:
        return formatBound(event.expostSpentAfter);
    case Accounting:
        return event.accounting.empty() ? QStringLiteral("—") : toQString(event.accounting);
    case EpsilonSpent:
        return formatBound(event.epsilonSpentAfter);
    default:
        return rawValue(event, column);
    }
}

QString LedgerModel::toolTip(const session::LedgerEvent &event, int column) const
{
    const auto &query = event.request.query;
    switch (column) {
    case Query: {
        QString text = describeRequest(event.request);
        if (query.aggregate != data::Aggregate::Count && query.bounds)
            text += tr("\nvalues clipped to [%1, %2]")
                        .arg(formatNumber(query.bounds->lower), formatNumber(query.bounds->upper));
        if (event.request.maxCost)
            text += tr("\nper-query cap %1 = %2").arg(m_unit, formatNumber(*event.request.maxCost));
        return text;
    }
    case Status:
        if (isRefused(event))
            return tr("Refused: %1").arg(toQString(event.reason));
        return event.targetMet ? tr("Released; the accuracy target was met.")
                               : tr("Released; the accuracy target was not proven met.");
    case ErrorBound:
        return tr("Half-width of the error bar at %1 % confidence")
            .arg(formatPlain(event.request.target.confidence * 100.0, 4));
    case Cost: {
        QString text = tr("Privacy charged for this request: %1").arg(eventCostText(event, 4));
        if (event.costKind == filters::ChargeKind::PureEpsilon && m_unit == QStringLiteral("ρ"))
            text += tr("\n(a pure ε release; the zCDP filter charges it as ρ = ε²/2)");
        if (!event.accounting.empty())
            text += tr("\nAccounting: %1").arg(toQString(event.accounting));
        return text;
    }
    case Spent:
        return tr("Total %1 spent after this request").arg(m_unit);
    case ExPostSpent:
        return tr("Ex-post side: total realised ex-post ε after this request");
    case Accounting:
        return toQString(event.accounting);
    case EpsilonSpent:
        return tr("Total spend as ε at the session δ, after this request");
    case Reason:
        return toQString(event.reason);
    default:
        return {};
    }
}

QVariant LedgerModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto &event = m_events[static_cast<std::size_t>(index.row())];
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return displayValue(event, column);
    case RawValueRole:
        return rawValue(event, column);
    case RefusedRole:
        return isRefused(event);
    case CostUnitRole:
        return column == Cost ? QVariant(chargeUnit(event.costKind)) : QVariant();
    case CostDeltaRole:
        return column == Cost ? QVariant(event.costDelta) : QVariant();
    case Qt::ToolTipRole: {
        // Ids, predicates, labels and reasons come from requests and transcripts: plain text.
        const QString tip = toolTip(event, column);
        return tip.isEmpty() ? QVariant() : QVariant(plainToolTip(tip));
    }
    case Qt::TextAlignmentRole:
        return isNumericColumn(column) ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                       : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if (isRefused(event))
            return QBrush(palette::refusedText);
        if (column == Status)
            return QBrush(event.targetMet ? QColor(0x1f, 0x7a, 0x45) : QColor(0x8a, 0x5a, 0x00));
        return {};
    case Qt::BackgroundRole:
        return isRefused(event) ? QVariant(QBrush(QColor(0xfd, 0xec, 0xea))) : QVariant();
    case Qt::FontRole:
        if (isRefused(event) && column == Status) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    default:
        return {};
    }
}

QVariant LedgerModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Number:
            return tr("#");
        case Id:
            return tr("Id");
        case Query:
            return tr("Query");
        case Target:
            return tr("Target");
        case Status:
            return tr("Status");
        case Answer:
            return tr("Answer");
        case ErrorBound:
            return tr("± Error");
        case Mechanism:
            return tr("Mechanism");
        case Attempts:
            return tr("Attempts");
        case Cost:
            return tr("Cost (%1)").arg(m_unit);
        case Spent:
            return tr("Spent (%1)").arg(m_unit);
        case ExPostSpent:
            return tr("Ex-post ε spent");
        case EpsilonSpent:
            return tr("ε spent");
        case Accounting:
            return tr("Accounting");
        case Reason:
            return tr("Reason / note");
        default:
            return {};
        }
    }
    if (role == Qt::TextAlignmentRole)
        return isNumericColumn(section) ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                        : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    return QAbstractTableModel::headerData(section, orientation, role);
}

QHash<int, QByteArray> LedgerModel::roleNames() const
{
    auto names = QAbstractTableModel::roleNames();
    names.insert(RawValueRole, QByteArrayLiteral("rawValue"));
    names.insert(RefusedRole, QByteArrayLiteral("refused"));
    names.insert(CostUnitRole, QByteArrayLiteral("costUnit"));
    names.insert(CostDeltaRole, QByteArrayLiteral("costDelta"));
    return names;
}

} // namespace pbx::ui
