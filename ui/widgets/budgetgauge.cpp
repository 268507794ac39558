// SPDX-License-Identifier: MIT
#include "ui/widgets/budgetgauge.h"

#include "ui/charts/chartexport.h"
#include "ui/util/boundformat.h"
#include "ui/util/numberformat.h"
#include "ui/util/palette.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace pbx::ui {

namespace {

constexpr double kStartDegrees = 210.0; // lower left, counter-clockwise from 3 o'clock
constexpr double kSweepDegrees = 240.0; // drawn clockwise
constexpr double kMargin = 10.0;
constexpr int kReadoutLines = 3;
/// The smallest arc radius (pixels) the minimum size allows for: the percentage inside it still
/// reads at a projector's distance. The arc shrinks further (to 30 px) only in a smaller dock.
constexpr double kReadableRadius = 40.0;
/// Below this arc radius (pixels) the percentage and its caption go beside the arc, when the
/// gauge is wide enough for kHeadlineWidth more (after a kHeadlineGap).
constexpr double kBesideRadius = 75.0;
constexpr double kHeadlineWidth = 150.0;
constexpr double kHeadlineGap = 14.0;

const QColor kTrack(0xe3, 0xe6, 0xea);

double clampedFraction(double spent, double budget)
{
    if (!(budget > 0.0) || !std::isfinite(spent))
        return 0.0;
    return std::clamp(spent / budget, 0.0, 1.0);
}

} // namespace

BudgetGauge::BudgetGauge(QWidget *parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    setAccessibleName(tr("Privacy budget gauge"));
    updateDescription();
    // Right-click ▸ Copy image / Save as PNG, SVG, PDF, headed by the dock's title.
    ChartExporter::install(this);
}

void BudgetGauge::setBudget(double nativeBudget, const QString &unitSymbol, double epsilonBudget,
                            double delta)
{
    m_nativeBudget = nativeBudget;
    m_unit = unitSymbol;
    m_epsilonBudget = epsilonBudget;
    m_delta = delta;
    updateDescription();
    update();
}

void BudgetGauge::setSpent(double nativeSpent, double epsilonSpent)
{
    m_nativeSpent = nativeSpent;
    m_epsilonSpent = epsilonSpent;
    updateDescription();
    update();
}

void BudgetGauge::setSecondSystem(const QString &firstName, const QString &secondName, double secondBudget,
                                  const QString &secondUnit)
{
    m_firstName = firstName;
    m_secondName = secondName;
    m_secondBudget = secondBudget;
    m_secondUnit = secondUnit;
    updateDescription();
    updateGeometry(); // two arcs need another minimum height
    update();
}

void BudgetGauge::setSecondSpent(double secondSpent)
{
    m_secondSpent = secondSpent;
    updateDescription();
    update();
}

void BudgetGauge::setNote(const QString &note)
{
    m_note = note;
    update();
}

void BudgetGauge::setPreplanned(double epsilon)
{
    m_preplanned = epsilon;
    updateDescription();
    update();
}

void BudgetGauge::clearSecondSystem()
{
    m_firstName.clear();
    m_secondName.clear();
    m_secondUnit.clear();
    m_secondBudget = 0.0;
    m_secondSpent = 0.0;
    updateDescription();
    updateGeometry();
    update();
}

double BudgetGauge::remaining() const
{
    return std::max(0.0, m_nativeBudget - m_nativeSpent);
}

double BudgetGauge::fraction(Ring ring) const
{
    switch (ring) {
    case Ring::Native:
        if (isOdometer()) // no end of scale: ε/(1 + ε), half the arc at ε = 1
            return std::isfinite(m_epsilonSpent) && m_epsilonSpent > 0.0
                       ? m_epsilonSpent / (1.0 + m_epsilonSpent)
                       : 0.0;
        return clampedFraction(m_nativeSpent, m_nativeBudget);
    case Ring::Epsilon:
        return clampedFraction(m_epsilonSpent, m_epsilonBudget);
    case Ring::Second:
        return clampedFraction(m_secondSpent, m_secondBudget);
    }
    return 0.0;
}

QColor BudgetGauge::colourForFraction(double fraction)
{
    if (fraction >= criticalFraction)
        return QColor(0xd0, 0x3f, 0x38); // red
    if (fraction >= warningFraction)
        return QColor(0xe0, 0x9a, 0x16); // amber
    return QColor(0x2e, 0x9a, 0x5e);     // green
}

QString BudgetGauge::readout() const
{
    if (isOdometer())
        return tr("odometer: ε ≤ %1 at δ = %2 so far, valid whenever you stop (no budget); a ledger planned in "
                  "advance would have cost ε ≈ %3; %4 spent %5")
            .arg(formatBound(m_epsilonSpent), formatNumber(m_delta, 3), formatBound(m_preplanned), m_unit,
                 formatBound(m_nativeSpent));
    if (hasSecondSystem())
        return tr("%1 %2 spent %3 of %4 (%5); %6 %7 spent %8 of %9 (%10); gauge: spent so far ≈ ε %11 of %12 "
                  "at δ = %13 (the guarantee is the filter's budget)")
            .arg(m_firstName, m_unit, formatBound(m_nativeSpent), formatNumber(m_nativeBudget),
                 formatPercent(fraction(Ring::Native)), m_secondName, m_secondUnit,
                 formatBound(m_secondSpent), formatNumber(m_secondBudget))
            .arg(formatPercent(fraction(Ring::Second)), formatBound(m_epsilonSpent),
                 formatNumber(m_epsilonBudget), formatNumber(m_delta, 3));
    QString text = tr("%1 spent %2 of %3 (%4), %5 left")
                       .arg(m_unit, formatBound(m_nativeSpent), formatNumber(m_nativeBudget),
                            formatPercent(fraction(Ring::Native)), formatLowerBound(remaining()));
    if (showsEpsilonRing())
        text
            += tr("; guarantee: ε ≤ %1 of %2 at δ = %3")
                   .arg(formatBound(m_epsilonSpent), formatNumber(m_epsilonBudget), formatNumber(m_delta, 3));
    return text;
}

QString BudgetGauge::guaranteeSentence()
{
    return tr("This is the session's guarantee: the filter's budget, spent as shown. The strategy "
              "comparison may print smaller ε for the same ledger (zCDP with a tighter conversion, "
              "the PLD); those are hindsight, composing the released ledger as if it had been fixed "
              "in advance, while the filter had to admit each request before the next was chosen.");
}

void BudgetGauge::updateDescription()
{
    const QString text = readout();
    setAccessibleDescription(text);
    if (isOdometer()) {
        setToolTip(tr("<p>A privacy odometer: no budget was fixed, every request is answered, and the "
                      "arc shows the ε that holds for the session so far, whenever you stop (it fills "
                      "ε/(1 + ε): half at ε = 1, never full).</p><p>The construction: min(Σε, λ-grid "
                      "zCDP odometer), valid at every request at once with probability 1 − δ "
                      "(Whitehouse, Ramdas, Rogers &amp; Wu 2023 kind). A ledger planned in advance "
                      "would have cost less: that difference is the price of not committing to a "
                      "budget.</p><p>%1</p>")
                       .arg(text.toHtmlEscaped()));
        return;
    }
    if (hasSecondSystem()) {
        setToolTip(tr("<p>The unified filter keeps two budgets that never borrow from each "
                      "other.</p><p>Left arc: the %1 (%2), paying Gaussian releases and Laplace "
                      "releases as ε²/2.</p><p>Right arc: the %3 (%4), paying noise reduction "
                      "by the loss of the last level released.</p><p>Bar: the total ε-equivalent "
                      "of both sides at the session δ (a gauge, not a time-uniform "
                      "guarantee).</p><p>%5</p><p>%6</p>")
                       .arg(m_firstName, m_unit, m_secondName, m_secondUnit, text.toHtmlEscaped(),
                            guaranteeSentence().toHtmlEscaped()));
        return;
    }
    setToolTip(tr("<p>How much of the session's privacy budget the released answers have used."
                  "</p><p>Outer arc: the filter's own unit (%1). The filter refuses any request "
                  "that would push it past 100 %.</p>%2<p>%3</p><p>%4</p>")
                   .arg(m_unit,
                        showsEpsilonRing()
                            ? tr("<p>Inner arc: the same spend expressed as ε at the session δ "
                                 "(the guarantee a reader of the results gets).</p>")
                            : QString(),
                        text.toHtmlEscaped(), guaranteeSentence().toHtmlEscaped()));
}

QSize BudgetGauge::sizeHint() const
{
    return {320, 270};
}

QSize BudgetGauge::minimumSizeHint() const
{
    // The readout under an arc of kReadableRadius, in the current font: presentation mode's larger
    // lines need more, a normal font less. The fixed 200 px were more than the gauge's dock had in
    // presentation mode at 1280×720 (193 px): the dock scrolled and the readout's last line was cut.
    const double line = QFontMetricsF(font()).lineSpacing();
    const double height = hasSecondSystem()
                              ? 2 * kMargin + 1.5 * kReadableRadius + (2 * line + 4.0) + (line + 13.0) + 8.0
                              : 2 * kMargin + 1.5 * kReadableRadius + kReadoutLines * line + 6.0;
    return {220, static_cast<int>(std::ceil(height))};
}

BudgetGauge::Geometry BudgetGauge::geometry() const
{
    Geometry g;
    const QFontMetricsF metrics(font());
    const double readoutHeight = kReadoutLines * metrics.lineSpacing() + 6.0;
    const double width = this->width() - 2 * kMargin;
    const double height = this->height() - 2 * kMargin - readoutHeight;
    // The 240° arc spans 2R horizontally and R + R·sin(30°) = 1.5R vertically.
    double radius = std::min(width / 2.0, height / 1.5);
    radius = std::clamp(radius, 30.0, 130.0);
    g.outerWidth = std::max(8.0, radius * 0.16);
    g.innerWidth = std::max(5.0, radius * 0.08);
    g.outerRadius = radius - g.outerWidth / 2.0;
    g.innerRadius = g.outerRadius - g.outerWidth / 2.0 - 5.0 - g.innerWidth / 2.0;
    const double arcHeight = 1.5 * radius;
    const double top = kMargin + std::max(0.0, (height - arcHeight) / 2.0);
    g.centre = QPointF(this->width() / 2.0, top + radius);
    g.textTop = top + arcHeight + 6.0;
    // Low and wide (presentation mode at 1280×720: 404 × 181 px): inside so small an arc the
    // percentage's caption shrank to a few pixels. The headline goes beside the arc instead, in
    // its own size, the arc and the headline centred together.
    const double headlineWidth = width - 2.0 * radius - kHeadlineGap;
    if (radius < kBesideRadius && headlineWidth >= kHeadlineWidth) {
        const double used = 2.0 * radius + kHeadlineGap + kHeadlineWidth;
        const double left = kMargin + std::max(0.0, (width - used) / 2.0);
        g.centre.setX(left + radius);
        const double headlineLeft = left + 2.0 * radius + kHeadlineGap;
        g.headline
            = QRectF(headlineLeft, top,
                     std::min(kHeadlineWidth * 1.4, this->width() - kMargin - headlineLeft), arcHeight);
    }
    return g;
}

BudgetGauge::DualGeometry BudgetGauge::dualGeometry() const
{
    // Two arcs side by side, each with two label lines under it (name, spend), then the total-ε
    // line and its bar across the width.
    DualGeometry g;
    const QFontMetricsF metrics(font());
    const double line = metrics.lineSpacing();
    const double labelsHeight = 2 * line + 4.0;
    const double totalHeight = line + 4.0 + 9.0;
    const double gap = 18.0;
    const double width = (this->width() - 2 * kMargin - gap) / 2.0;
    const double height = this->height() - 2 * kMargin - labelsHeight - totalHeight - 8.0;
    double radius = std::min(width / 2.0, height / 1.5);
    radius = std::clamp(radius, 26.0, 110.0);
    g.width = std::max(7.0, radius * 0.15);
    g.radius = radius - g.width / 2.0;
    const double block = 1.5 * radius + labelsHeight + 8.0 + totalHeight;
    const double top = kMargin + std::max(0.0, (this->height() - 2 * kMargin - block) / 2.0);
    const double middle = this->width() / 2.0;
    g.firstCentre = QPointF(middle - gap / 2.0 - width / 2.0, top + radius);
    g.secondCentre = QPointF(middle + gap / 2.0 + width / 2.0, top + radius);
    g.textTop = top + 1.5 * radius + 4.0;
    const double totalTop = g.textTop + labelsHeight + 8.0;
    const double barWidth = std::min(this->width() - 2.0 * kMargin, 2.0 * width + gap);
    g.bar = QRectF(middle - barWidth / 2.0, totalTop + line + 4.0, barWidth, 9.0);
    return g;
}

QPointF BudgetGauge::pointOnRing(Ring ring, double fraction) const
{
    if (hasSecondSystem()) {
        const DualGeometry g = dualGeometry();
        const double f = std::clamp(fraction, 0.0, 1.0);
        if (ring == Ring::Epsilon)
            return QPointF(g.bar.left() + f * g.bar.width(), g.bar.center().y());
        const QPointF centre = ring == Ring::Second ? g.secondCentre : g.firstCentre;
        const double radians = (kStartDegrees - kSweepDegrees * f) * std::numbers::pi / 180.0;
        return centre + QPointF(g.radius * std::cos(radians), -g.radius * std::sin(radians));
    }
    const Geometry g = geometry();
    const double radius = ring == Ring::Native ? g.outerRadius : g.innerRadius;
    const double degrees = kStartDegrees - kSweepDegrees * std::clamp(fraction, 0.0, 1.0);
    const double radians = degrees * std::numbers::pi / 180.0;
    return g.centre + QPointF(radius * std::cos(radians), -radius * std::sin(radians));
}

namespace {

QFont scaledFont(QFont font, double factor)
{
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * factor);
    else
        font.setPixelSize(std::max(1, qRound(font.pixelSize() * factor)));
    return font;
}

/// True when `text` in `font` fits `box`: one line when `flags` has no Qt::TextWordWrap.
bool fits(const QFont &font, const QString &text, const QSizeF &box, int flags)
{
    const QFontMetricsF metrics(font);
    const QRectF needed = metrics.boundingRect(QRectF(0, 0, box.width(), 1e6), flags, text);
    return needed.width() <= box.width() + 0.01 && needed.height() <= box.height() + 0.01;
}

/// `font`, made smaller where needed (down to 5 pt) so that `text` fits `box`.
QFont fittedFont(QFont font, const QString &text, const QSizeF &box, int flags)
{
    for (int step = 0; step < 60 && !fits(font, text, box, flags); ++step) {
        const QFont smaller = scaledFont(font, 0.94);
        if ((smaller.pointSizeF() > 0 && smaller.pointSizeF() < 5.0) || smaller.pixelSize() == 1)
            break;
        font = smaller;
    }
    return font;
}

/// `font` (its family and weight) at `sized`'s size.
QFont withSize(QFont font, const QFont &sized)
{
    if (sized.pointSizeF() > 0)
        font.setPointSizeF(sized.pointSizeF());
    else
        font.setPixelSize(sized.pixelSize());
    return font;
}

double fontSize(const QFont &font)
{
    return font.pointSizeF() > 0 ? font.pointSizeF() : font.pixelSize();
}

} // namespace

QList<BudgetGauge::TextItem> BudgetGauge::textItems() const
{
    return hasSecondSystem() ? dualTextItems() : singleTextItems();
}

QList<BudgetGauge::TextItem> BudgetGauge::dualTextItems() const
{
    const DualGeometry g = dualGeometry();
    const double line = QFontMetricsF(font()).lineSpacing();
    const double half = (width() - 2 * kMargin) / 4.0 + 4.0;
    QList<TextItem> items;
    // Inside an arc: the used percentage; under it: the side's name and its spend.
    const auto side = [&](const QPointF &centre, double fill, const QString &name, const QString &spend) {
        const double inner = g.radius - g.width;
        QFont big = scaledFont(font(), 1.7);
        big.setWeight(QFont::DemiBold);
        const QRectF box(centre.x() - inner, centre.y() - inner * 0.55, 2 * inner, inner * 0.8);
        const QString percent = formatPercent(fill, fill < 0.1 ? 1 : 0);
        const int centred = Qt::AlignHCenter | Qt::AlignBottom;
        // The text's upper corners stay inside the arc: at most 1.6 inner radii wide.
        big = fittedFont(big, percent, QSizeF(1.6 * inner, box.height()), centred);
        items.push_back({percent, big, box, centred});
        const QFont small = scaledFont(font(), 0.9);
        const QRectF usedBox(centre.x() - inner, box.bottom() + 1, 2 * inner,
                             QFontMetricsF(small).lineSpacing());
        items.push_back({tr("used"), fittedFont(small, tr("used"), usedBox.size(), Qt::AlignHCenter), usedBox,
                         Qt::AlignHCenter | Qt::AlignTop});
        QFont bold = font();
        bold.setWeight(QFont::DemiBold);
        const double keySize = QFontMetricsF(font()).height() * 0.6;
        const QRectF nameBox(centre.x() - half + keySize + 6.0, g.textTop, 2 * half - keySize - 6.0, line);
        bold = fittedFont(bold, name, nameBox.size(), Qt::AlignLeft);
        const double nameWidth = QFontMetricsF(bold).horizontalAdvance(name);
        // Key and name centred together under the arc.
        const double left
            = std::max(nameBox.left(), centre.x() - (nameWidth + keySize + 6.0) / 2.0 + keySize + 6.0);
        items.push_back({name, bold, QRectF(left, g.textTop, nameBox.right() - left, line),
                         Qt::AlignLeft | Qt::AlignVCenter});
        const QRectF spendBox(centre.x() - half, g.textTop + line, 2 * half, line);
        items.push_back({spend, fittedFont(font(), spend, spendBox.size(), Qt::AlignHCenter), spendBox,
                         Qt::AlignHCenter | Qt::AlignVCenter});
    };
    side(g.firstCentre, fraction(Ring::Native), tr("%1 %2").arg(m_firstName, m_unit),
         tr("%1 of %2").arg(formatBound(m_nativeSpent), formatNumber(m_nativeBudget)));
    side(g.secondCentre, fraction(Ring::Second), tr("%1 %2").arg(m_secondName, m_secondUnit),
         tr("%1 of %2").arg(formatBound(m_secondSpent), formatNumber(m_secondBudget)));

    // The total ε-equivalent of both sides: a line of text over the bar.
    QFont bold = font();
    bold.setWeight(QFont::DemiBold);
    const QString total = tr("gauge: spent ≈ ε %1 of %2 at δ = %3 (%4)")
                              .arg(formatBound(m_epsilonSpent), formatNumber(m_epsilonBudget),
                                   formatNumber(m_delta, 2), formatPercent(fraction(Ring::Epsilon)));
    const QRectF totalBox(kMargin, g.bar.top() - line - 3.0, width() - 2 * kMargin, line);
    items.push_back({total, fittedFont(bold, total, totalBox.size(), Qt::AlignHCenter), totalBox,
                     Qt::AlignHCenter | Qt::AlignVCenter});
    return items;
}

void BudgetGauge::paintDual(QPainter &painter)
{
    const DualGeometry g = dualGeometry();
    const QPalette pal = palette();
    const QFontMetricsF metrics(font());
    const double line = metrics.lineSpacing();
    const auto drawArc = [&](const QPointF &centre, double fill, const QColor &colour) {
        const QRectF box(centre.x() - g.radius, centre.y() - g.radius, 2 * g.radius, 2 * g.radius);
        QPen pen(kTrack, g.width, Qt::SolidLine, Qt::FlatCap);
        painter.setPen(pen);
        painter.drawArc(box, qRound(kStartDegrees * 16), qRound(-kSweepDegrees * 16));
        if (fill > 0.0) {
            pen.setColor(colour);
            painter.setPen(pen);
            painter.drawArc(box, qRound(kStartDegrees * 16),
                            std::min(-1, qRound(-kSweepDegrees * fill * 16)));
        }
    };
    const double first = fraction(Ring::Native);
    const double second = fraction(Ring::Second);
    const double total = fraction(Ring::Epsilon);
    drawArc(g.firstCentre, first, colourForFraction(first));
    drawArc(g.secondCentre, second, colourForFraction(second));

    // Per side: percentage, "used" (muted), name (with its colour key), spend; then the total.
    const QList<TextItem> items = dualTextItems();
    const QColor keys[2] = {colourForFraction(first), colourForFraction(second)};
    const double keySize = metrics.height() * 0.6;
    for (int i = 0; i < items.size(); ++i) {
        const TextItem &item = items[i];
        const int part = i % 4;
        if (i < 8 && part == 2) {
            painter.setPen(Qt::NoPen);
            painter.setBrush(keys[i / 4]);
            painter.drawRoundedRect(QRectF(item.box.left() - keySize - 6.0,
                                           item.box.top() + (line - keySize) / 2.0, keySize, keySize),
                                    2, 2);
        }
        painter.setFont(item.font);
        painter.setPen(pal.color(i < 8 && part == 1 ? QPalette::PlaceholderText : QPalette::WindowText));
        painter.drawText(item.box, item.flags, item.text);
    }
    painter.setPen(Qt::NoPen);
    painter.setBrush(kTrack);
    painter.drawRoundedRect(g.bar, 3, 3);
    if (total > 0.0) {
        painter.setBrush(colourForFraction(total).darker(135));
        painter.drawRoundedRect(
            QRectF(g.bar.topLeft(), QSizeF(std::max(4.0, g.bar.width() * total), g.bar.height())), 3, 3);
    }
}

QList<BudgetGauge::TextItem> BudgetGauge::singleTextItems() const
{
    const Geometry g = geometry();
    QList<TextItem> items;
    // Centre: the used percentage of the native budget, large, inside the inner edge (its upper
    // corners stay inside the arc: at most 1.6 inner radii wide).
    const double nativeFraction = fraction(Ring::Native);
    const double innerEdge
        = (showsEpsilonRing() ? g.innerRadius - g.innerWidth : g.outerRadius - g.outerWidth);
    QFont big = scaledFont(font(), 2.1);
    big.setWeight(QFont::DemiBold);
    const QString percent = isOdometer() ? tr("ε %1").arg(formatBound(m_epsilonSpent))
                                         : formatPercent(nativeFraction, nativeFraction < 0.1 ? 1 : 0);
    const QFont small = scaledFont(font(), 0.9);
    const QString caption
        = isOdometer() ? tr("so far · holds whenever you stop") : tr("of the %1 budget used").arg(m_unit);
    const int wrapped = Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap;
    if (!g.headline.isEmpty()) {
        // Beside the arc: the percentage over its caption (two lines at most), centred together
        // on the arc's centre line.
        const int leftWrapped = Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap;
        const QFont percentFont = fittedFont(
            big, percent, QSizeF(g.headline.width(), QFontMetricsF(big).height()), Qt::AlignLeft);
        const double percentHeight = QFontMetricsF(percentFont).height();
        const double captionHeight = std::min(2 * QFontMetricsF(small).lineSpacing(),
                                              std::max(0.0, g.headline.height() - percentHeight));
        const QSizeF captionSize(g.headline.width(), captionHeight);
        const QFont captionFont = fittedFont(small, caption, captionSize, leftWrapped);
        const double needed = percentHeight
                              + QFontMetricsF(captionFont)
                                    .boundingRect(QRectF(QPointF(), captionSize), leftWrapped, caption)
                                    .height();
        const double top = std::clamp(g.centre.y() - needed / 2.0, g.headline.top(),
                                      std::max(g.headline.top(), g.headline.bottom() - needed));
        const QRectF percentBox(g.headline.left(), top, g.headline.width(), percentHeight);
        items.push_back({percent, percentFont, percentBox, Qt::AlignLeft | Qt::AlignBottom});
        items.push_back({caption, captionFont,
                         QRectF(QPointF(g.headline.left(), percentBox.bottom()), captionSize), leftWrapped});
    } else {
        const QRectF centreBox(g.centre.x() - innerEdge, g.centre.y() - innerEdge * 0.55, 2 * innerEdge,
                               innerEdge * 0.8);
        const int centred = Qt::AlignHCenter | Qt::AlignBottom;
        items.push_back({percent,
                         fittedFont(big, percent, QSizeF(1.6 * innerEdge, centreBox.height()), centred),
                         centreBox, centred});
        // Under it, in the arc's opening: what the percentage is of, on up to two lines.
        const double captionTop = centreBox.bottom() + 2;
        const double captionHeight
            = std::max(QFontMetricsF(small).lineSpacing(),
                       std::min(2 * QFontMetricsF(small).lineSpacing(), g.textTop - 2 - captionTop));
        const QRectF captionBox(g.centre.x() - 0.9 * innerEdge, captionTop, 1.8 * innerEdge, captionHeight);
        items.push_back(
            {caption, fittedFont(small, caption, captionBox.size(), wrapped), captionBox, wrapped});
    }

    if (isOdometer())
        return withReadout(
            items, g,
            {tr("odometer ε ≤ %1 at δ = %2").arg(formatBound(m_epsilonSpent), formatNumber(m_delta, 2)),
             tr("%1 spent %2 · no budget").arg(m_unit, formatBound(m_nativeSpent)),
             tr("planned in advance: ε ≈ %1").arg(formatBound(m_preplanned))},
            {true, false, true});
    return withReadout(
        items, g,
        {tr("%1 spent %2 of %3").arg(m_unit, formatBound(m_nativeSpent), formatNumber(m_nativeBudget)),
         tr("%1 remaining %2").arg(m_unit, formatLowerBound(remaining())),
         showsEpsilonRing()
             ? tr("guarantee: ε ≤ %1 of %2 at δ = %3")
                   .arg(formatBound(m_epsilonSpent), formatNumber(m_epsilonBudget), formatNumber(m_delta, 2))
         : !m_note.isEmpty() ? m_note
         : m_delta > 0.0     ? tr("pure ε-DP (δ = %1 unused)").arg(formatNumber(m_delta, 2))
                             : tr("pure ε-DP (δ = 0)")},
        {true, false, showsEpsilonRing()});
}

QList<BudgetGauge::TextItem> BudgetGauge::withReadout(QList<TextItem> items, const Geometry &g,
                                                      const std::array<QString, 3> &lines,
                                                      const std::array<bool, 3> &keyed) const
{
    // Readout lines, centred, each after its colour key; one font size for the three, the
    // largest with which the widest fits.
    const QFontMetricsF metrics(font());
    const double line = metrics.lineSpacing();
    const double keySize = metrics.height() * 0.6;
    QFont fonts[kReadoutLines];
    QFont smallest = font();
    for (int i = 0; i < kReadoutLines; ++i) {
        fonts[i] = font();
        fonts[i].setWeight(i == 0 ? QFont::DemiBold : QFont::Normal);
        const double room = width() - 8.0 - (keyed[i] ? keySize + 6.0 : 0.0);
        const QFont fitted = fittedFont(fonts[i], lines[i], QSizeF(room, line), Qt::AlignLeft);
        if (fontSize(fitted) < fontSize(smallest))
            smallest = fitted;
    }
    for (int i = 0; i < kReadoutLines; ++i) {
        const QFont f = withSize(fonts[i], smallest);
        const double textWidth = QFontMetricsF(f).horizontalAdvance(lines[i]);
        const double keyRoom = keyed[i] ? keySize + 6.0 : 0.0;
        const double x = std::max(4.0, (width() - textWidth - keyRoom) / 2.0) + keyRoom;
        items.push_back({lines[i], f, QRectF(x, g.textTop + i * line, std::max(0.0, width() - 4.0 - x), line),
                         Qt::AlignLeft | Qt::AlignVCenter});
    }
    return items;
}

void BudgetGauge::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    if (hasSecondSystem()) {
        paintDual(painter);
        return;
    }
    const Geometry g = geometry();

    auto drawRing = [&](double radius, double strokeWidth, double fill, const QColor &colour) {
        const QRectF box(g.centre.x() - radius, g.centre.y() - radius, 2 * radius, 2 * radius);
        QPen pen(kTrack, strokeWidth, Qt::SolidLine, Qt::FlatCap);
        painter.setPen(pen);
        painter.drawArc(box, qRound(kStartDegrees * 16), qRound(-kSweepDegrees * 16));
        if (fill > 0.0) {
            pen.setColor(colour);
            painter.setPen(pen);
            painter.drawArc(box, qRound(kStartDegrees * 16),
                            std::min(-1, qRound(-kSweepDegrees * fill * 16)));
        }
    };

    const double nativeFraction = fraction(Ring::Native);
    // An odometer has no thresholds: one colour, the path chart's.
    const QColor nativeColour = isOdometer() ? palette::chartBlue : colourForFraction(nativeFraction);
    drawRing(g.outerRadius, g.outerWidth, nativeFraction, nativeColour);
    const double epsilonFraction = fraction(Ring::Epsilon);
    const QColor epsilonColour = colourForFraction(epsilonFraction).darker(135);
    if (showsEpsilonRing())
        drawRing(g.innerRadius, g.innerWidth, epsilonFraction, epsilonColour);

    // The percentage, its caption (muted), then the readout lines with colour keys matching the
    // rings.
    const QPalette pal = palette();
    const QFontMetricsF metrics(font());
    const double line = metrics.lineSpacing();
    const double keySize = metrics.height() * 0.6;
    const QList<TextItem> items = singleTextItems();
    const QColor keys[kReadoutLines]
        = {nativeColour, QColor(),
           showsEpsilonRing() ? epsilonColour
           : isOdometer()     ? QColor(palette::chartRed) // the chart's pre-planned line
                              : QColor()};
    for (int i = 0; i < items.size(); ++i) {
        const TextItem &item = items[i];
        const int readoutLine = i - 2;
        if (readoutLine >= 0 && keys[readoutLine].isValid()) {
            painter.setPen(Qt::NoPen);
            painter.setBrush(keys[readoutLine]);
            painter.drawRoundedRect(QRectF(item.box.left() - keySize - 6.0,
                                           item.box.top() + (line - keySize) / 2.0, keySize, keySize),
                                    2, 2);
        }
        painter.setFont(item.font);
        painter.setPen(pal.color(i == 1 ? QPalette::PlaceholderText : QPalette::WindowText));
        painter.drawText(item.box, item.flags, item.text);
    }
}

} // namespace pbx::ui
