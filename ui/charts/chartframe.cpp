// SPDX-License-Identifier: MIT
#include "ui/charts/chartframe.h"

#include "ui/charts/axisticks.h"
#include "ui/charts/chartexport.h"
#include "ui/charts/charthover.h"
#include "ui/charts/errorbarchartview.h"
#include "ui/charts/presentation.h"
#include "ui/util/palette.h"

#include <QAbstractAxis>
#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QGraphicsColorizeEffect>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QGridLayout>
#include <QHash>
#include <QLabel>
#include <QLegend>
#include <QScrollArea>
#include <QTextDocument>
#include <QTimer>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <limits>
#include <optional>

namespace pbx::ui {
namespace {

/// What fitAxes remembers about a value axis from one fit to the next, kept on the axis as one
/// dynamic property (kAxisFitProperty) so that it lives and dies with the axis.
struct AxisFitMemo
{
    /// The format and ticks the last fit left on the axis (unset before the first fit): while the
    /// axis still holds them, `own` is the chart's choice, not what the axis shows.
    std::optional<TickFit> fitted;
    TickFit own;   ///< the chart's own format and ticks
    QPointF range; ///< the range of the last fit (Qt 6.4 measures labels again on a new range only)
    /// Room for a vertical axis' labels read back from elided labels, with its title shown or
    /// hidden, measured at the chart width `roomChartWidth`.
    double roomChartWidth = 0.0;
    std::optional<double> roomTitled;
    std::optional<double> roomUntitled;
    bool titleHidden = false; ///< the fit hid the axis' title to make room for its labels
};

const char *const kAxisFitProperty = "pbxAxisFit";

/// The wrapping legend: its height is set by ChartFrame::fitLegendHeight (its minimum height),
/// not asked of the layouts as a height for width. A height-for-width child made the scroll area
/// that holds the frame (a dock's) size it at the chart's preferred height rather than its
/// minimum: the privacy-loss path's dock scrolled in presentation mode at every screen size
/// (1024×768: 441 px of content in a 382-px viewport, 322 needed; the legend cut at the bottom).
class LegendLabel final : public QLabel
{
public:
    using QLabel::QLabel;
    bool hasHeightForWidth() const override { return false; }
};

} // namespace
} // namespace pbx::ui

Q_DECLARE_METATYPE(pbx::ui::AxisFitMemo)

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

    // The view; the message (setMessage) lies over its plot area, placed by placeMessage.
    m_stack = new QGridLayout;
    m_stack->setContentsMargins(0, 0, 0, 0);
    m_stack->addWidget(m_view, 0, 0);
    if (style.messageOverlay)
        setMessage(QString());
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(m_stack, 1);
    if (style.wrappingLegend) {
        // The series keep their names (accessibility, tooltips); only QLegend's drawing is off.
        m_chart->legend()->setVisible(false);
        m_legend = new LegendLabel(this);
        m_legend->setWordWrap(true);
        m_legend->setTextFormat(Qt::RichText);
        m_legend->setContentsMargins(6, style.legendGap, 6, 2);
        m_legend->installEventFilter(this);
        layout->setSpacing(0);
        layout->addWidget(m_legend);
    }

    m_timer = new QTimer(this);
    m_timer->setSingleShot(true);
    m_timer->setInterval(coalesceMilliseconds);
    connect(m_timer, &QTimer::timeout, this, [this] { rebuild(); });
    m_greyTimer = new QTimer(this);
    m_greyTimer->setSingleShot(true);
    m_greyTimer->setInterval(0);
    connect(m_greyTimer, &QTimer::timeout, this, &ChartFrame::applyGrey);

    // Ticks are fitted once the layout has settled (a zero timer after the change).
    m_fitTimer = new QTimer(this);
    m_fitTimer->setSingleShot(true);
    m_fitTimer->setInterval(0);
    connect(m_fitTimer, &QTimer::timeout, this, &ChartFrame::fitAxes);
    connect(m_chart, &QChart::plotAreaChanged, this, &ChartFrame::scheduleAxisFit);

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
    fitAxes();
}

void ChartFrame::setComputing(bool computing)
{
    if (computing == m_computing)
        return;
    m_computing = computing;
    m_greyTimer->stop();
    if (computing && m_greyTimer->interval() > 0)
        m_greyTimer->start();
    else if (computing)
        applyGrey();
    else
        m_view->setGraphicsEffect(nullptr);
    if (m_legend)
        m_legend->setEnabled(!computing);
}

void ChartFrame::setCoalesceDelay(int milliseconds)
{
    m_timer->setInterval(std::max(0, milliseconds));
}

void ChartFrame::setGreyDelay(int milliseconds)
{
    m_greyTimer->setInterval(std::max(0, milliseconds));
}

void ChartFrame::applyGrey()
{
    if (!m_computing || m_view->graphicsEffect())
        return;
    // Grey, not hidden: the last finished result stays readable but cannot pass for the new one.
    auto *grey = new QGraphicsColorizeEffect(m_view);
    grey->setColor(palette::neutralGrey);
    grey->setStrength(1.0);
    m_view->setGraphicsEffect(grey);
}

void ChartFrame::scheduleAxisFit()
{
    if (!m_fitTimer->isActive())
        m_fitTimer->start();
}

void ChartFrame::fitAxes()
{
    m_fitTimer->stop();
    const QRectF plot = m_chart->plotArea();
    // Qt Charts squeezes the vertical axes into 0.4 of the chart's width together and elides
    // their labels to what is left ("0.0…"; CartesianChartLayout, VerticalAxis::updateGeometry).
    // That room is read back from what it drew: an elided label on an axis' side of the plot is
    // as wide as the room there. It is remembered for this chart width, since fitted labels no
    // longer show it.
    QHash<int, double> elidedRoom; // Qt::AlignLeft / AlignRight → room in pixels of advance
    for (QGraphicsItem *item : m_view->scene()->items()) {
        auto *text = dynamic_cast<QGraphicsTextItem *>(item);
        if (!text || !text->isVisible() || text->rotation() != 0.0)
            continue; // rotated: an axis title
        const QString plain = text->toPlainText();
        if (!plain.endsWith(QStringLiteral("...")))
            continue;
        const QPointF centre = text->sceneBoundingRect().center();
        const int side = centre.x() < plot.left()    ? Qt::AlignLeft
                         : centre.x() > plot.right() ? Qt::AlignRight
                                                     : 0;
        if (side == 0)
            continue;
        const double advance = QFontMetricsF(text->font()).horizontalAdvance(plain);
        elidedRoom[side] = elidedRoom.contains(side) ? std::min(elidedRoom[side], advance) : advance;
    }
    const double chartWidth = m_chart->size().width();
    bool changed = false;

    for (QAbstractAxis *abstract : m_chart->axes()) {
        auto *axis = qobject_cast<QValueAxis *>(abstract);
        if (!axis)
            continue;
        connect(axis, &QValueAxis::rangeChanged, this, &ChartFrame::scheduleAxisFit, Qt::UniqueConnection);
        connect(axis, &QValueAxis::tickCountChanged, this, &ChartFrame::scheduleAxisFit,
                Qt::UniqueConnection);
        connect(axis, &QValueAxis::tickIntervalChanged, this, &ChartFrame::scheduleAxisFit,
                Qt::UniqueConnection);
        if (!axis->isVisible() || !axis->labelsVisible() || plot.isEmpty())
            continue;
        const bool dynamic = axis->tickType() == QValueAxis::TicksDynamic;
        AxisFitMemo memo = axis->property(kAxisFitProperty).value<AxisFitMemo>();
        // The chart's own format and ticks, unless what the axis holds is what the fit chose.
        if (!memo.fitted || memo.fitted->format != axis->labelFormat())
            memo.own.format = axis->labelFormat();
        if (!memo.fitted || memo.fitted->tickCount != axis->tickCount())
            memo.own.tickCount = axis->tickCount();
        if (!memo.fitted || memo.fitted->interval != axis->tickInterval())
            memo.own.interval = axis->tickInterval();
        const TickFit wanted = memo.own;
        AxisRoom room;
        room.orientation = axis->orientation();
        room.length = room.orientation == Qt::Horizontal ? plot.width() : plot.height();
        room.metrics = QFontMetricsF(axis->labelsFont());
        room.labelWidth = std::numeric_limits<double>::infinity();
        // The title's text box and its paddings (VerticalAxis::updateGeometry), freed by hiding it.
        const bool titled = !axis->titleText().isEmpty() && (axis->isTitleVisible() || memo.titleHidden);
        const double titleBox = titled ? QFontMetricsF(axis->titleFont()).height() + 14.0 : 0.0;
        if (room.orientation == Qt::Vertical) {
            const int side = static_cast<int>(axis->alignment() & (Qt::AlignLeft | Qt::AlignRight));
            // Measured with the title shown or hidden, as it is now.
            std::optional<double> &measured = axis->isTitleVisible() ? memo.roomTitled : memo.roomUntitled;
            if (memo.roomChartWidth != chartWidth) {
                memo.roomTitled.reset();
                memo.roomUntitled.reset();
                memo.roomChartWidth = chartWidth;
            }
            if (elidedRoom.contains(side))
                measured = elidedRoom[side];
            if (titled && memo.roomTitled)
                room.labelWidth = *memo.roomTitled;
            else if (!titled && memo.roomUntitled)
                room.labelWidth = *memo.roomUntitled;
        }
        TickFit fit = fitTicks(axis, wanted, room);
        // A vertical axis whose labels fit only without its title drops the title (the legend
        // names the curves) and gets it back when there is room again.
        bool hideTitle = false;
        if (!fit.fits && titled && room.orientation == Qt::Vertical) {
            room.labelWidth = memo.roomUntitled ? *memo.roomUntitled : room.labelWidth + titleBox;
            const TickFit untitled = fitTicks(axis, wanted, room);
            if (untitled.fits) {
                fit = untitled;
                hideTitle = true;
            }
        }
        if (titled) {
            memo.titleHidden = hideTitle;
            if (axis->isTitleVisible() == hideTitle) {
                axis->setTitleVisible(!hideTitle);
                changed = true;
            }
        }

        // Qt 6.4 measures an axis' labels again only on a format, count or type change (see
        // refreshLabelWidth): a new range gets its format re-set.
        const QPointF range(axis->min(), axis->max());
        const bool newRange = memo.range != range;
        memo.range = range;
        changed = changed || fit.format != axis->labelFormat()
                  || (dynamic ? fit.interval > 0.0 && fit.interval != axis->tickInterval()
                              : fit.tickCount >= 2 && fit.tickCount != axis->tickCount());
        if (dynamic && fit.interval > 0.0 && fit.interval != axis->tickInterval()) {
            axis->setTickInterval(fit.interval);
            // Qt 6.4 places dynamic ticks again on a range or type change only.
            axis->setTickType(QValueAxis::TicksFixed);
            axis->setTickType(QValueAxis::TicksDynamic);
        } else if (!dynamic && fit.tickCount >= 2 && fit.tickCount != axis->tickCount()) {
            axis->setTickCount(fit.tickCount);
        }
        if (fit.format != axis->labelFormat())
            axis->setLabelFormat(fit.format);
        else if (newRange)
            refreshLabelWidth(axis);
        TickFit &left = memo.fitted.emplace();
        left.format = axis->labelFormat();
        left.tickCount = axis->tickCount();
        left.interval = axis->tickInterval();
        axis->setProperty(kAxisFitProperty, QVariant::fromValue(memo));
    }
    // Qt Charts repaints only the scene regions it reports as changed, and after a fit that moved
    // the plot those were not all of them: the chart's first picture ("30000.0" cut to "20000.",
    // ticks every 50 beside grid lines every 100) stayed on screen until the window was resized,
    // while the scene held the fitted labels. The whole view is painted again instead.
    if (changed)
        m_view->viewport()->update();
    // A change is checked once the layout has drawn it (Qt may still elide what was predicted to
    // fit); a few rounds at most.
    if (changed && m_fitRounds < 4) {
        ++m_fitRounds;
        scheduleAxisFit();
    } else {
        m_fitRounds = 0;
    }
}

QString ChartFrame::legendText() const
{
    if (!m_legend)
        return {};
    QTextDocument document;
    document.setHtml(m_legend->text());
    return document.toPlainText().replace(QChar(0x2011), u'-').remove(QChar(0x2060));
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
    if (!m_message) {
        m_message = new QLabel(this);
        m_message->setObjectName(QStringLiteral("chartMessage"));
        m_message->setWordWrap(true);
        m_message->setAlignment(Qt::AlignCenter);
        m_message->setTextFormat(Qt::PlainText);
        m_message->setMargin(10);
        m_message->setStyleSheet(QStringLiteral("QLabel { background: rgba(255, 255, 255, 225); color: %1;"
                                                " border: 1px solid #ccc; border-radius: 4px; }")
                                     .arg(palette::chartMarker.name()));
        setRelativeFont(m_message, 1.0); // grows in presentation mode despite its style sheet
        m_message->hide();
        // Placed by hand over the plot area (placeMessage), not centred in the view's cell: a
        // chart that keeps its axes (the privacy-loss path before the first request) had the
        // message's box drawn over its right axis' tick labels.
        m_message->installEventFilter(this);
        m_view->installEventFilter(this);
        connect(m_chart, &QChart::plotAreaChanged, this, &ChartFrame::placeMessage);
    }
    m_message->setText(text);
    m_message->setVisible(!text.isEmpty());
    placeMessage();
}

void ChartFrame::placeMessage()
{
    if (!m_message || m_message->isHidden() || m_placingMessage)
        return;
    m_placingMessage = true; // the font set below comes back through eventFilter
    const int inset = 4;
    // What of the frame is on screen: in a dock that scrolls (1024×768 in presentation mode, the
    // lessons open) its lower part; a box centred in the whole plot was cut at the bottom there.
    const QRect shown = shownPart();
    const QRect viewShown = shown.isEmpty() ? m_view->geometry() : m_view->geometry().intersected(shown);
    const QRect view = viewShown.adjusted(inset, inset, -inset, -inset);
    // The plot area in the frame's coordinates; before the chart's first layout (or when it is
    // too small to hold a readable box) the whole view.
    QRect plot = plotAreaGeometry().intersected(viewShown);
    // A chart with no axis shown has no plot to speak of (Qt's plot area of an empty chart is
    // stale: the relative-error lab's box sat in the view's lower right corner at 1024×768).
    const QList<QAbstractAxis *> axes = m_chart->axes();
    const bool axesShown
        = std::any_of(axes.begin(), axes.end(), [](const QAbstractAxis *axis) { return axis->isVisible(); });
    if (!axesShown || plot.width() < 120 + 2 * inset
        || plot.height() < m_message->fontMetrics().lineSpacing() * 3)
        plot = viewShown;
    plot.adjust(inset, inset, -inset, -inset);
    // 240–340 px at the normal font, as much wider as the font in presentation mode; in a plot
    // too low for it, as wide as the plot, then in a smaller font (never below the normal size),
    // then over the whole view. At 1024×768 in presentation mode with the lessons open the plot
    // was 105 px high and the box, 127 px, was cut at the bottom.
    const double scale = Presentation::instance().fontScale();
    const auto boxIn = [&](const QRect &room, double factor) {
        const QFont font = scaledApplicationFont(factor);
        if (m_message->font() != font)
            m_message->setFont(font);
        const int narrowest = static_cast<int>(240 * scale), widest = static_cast<int>(340 * scale);
        int width = std::clamp(m_message->sizeHint().width(), std::min(narrowest, room.width()),
                               std::min(widest, room.width()));
        if (m_message->heightForWidth(width) > room.height())
            width = room.width();
        QRect box(0, 0, width, m_message->heightForWidth(width));
        box.moveCenter(room.center());
        return box;
    };
    QRect box;
    for (const QRect &room : {plot, view}) {
        for (double factor = 1.0; factor >= 1.0 / scale - 1e-9; factor -= 0.1) {
            box = boxIn(room, factor);
            if (box.height() <= room.height())
                break;
        }
        if (box.height() <= room.height())
            break;
    }
    box = box.intersected(view); // no room at all: cut rather than over the frame's neighbours
    m_message->setGeometry(box);
    m_message->raise();
    m_placingMessage = false;
}

QRect ChartFrame::shownPart()
{
    // The nearest scroll area: a scroll moves its content, a new size its viewport; neither moves
    // or resizes this frame, so both are watched (eventFilter).
    if (!m_messageScroll) {
        for (QWidget *p = parentWidget(); p && !m_messageScroll; p = p->parentWidget())
            m_messageScroll = qobject_cast<QAbstractScrollArea *>(p);
        if (m_messageScroll) {
            m_messageScroll->viewport()->installEventFilter(this);
            if (auto *area = qobject_cast<QScrollArea *>(m_messageScroll.data()); area && area->widget())
                area->widget()->installEventFilter(this);
        }
    }
    QRect shown = rect();
    for (const QWidget *p = parentWidget(); p; p = p->parentWidget()) {
        shown &= QRect(mapFrom(p, QPoint(0, 0)), p->size());
        if (p->isWindow())
            break;
    }
    return shown;
}

QRect ChartFrame::plotAreaGeometry() const
{
    const QRectF plotInScene = m_chart->mapRectToScene(m_chart->plotArea());
    const QRect inViewport = m_view->mapFromScene(plotInScene).boundingRect();
    return inViewport.translated(m_view->viewport()->mapTo(this, QPoint(0, 0)));
}

void ChartFrame::showEmpty(const QString &whatToDo)
{
    setAxesVisible(false);
    setLegendEntries({});
    setMessage(whatToDo);
}

void ChartFrame::setAxesVisible(bool visible)
{
    for (QAbstractAxis *axis : m_chart->axes())
        axis->setVisible(visible);
}

void ChartFrame::setLegendEntries(const QStringList &html)
{
    if (!m_legend)
        return;
    m_legend->setText(html.join(QStringLiteral(" &nbsp; ")));
    fitLegendHeight();
}

int ChartFrame::legendHeightFor(const QStringList &html, int width) const
{
    if (!m_legend || html.isEmpty())
        return 0;
    QLabel probe; // as the legend lays it out: its font, margins and wrapping
    probe.setFont(m_legend->font());
    probe.setWordWrap(true);
    probe.setTextFormat(Qt::RichText);
    probe.setContentsMargins(m_legend->contentsMargins());
    probe.setText(html.join(QStringLiteral(" &nbsp; ")));
    return probe.heightForWidth(width);
}

bool ChartFrame::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_legend
        && (event->type() == QEvent::Resize || event->type() == QEvent::FontChange
            || event->type() == QEvent::Show))
        fitLegendHeight();
    const auto *area = m_messageScroll ? qobject_cast<QScrollArea *>(m_messageScroll.data()) : nullptr;
    const bool scrolled
        = m_messageScroll && (watched == m_messageScroll->viewport() || (area && watched == area->widget()));
    if ((watched == m_view && (event->type() == QEvent::Resize || event->type() == QEvent::Move))
        || (watched == m_message && event->type() == QEvent::FontChange)
        || (scrolled && (event->type() == QEvent::Resize || event->type() == QEvent::Move)))
        placeMessage();
    return QWidget::eventFilter(watched, event);
}

void ChartFrame::fitLegendHeight()
{
    // A word-wrapping label's minimum height is one line whatever its width; given less than its
    // text needs, a squeezed layout placed it over the plot. Its width is set by the layout, so
    // this only moves the frame's minimum height (and the layouts above it).
    // Not yet laid out (hidden, e.g. on another tab): its width is a placeholder, and the height
    // of its text at that width would be a minimum no layout asked for.
    if (!m_legend->isVisible())
        return;
    // QLabel's height for a width is never below its minimum height: measured without it, or a
    // legend that got shorter (the path's compact one) kept the old legend's height.
    const int before = m_legend->minimumHeight();
    m_legend->setMinimumHeight(0);
    const int needed = m_legend->text().isEmpty() ? 0 : m_legend->heightForWidth(m_legend->width());
    m_legend->setMinimumHeight(before);
    if (needed != m_legend->minimumHeight())
        m_legend->setMinimumHeight(needed);
}

QString ChartFrame::legendEntry(const QColor &colour, const QString &glyph, const QString &text)
{
    return QStringLiteral("<span style='color:%1; font-weight:bold'>%2</span>&nbsp;%3")
        .arg(colour.name(), glyph,
             text.toHtmlEscaped()
                 .replace(u' ', QStringLiteral("&nbsp;"))
                 .replace(QStringLiteral("&nbsp;("), QStringLiteral(" (")) // a long entry's breaks
                 .replace(QStringLiteral(",&nbsp;"), QStringLiteral(", "))
                 .replace(QStringLiteral("&nbsp;·&nbsp;"), QStringLiteral(" · "))
                 .replace(u'-', QChar(0x2011))
                 .replace(QChar(0x2013), QStringLiteral("\u2060\u2013\u2060"))); // "5–95 %" not split
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
