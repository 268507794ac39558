// SPDX-License-Identifier: MIT
#include "ui/charts/odpcellchart.h"

#include "ui/util/numberformat.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>

namespace pbx::ui {

namespace {

const QColor kCell(0x9e, 0xc5, 0xe8);
const QColor kRealised(0xd6, 0x27, 0x28);
const QColor kWorst(0xff, 0x7f, 0x0e);

ChartFrame::Style cellFrame()
{
    ChartFrame::Style style;
    style.compact = false;
    style.messageOverlay = true;
    // Whole entries wrapping below the plot: QLegend elides them in a narrow dialog ("worst case
    // E* = 0.5 (reser…").
    style.wrappingLegend = true;
    style.minimumViewSize = QSize(360, 220);
    return style;
}

} // namespace

OdpCellChart::OdpCellChart(QWidget *parent) : ChartFrame(cellFrame(), parent) {}

double OdpCellChart::barValue(int index) const
{
    return index >= 0 && index < barCount() ? m_cells[static_cast<std::size_t>(index)].epsilon : 0.0;
}

std::optional<double> OdpCellChart::returned() const
{
    if (!m_realised)
        return std::nullopt;
    return m_worst - barValue(*m_realised);
}

void OdpCellChart::setCells(const QString &title, const std::vector<Cell> &cells,
                            std::optional<double> remaining, std::optional<int> realised)
{
    m_cells = cells;
    m_worst = 0.0;
    for (const Cell &c : cells)
        m_worst = std::max(m_worst, c.epsilon);
    m_realised = realised && *realised >= 0 && *realised < barCount() ? realised : std::nullopt;
    chart()->removeAllSeries();
    for (QAbstractAxis *axis : chart()->axes())
        chart()->removeAxis(axis);
    if (cells.empty() || barCount() > maxCells) {
        m_annotation.clear();
        chart()->setTitle(title);
        setLegendEntries({});
        setMessage(cells.empty() ? tr("No cells") : tr("%1 cells: too many to draw").arg(barCount()));
        return;
    }
    setMessage(QString());
    if (m_realised) {
        const Cell &r = m_cells[static_cast<std::size_t>(*m_realised)];
        m_annotation = tr("realised cell %1: E = %2; returned against the worst case E* − E = %3")
                           .arg(r.label, formatNumber(r.epsilon, 4), formatNumber(*returned(), 4));
    } else {
        m_annotation = tr("not run: the filter holds the worst case E* = %1").arg(formatNumber(m_worst, 4));
    }
    // The title breaks after its colon: whole in a narrow dialog, where QChart would elide it.
    chart()->setTitle(QStringLiteral("%1<br><small>%2</small>")
                          .arg(title.toHtmlEscaped().replace(QStringLiteral(": "), QStringLiteral(":<br>")),
                               m_annotation.toHtmlEscaped()));

    auto *set = new QBarSet(tr("E(cell)"));
    set->setColor(kCell);
    set->setBorderColor(kCell.darker(130));
    set->setSelectedColor(kRealised);
    QStringList labels;
    for (const Cell &c : cells) {
        set->append(c.epsilon);
        labels << c.label;
    }
    if (m_realised)
        set->setBarSelected(*m_realised, true);
    auto *bars = new QBarSeries;
    bars->append(set);
    bars->setBarWidth(0.7);
    chart()->addSeries(bars);
    auto *x = new QBarCategoryAxis;
    x->append(labels);
    auto *y = new QValueAxis;
    y->setTitleText(tr("ε"));
    chart()->addAxis(x, Qt::AlignBottom);
    chart()->addAxis(y, Qt::AlignLeft);
    bars->attachAxis(x);
    bars->attachAxis(y);
    // Horizontal lines across the whole category range (bars sit at 0 … n−1).
    const double left = -0.5;
    const double right = static_cast<double>(cells.size()) - 0.5;
    QStringList legend{legendEntry(kCell.darker(115), QStringLiteral("■"), set->label())};
    auto addLine = [&](const QString &name, double level, const QColor &colour, Qt::PenStyle style) {
        legend << legendEntry(colour, style == Qt::DotLine ? QStringLiteral("┈┈") : QStringLiteral("╍╍"),
                              name);
        auto *line = new QLineSeries;
        line->setName(name);
        QPen pen(colour);
        pen.setWidthF(2.0);
        pen.setStyle(style);
        line->setPen(pen);
        line->append(left, level);
        line->append(right, level);
        chart()->addSeries(line);
        line->attachAxis(x);
        line->attachAxis(y);
    };
    addLine(tr("worst case E* = %1 (reserved)").arg(formatNumber(m_worst, 4)), m_worst, kWorst, Qt::DashLine);
    if (m_realised) {
        // A marker on the realised bar: visible even when its cell costs 0 (a bar of height 0).
        auto *mark = new QScatterSeries;
        mark->setName(tr("realised cell"));
        mark->setColor(kRealised);
        mark->setBorderColor(kRealised.darker(130));
        mark->setMarkerSize(12.0);
        legend << legendEntry(kRealised, QStringLiteral("●"), mark->name());
        mark->append(*m_realised, barValue(*m_realised));
        chart()->addSeries(mark);
        mark->attachAxis(x);
        mark->attachAxis(y);
    }
    double top = m_worst;
    if (remaining) {
        addLine(tr("ε left before the request = %1").arg(formatNumber(*remaining, 4)), *remaining, Qt::black,
                Qt::DotLine);
        top = std::max(top, *remaining);
    }
    y->setRange(0.0, top > 0.0 ? top * 1.1 : 1.0);
    y->applyNiceNumbers();
    setLegendEntries(legend);
}

} // namespace pbx::ui
