// SPDX-License-Identifier: MIT
#include "ui/noisereduction/noisereductionview.h"

#include "core/math/directed_rounding.h"
#include "ui/charts/chartexport.h"
#include "ui/charts/noisereductionchart.h"
#include "ui/help/glossarylinks.h"
#include "ui/models/ledgermodel.h"
#include "ui/util/boundformat.h"
#include "ui/util/numberformat.h"
#include "ui/util/palette.h"
#include "ui/util/privacytext.h"

#include <QLabel>
#include <QVBoxLayout>

#include <vector>

namespace pbx::ui {

namespace {

QLabel *wrappingLabel(QWidget *parent, Qt::TextFormat format)
{
    auto *label = new QLabel(parent);
    label->setWordWrap(true);
    label->setTextFormat(format);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

} // namespace

NoiseReductionView::NoiseReductionView(QWidget *parent) : QWidget(parent)
{
    m_title = wrappingLabel(this, Qt::PlainText);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_subtitle = wrappingLabel(this, Qt::PlainText);
    QPalette muted = m_subtitle->palette();
    muted.setColor(QPalette::WindowText, palette::mutedText);
    m_subtitle->setPalette(muted);
    m_chart = new NoiseReductionChart(this);
    ChartExporter::setOuterTitle(m_chart, m_title); // the exported chart's heading
    m_summary = wrappingLabel(this, Qt::PlainText);
    m_paid = wrappingLabel(this, Qt::RichText);
    m_paid->setObjectName(QStringLiteral("noiseReductionPaid"));
    m_paid->setStyleSheet(QStringLiteral("QLabel#noiseReductionPaid { background: #eef4ee;"
                                         " border: 1px solid #cfe3d3; border-radius: 4px;"
                                         " padding: 4px 6px; }"));

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addWidget(m_title);
    layout->addWidget(m_subtitle);
    layout->addWidget(m_chart, 1);
    layout->addWidget(m_summary);
    layout->addWidget(m_paid);

    setToolTip(tr("<p>A noise-reduction mechanism releases the same answer with less and less "
                  "noise, noisiest first, and stops as soon as the released values prove the "
                  "accuracy target. Its privacy loss is that of the <b>last</b> (least noisy) "
                  "release only.</p><p>Only released values and public noise scales are shown: "
                  "never the true answer.</p>"));
    showPlaceholder(tr("Select a ledger row to see how its noise was reduced."));
}

QString NoiseReductionView::titleText() const
{
    return m_title->text();
}

QString NoiseReductionView::summaryText() const
{
    return plainTextOf(m_summary->text());
}

QString NoiseReductionView::paidText() const
{
    return plainTextOf(m_paid->text());
}

void NoiseReductionView::flush()
{
    m_chart->flush();
}

void NoiseReductionView::showPlaceholder(const QString &text)
{
    m_title->setText(tr("Noise reduction"));
    setGlossaryLinkedPlainText(m_subtitle, text);
    m_summary->clear();
    m_summary->setVisible(false);
    m_paid->clear();
    m_paid->setVisible(false);
    m_paidAmount.reset();
    m_baseline.reset();
    m_chart->clear();
}

void NoiseReductionView::setEvent(const session::LedgerEvent *event, filters::FilterKind filter)
{
    if (!event) {
        showPlaceholder(tr("Select a ledger row to see how its noise was reduced."));
        return;
    }
    const auto mechanism = session::releaseMethodOf(event->mechanism);
    const QString query = QStringLiteral("%1 · %2").arg(toQString(event->request.id),
                                                        LedgerModel::describeQuery(event->request.query));
    if (event->attempts.empty()) {
        showPlaceholder(
            tr("Nothing was released, so there is nothing to show. %1").arg(toQString(event->reason)));
        m_title->setText(query);
        return;
    }
    m_title->setText(query);
    const QString mechanismText = mechanism ? mechanismLabel(*mechanism) : toQString(event->mechanismName());
    QString subtitle
        = tr("%1 · target %2").arg(mechanismText, LedgerModel::describeTarget(event->request.target));
    if (!event->accounting.empty())
        subtitle += tr(" · %1").arg(toQString(event->accounting));
    const QString side = unifiedSideOf(event->costKind, filter);
    if (!side.isEmpty())
        subtitle += tr(" · paid from the %1").arg(side);
    setGlossaryLinkedPlainText(m_subtitle, subtitle);

    // The chart: one point per released level, x = the level's noise scale.
    const bool laplace = mechanism.has_value() && session::usesLaplaceNoise(*mechanism);
    QString scaleName = laplace ? QStringLiteral("b") : QStringLiteral("σ");
    const auto &firstReleases = event->attempts.front().releases;
    if (firstReleases.size() > 1)
        scaleName += tr(" of the %1").arg(toQString(firstReleases.front().quantity));
    std::vector<NoiseReductionChart::Level> levels;
    levels.reserve(event->attempts.size());
    double baseline = 0.0;
    for (const auto &attempt : event->attempts) {
        const double scale = attempt.releases.empty() ? 0.0 : attempt.releases.front().scale;
        levels.push_back({scale, attempt.estimate, attempt.halfWidth, attempt.accepted});
        for (const auto &release : attempt.releases)
            baseline = math::addRoundUp(baseline, release.cost);
    }
    const auto &target = event->request.target;
    const bool relative = target.kind == session::TargetKind::Relative;
    m_chart->setLevels(levels, scaleName, relative ? std::optional<double>(target.error) : std::nullopt,
                       relative ? std::nullopt : std::optional<double>(target.error));

    const auto &last = event->attempts.back();
    const int count = static_cast<int>(event->attempts.size());
    const QString lastScale
        = last.releases.empty() ? QStringLiteral("—") : formatNumber(last.releases.front().scale, 3);
    QString outcome;
    if (event->status == session::EventStatus::Refused)
        outcome = tr("refused: %1").arg(toQString(event->reason));
    else if (last.accepted)
        outcome = tr("target met.");
    else if (!event->reason.empty())
        outcome = toQString(event->reason);
    else
        outcome = tr("target not proven.");
    setGlossaryLinkedPlainText(
        m_summary, count == 1 ? tr("1 level released; %1 = %2: %3").arg(scaleName, lastScale, outcome)
                              : tr("%1 levels released, noisiest first; stopped at %2 = %3: %4")
                                    .arg(count)
                                    .arg(scaleName, lastScale, outcome));
    m_summary->setVisible(true);

    // What was paid, next to what paying every level would have cost: losses rounded up, as the
    // result card, the ledger and the lessons write them (issue 29 §3).
    const QString unit = chargeUnit(event->costKind);
    const QString delta
        = event->costDelta > 0.0 ? tr(" (plus δ = %1)").arg(formatBound(event->costDelta, 2)) : QString();
    double lastLevelCost = 0.0;
    for (const auto &release : last.releases)
        lastLevelCost = math::addRoundUp(lastLevelCost, release.cost);
    m_paidAmount = event->cost;
    m_baseline = baseline;
    const bool noiseReduction = mechanism.has_value() && session::isNoiseReduction(*mechanism);
    const bool doubling = mechanism.has_value()
                          && (*mechanism == session::ReleaseMethod::DoublingLaplace
                              || *mechanism == session::ReleaseMethod::DoublingGaussian);
    // An ex-post Brownian level's cost E(T_k) is a boundary's loss, not what a doubling level with
    // fresh noise would be charged: there is no honest baseline to show, so none is shown.
    const bool expostBrownian = noiseReduction && event->costKind == filters::ChargeKind::ExPost
                                && *mechanism == session::ReleaseMethod::Brownian;
    if (expostBrownian) {
        m_baseline.reset();
        setGlossaryLinkedText(
            m_paid, tr("paid: %1 of the last level = <b>%2</b>%3 (the boundary's loss at the stopping time)")
                        .arg(unit.toHtmlEscaped(), formatBound(event->cost), delta));
        m_paid->setToolTip(tr("<p>Brownian noise reduction accounted ex-post pays the normal-mixture "
                              "boundary's loss E(T) at the time it stopped, charged level by level as "
                              "increments, plus its δ.</p>"));
    } else if (noiseReduction) {
        setGlossaryLinkedText(
            m_paid, tr("paid: %1 of the last level = <b>%2</b>%3; the doubling baseline "
                       "would have paid <b>%4</b> for the same levels")
                        .arg(unit.toHtmlEscaped(), formatBound(event->cost), delta, formatBound(baseline)));
        m_paid->setToolTip(tr("<p>Noise reduction pays only the privacy loss of the least noisy "
                              "value it released (%1 = %2 here, charged level by level as "
                              "increments).</p><p>The baseline adds up each released level's "
                              "own cost: what releasing these %3 levels with independent fresh "
                              "noise would have cost, every level paid, as the doubling "
                              "mechanism does.</p>")
                               .arg(unit.toHtmlEscaped(), formatBound(event->cost, 6))
                               .arg(count));
    } else if (doubling) {
        setGlossaryLinkedText(
            m_paid, tr("paid: every level (doubling), %1 = <b>%2</b>; noise reduction over "
                       "the same levels would have paid only the last: <b>%3</b>")
                        .arg(unit.toHtmlEscaped(), formatBound(event->cost), formatBound(lastLevelCost)));
        m_paid->setToolTip(tr("<p>Doubling draws fresh, independent noise at each level, so every "
                              "level is paid. A noise-reduction mechanism correlates the levels "
                              "and pays only the least noisy one released.</p>"));
    } else {
        setGlossaryLinkedText(m_paid, tr("paid: one release, %1 = <b>%2</b>%3")
                                          .arg(unit.toHtmlEscaped(), formatBound(event->cost), delta));
        m_paid->setToolTip(tr("<p>A single release calibrated to an absolute target: there are no "
                              "levels to reduce.</p>"));
    }
    m_paid->setVisible(true);
}

} // namespace pbx::ui
