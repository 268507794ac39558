// SPDX-License-Identifier: MIT
#include "ui/charts/ptrflowdiagram.h"

#include "ui/charts/chartexport.h"
#include "ui/charts/presentation.h"

#include <QPainter>
#include <QPainterPath>

#include <cmath>

namespace pbx::ui {

namespace {

const QColor kPath(0xff, 0x7f, 0x0e);
const QColor kPathFill(0xfd, 0xdb, 0xc7);
const QColor kBox(0xf4, 0xf6, 0xf8);
const QColor kBorder(0x9a, 0xa0, 0xa6);

void drawArrow(QPainter &p, QPointF from, QPointF to, bool onPath, const QString &label)
{
    p.setPen(QPen(onPath ? kPath : kBorder, (onPath ? 3.0 : 1.5) * Presentation::instance().lineScale()));
    p.drawLine(from, to);
    const double angle = std::atan2(to.y() - from.y(), to.x() - from.x());
    const double size = 8.0;
    QPainterPath head;
    head.moveTo(to);
    head.lineTo(to - QPointF(size * std::cos(angle - 0.45), size * std::sin(angle - 0.45)));
    head.lineTo(to - QPointF(size * std::cos(angle + 0.45), size * std::sin(angle + 0.45)));
    head.closeSubpath();
    p.fillPath(head, onPath ? kPath : kBorder);
    p.setPen(Qt::black);
    const QPointF mid = (from + to) / 2.0;
    p.drawText(QRectF(mid.x() + 4, mid.y() - 18, 60, 16), Qt::AlignLeft | Qt::AlignVCenter, label);
}

void drawBox(QPainter &p, const QRectF &r, const QString &title, const QStringList &lines, bool onPath)
{
    p.setPen(QPen(onPath ? kPath : kBorder, (onPath ? 3.0 : 1.0) * Presentation::instance().lineScale()));
    p.setBrush(onPath ? kPathFill : kBox);
    p.drawRoundedRect(r, 6, 6);
    p.setPen(Qt::black);
    QFont bold = p.font();
    bold.setBold(true);
    const QFont normal = p.font();
    p.setFont(bold);
    const QFontMetricsF fm(bold);
    p.drawText(r.adjusted(6, 4, -6, 0), Qt::AlignLeft | Qt::AlignTop, title);
    p.setFont(normal);
    double y = r.top() + 6 + fm.height();
    for (const QString &line : lines) {
        p.drawText(QRectF(r.left() + 6, y, r.width() - 12, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
                   line);
        y += QFontMetricsF(normal).height();
    }
}

} // namespace

PtrFlowDiagram::PtrFlowDiagram(QWidget *parent) : QWidget(parent)
{
    setAttribute(Qt::WA_OpaquePaintEvent, false);
    ChartExporter::install(this);
    connect(&Presentation::instance(), &Presentation::changed, this, qOverload<>(&QWidget::update));
}

void PtrFlowDiagram::setCases(const QStringList costs[3], int realised)
{
    for (int k = 0; k < 3; ++k)
        m_costs[k] = costs[k];
    m_realised = realised >= 0 && realised <= 2 ? realised : -1;
    update();
}

QStringList PtrFlowDiagram::caseLines(int k) const
{
    return k >= 0 && k <= 2 ? m_costs[k] : QStringList();
}

void PtrFlowDiagram::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), palette().base());
    const double w = width();
    const double h = height();
    QFont bold = font();
    bold.setBold(true);
    const QFontMetricsF boldMetrics(bold);
    const QString test1Text = tr("M₁: γ₁ + noise ≥ t?");
    const QString test2Text = tr("M₂: γ₂ + noise ≥ t?");
    const double lineHeight = QFontMetricsF(font()).height();
    const double caseHeight = boldMetrics.height() + lineHeight * static_cast<double>(m_costs[0].size()) + 14;
    const double testHeight = boldMetrics.height() + 12;
    const double leftWidth = boldMetrics.horizontalAdvance(test1Text) + 16;
    const double rightWidth = std::max(60.0, w - leftWidth - 70);
    const double gap = std::max(6.0, (h - 8 - 3 * caseHeight) / 2.0);
    const QRectF test1(4, 4 + (caseHeight - testHeight) / 2, leftWidth, testHeight);
    const QRectF test2(4, test1.top() + caseHeight + gap, leftWidth, testHeight);
    const QRectF case1(w - rightWidth - 4, 4, rightWidth, caseHeight);
    const QRectF case2(w - rightWidth - 4, 4 + caseHeight + gap, rightWidth, caseHeight);
    const QRectF case3(w - rightWidth - 4, 4 + 2 * (caseHeight + gap), rightWidth, caseHeight);
    const bool any = m_realised >= 0;
    drawBox(p, test1, test1Text, {}, any);
    drawBox(p, test2, test2Text, {}, m_realised >= 1);
    drawArrow(p, {test1.right(), test1.center().y()}, {case1.left(), case1.center().y()}, m_realised == 0,
              tr("pass"));
    drawArrow(p, {test1.center().x(), test1.bottom()}, {test2.center().x(), test2.top()}, m_realised >= 1,
              tr("⊥"));
    drawArrow(p, {test2.right(), test2.center().y()}, {case2.left(), case2.center().y()}, m_realised == 1,
              tr("pass"));
    drawArrow(p, {test2.center().x(), test2.bottom()}, {case3.left(), case3.center().y()}, m_realised == 2,
              tr("⊥"));
    drawBox(p, case1, tr("case 1: M₁ released"), m_costs[0], m_realised == 0);
    drawBox(p, case2, tr("case 2: M₂ released"), m_costs[1], m_realised == 1);
    drawBox(p, case3, tr("case 3: both ⊥"), m_costs[2], m_realised == 2);
}

} // namespace pbx::ui
