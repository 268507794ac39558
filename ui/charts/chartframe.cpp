// SPDX-License-Identifier: MIT
#include "ui/charts/chartframe.h"

#include "ui/charts/chartexport.h"
#include "ui/charts/charthover.h"
#include "ui/charts/errorbarchartview.h"
#include "ui/charts/presentation.h"
#include "ui/util/palette.h"

#include <QAbstractAxis>
#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QGraphicsScene>
#include <QGridLayout>
#include <QLabel>
#include <QLegend>
#include <QTextDocument>
#include <QTimer>
#include <QVBoxLayout>

namespace pbx::ui {

ChartFrame::ChartFrame(const Style &style, QWidget *parent) : QWidget(parent)
{
    m_chart = new QChart;
    if (style.compact) {
        m_chart->setAnimationOptions(QChart::NoAnimation);
        m_chart->setBackgroundRoundness(0);
        m_chart->setMargins(style.margins);
    }
    if (style.errorBars) {
        m_errorBars = new ErrorBarChartView(m_chart, this);
        m_view = m_errorBars;
    } else {
        m_view = new QChartView(m_chart, this);
    }
    m_view->setRenderHint(QPainter::Antialiasing);
    ChartHover::install(m_view); // hover a point to read its values (charthover.h)
    if (style.minimumViewSize.isValid())
        m_view->setMinimumSize(style.minimumViewSize);

    // The view and, centred over it, the message share one grid cell.
    auto *stack = new QGridLayout;
    stack->setContentsMargins(0, 0, 0, 0);
    stack->addWidget(m_view, 0, 0);
    if (style.messageOverlay) {
        m_message = new QLabel(this);
        m_message->setWordWrap(true);
        m_message->setAlignment(Qt::AlignCenter);
        m_message->setMargin(10);
        m_message->setMinimumWidth(240);
        m_message->setMaximumWidth(340);
        m_message->setStyleSheet(QStringLiteral("QLabel { background: rgba(255, 255, 255, 225); color: %1;"
                                                " border: 1px solid #ccc; border-radius: 4px; }")
                                     .arg(palette::chartMarker.name()));
        m_message->hide();
        stack->addWidget(m_message, 0, 0, Qt::AlignCenter);
    }
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(stack, 1);
    if (style.wrappingLegend) {
        // The series keep their names (accessibility, tooltips); only QLegend's drawing is off.
        m_chart->legend()->setVisible(false);
        m_legend = new QLabel(this);
        m_legend->setWordWrap(true);
        m_legend->setTextFormat(Qt::RichText);
        m_legend->setContentsMargins(6, style.legendGap, 6, 2);
        layout->setSpacing(0);
        layout->addWidget(m_legend);
    }

    m_timer = new QTimer(this);
    m_timer->setSingleShot(true);
    m_timer->setInterval(coalesceMilliseconds);
    connect(m_timer, &QTimer::timeout, this, [this] { rebuild(); });

    // Presentation mode's lines follow the switch and every later change of the chart (a rebuild,
    // a curve added): the scene reports changes once control returns to the event loop. Its fonts
    // follow the widget's font (changeEvent).
    m_fontSize = fontSize(font());
    connect(&Presentation::instance(), &Presentation::changed, this,
            [this] { applyPresentationStyle(m_chart); });
    connect(m_view->scene(), &QGraphicsScene::changed, this, [this] { applyPresentationStyle(m_chart); });
    // Right-click ▸ Copy image / Save as PNG, SVG, PDF; the heading is the outer title only when
    // the chart has none of its own.
    ChartExporter::install(this, [this] {
        const QString own = m_chart->title();
        return own.isEmpty() ? ChartExporter::Title{ChartExporter::outerTitle(this), false}
                             : ChartExporter::Title{own, true};
    });
}

ChartFrame::~ChartFrame() = default;

void ChartFrame::flush()
{
    if (m_timer->isActive()) {
        m_timer->stop();
        rebuild();
    }
}

QString ChartFrame::legendText() const
{
    if (!m_legend)
        return {};
    QTextDocument document;
    document.setHtml(m_legend->text());
    return document.toPlainText().replace(QChar(0x2011), u'-');
}

QString ChartFrame::message() const
{
    return !m_message || m_message->isHidden() ? QString() : m_message->text();
}

double ChartFrame::fontSize(const QFont &font)
{
    return font.pointSizeF() > 0 ? font.pointSizeF() : font.pixelSize();
}

void ChartFrame::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange) {
        const double size = fontSize(font());
        if (m_fontSize > 0 && size > 0)
            scaleChartFonts(m_chart, size / m_fontSize);
        m_fontSize = size;
    }
}

void ChartFrame::scheduleUpdate()
{
    if (!m_timer->isActive())
        m_timer->start();
}

void ChartFrame::setBoldTitle(const QString &title)
{
    QFont titleFont = font();
    titleFont.setBold(true);
    m_chart->setTitleFont(titleFont);
    m_chart->setTitle(title);
}

void ChartFrame::setMessage(const QString &text)
{
    if (!m_message)
        return;
    m_message->setText(text);
    m_message->setVisible(!text.isEmpty());
}

void ChartFrame::setLegendEntries(const QStringList &html)
{
    if (m_legend)
        m_legend->setText(html.join(QStringLiteral(" &nbsp; ")));
}

QString ChartFrame::legendEntry(const QColor &colour, const QString &glyph, const QString &text)
{
    return QStringLiteral("<span style='color:%1; font-weight:bold'>%2</span>&nbsp;%3")
        .arg(colour.name(), glyph,
             text.toHtmlEscaped().replace(u' ', QStringLiteral("&nbsp;")).replace(u'-', QChar(0x2011)));
}

void ChartFrame::styleAxis(QAbstractAxis *axis, bool smallLabels) const
{
    const double pointSize = font().pointSizeF();
    QFont titleFont = axis->titleFont();
    titleFont.setPointSizeF(pointSize * 0.9);
    titleFont.setBold(false);
    axis->setTitleFont(titleFont);
    if (smallLabels) {
        QFont labels = axis->labelsFont();
        labels.setPointSizeF(pointSize * 0.85);
        axis->setLabelsFont(labels);
    }
}

} // namespace pbx::ui
