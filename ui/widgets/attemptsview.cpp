// SPDX-License-Identifier: MIT
#include "ui/widgets/attemptsview.h"

#include "core/report/event_description.h"
#include "core/session/growing/growing_release.h"
#include "ui/util/boundformat.h"
#include "ui/util/numberformat.h"
#include "ui/util/palette.h"
#include "ui/widgets/columnfitter.h"

#include <QEvent>
#include <QHeaderView>
#include <QTreeWidgetItemIterator>

#include <algorithm>
#include <cmath>

namespace pbx::ui {

AttemptsView::AttemptsView(QWidget *parent) : QTreeWidget(parent)
{
    setColumnCount(ColumnCount);
    setRootIsDecorated(true);
    setUniformRowHeights(true);
    setAlternatingRowColors(true);
    setSelectionMode(QAbstractItemView::NoSelection);
    setFocusPolicy(Qt::NoFocus);
    // The columns keep their own widths: with a stretched last section and hidden columns Qt shrank
    // the others to their minimum (38 px).
    header()->setStretchLastSection(false);
    header()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    setTextElideMode(Qt::ElideRight);
    setToolTip(tr("The attempts behind the selected request. A doubling mechanism starts noisy "
                  "and halves the noise until the released values prove the target; every "
                  "level is released and paid for."));
    setEvent(nullptr, QStringLiteral("ε"));
    // Not sideways: in a narrow view (before: 565 px of columns in the 388-px view at 1024×768,
    // 785 in 590 in presentation mode at 1920×1080) the noise scale gives way first, then the
    // accepted mark; the labels of the first column narrow down to its title, elided (the row's
    // tooltip has them whole). The header's menu shows a column again.
    m_fitter = ColumnFitter::install(this, {ScaleColumn, AcceptedColumn});
    m_fitter->setElastic(StepColumn, header()->sectionSizeHint(StepColumn));
}

void AttemptsView::sizeColumns()
{
    // Headers are never cut ("Attempt / releas"), with or without rows to size the columns by;
    // every release counts, also those of folded attempts.
    QList<QTreeWidgetItem *> expanded;
    for (int i = 0; i < topLevelItemCount(); ++i)
        if (topLevelItem(i)->isExpanded())
            expanded << topLevelItem(i);
    const auto resize = [&] {
        expandAll();
        for (int c = 0; c < ColumnCount; ++c)
            resizeColumnToContents(c);
        collapseAll();
        for (QTreeWidgetItem *item : expanded)
            item->setExpanded(true);
    };
    if (!m_fitter) {
        resize();
        return;
    }
    // The first column narrows down to its title in the current font; its natural width is the
    // one resize() gives it. Columns hidden to fit are measured too.
    m_fitter->setElastic(StepColumn, header()->sectionSizeHint(StepColumn));
    m_fitter->resizeColumns(resize);
}

void AttemptsView::changeEvent(QEvent *event)
{
    QTreeWidget::changeEvent(event);
    // A new font (presentation mode) needs new widths, for the headers and for the values.
    if (event->type() == QEvent::FontChange)
        sizeColumns();
}

void AttemptsView::setEvent(const session::LedgerEvent *event, const QString &unitSymbol)
{
    clear();
    // Short titles: at 1024×768 the four columns kept (with the cost's four rounded-up digits,
    // "0.0007531", or "Cost (ex-post ε)") must fit a 370-px view; "Estimate / value" took 114 px
    // for values of ~60, "Attempt / release" 123 for "Attempt 1".
    setHeaderLabels({tr("Attempt"), tr("Value"), tr("± Half-width"), tr("Noise scale"),
                     tr("Cost (%1)").arg(unitSymbol), tr("Accepted")});
    headerItem()->setToolTip(StepColumn, tr("Each attempt, and under it the values it released"));
    headerItem()->setToolTip(EstimateColumn, tr("An attempt's estimate, or one value it released"));
    headerItem()->setToolTip(CostColumn, tr("The privacy loss charged, rounded up"));
    if (!event) {
        sizeColumns();
        auto *placeholder = new QTreeWidgetItem(this);
        placeholder->setText(StepColumn, tr("Select a ledger row to see its attempts"));
        placeholder->setForeground(StepColumn, palette::neutralGrey);
        placeholder->setFirstColumnSpanned(true);
        return;
    }
    if (event->attempts.empty()) {
        auto *item = new QTreeWidgetItem(this);
        // An output-DP request releases through its cell, not through accuracy attempts.
        item->setText(
            StepColumn,
            event->odpRecord()
                ? tr("%1: output DP, one mechanism (see the result card)").arg(toQString(event->request.id))
                : tr("%1: no attempt (nothing released)").arg(toQString(event->request.id)));
        item->setFirstColumnSpanned(true);
        sizeColumns();
        return;
    }
    int number = 1;
    QTreeWidgetItem *last = nullptr;
    for (const auto &attempt : event->attempts) {
        auto *item = new QTreeWidgetItem(this);
        last = item;
        // A growing-database stream's attempts are its epochs, each its own charge.
        item->setText(StepColumn,
                      event->growingRecord()
                              && std::size_t(number) <= (event->growingRecord()->nsg
                                                             ? event->growingRecord()->nsg->rounds.size()
                                                         : event->growingRecord()->pmwg
                                                             ? event->growingRecord()->pmwg->rounds.size()
                                                             : event->growingRecord()->epochs.size())
                          ? toQString(session::growingEpochLabel(*event, std::size_t(number - 1)))
                          : tr("Attempt %1").arg(number));
        ++number;
        // A mode's values are categories (its numeric estimate is only the first pick's index).
        const std::string picks = report::selectionText(*event);
        const auto *labels = picks.empty() ? nullptr : &event->strategyRecord()->labels;
        item->setText(EstimateColumn, labels ? toQString(picks) : formatNumber(attempt.estimate, 6));
        item->setText(HalfWidthColumn, std::isfinite(attempt.halfWidth)
                                           ? QStringLiteral("±") + formatNumber(attempt.halfWidth, 3)
                                           : QStringLiteral("—"));
        item->setText(CostColumn, formatBound(attempt.cost));
        item->setText(AcceptedColumn, attempt.accepted ? tr("✓ target met") : tr("no"));
        if (attempt.accepted)
            item->setForeground(AcceptedColumn, palette::successText);
        const bool ermg = event->request.growing()
                          && event->request.growing()->algorithm == session::GrowingAlgorithm::Ermg;
        const bool smalldb = event->request.growing()
                             && event->request.growing()->algorithm == session::GrowingAlgorithm::SmallDb;
        for (std::size_t j = 0; j < attempt.releases.size(); ++j) {
            const auto &release = attempt.releases[j];
            auto *child = new QTreeWidgetItem(item);
            // ERMG: the coordinates θ_j; SmallDBG: the synthetic database's answer to query j.
            child->setText(StepColumn, ermg      ? QStringLiteral("θ_%1").arg(j)
                                       : smalldb ? tr("query %1 (synthetic)").arg(j)
                                                 : toQString(release.quantity));
            child->setText(EstimateColumn, labels && j < labels->size() ? toQString((*labels)[j])
                                                                        : formatNumber(release.value, 6));
            // (a SmallDBG answer is a sample, not additive noise: no scale)
            child->setText(ScaleColumn, smalldb ? QStringLiteral("—") : formatNumber(release.scale, 3));
            child->setText(CostColumn, formatBound(release.cost));
        }
    }
    setRowToolTips();
    // The releases of the final attempt (the one the answer comes from) are shown; earlier
    // levels stay folded.
    collapseAll();
    if (last)
        last->setExpanded(true);
    sizeColumns();
}

void AttemptsView::setRowToolTips()
{
    // Every value of a row, named by its column, on each of its cells: what an elided label or a
    // column that gave way hides is a hover away.
    QTreeWidgetItemIterator it(this);
    for (; *it; ++it) {
        QTreeWidgetItem *item = *it;
        QStringList lines;
        for (int c = 0; c < ColumnCount; ++c)
            if (!item->text(c).isEmpty())
                lines << QStringLiteral("%1: %2").arg(headerItem()->text(c), item->text(c));
        const QString tip = lines.join(u'\n');
        for (int c = 0; c < ColumnCount; ++c)
            item->setToolTip(c, tip);
    }
}

} // namespace pbx::ui
