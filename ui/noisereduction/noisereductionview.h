// SPDX-License-Identifier: MIT
// The noise-reduction view of one ledger event: its released levels as noise shrinks (chart), where
// it stopped and why, and what it paid compared with paying every level (the doubling baseline).
// For doubling and single releases it shows the same picture with their own accounting. Built
// from the event's released values and public scales only: the true answer never appears.
#pragma once

#include "core/filters/privacy_filter.h"
#include "core/session/ledger_event.h"

#include <QWidget>

#include <optional>

QT_FORWARD_DECLARE_CLASS(QLabel)

namespace pbx::ui {

class NoiseReductionChart;

class NoiseReductionView final : public QWidget
{
    Q_OBJECT
public:
    explicit NoiseReductionView(QWidget *parent = nullptr);

    /// Shows `event` (nullptr: a placeholder) of a session whose filter is `filter`. The event is
    /// copied: it need not outlive the call.
    void setEvent(const session::LedgerEvent *event, filters::FilterKind filter);

    NoiseReductionChart *chart() const { return m_chart; }
    QLabel *paidLabel() const { return m_paid; }
    QString titleText() const;
    QString summaryText() const;
    /// "paid: ρ of the last level = 0.0123; the doubling baseline would have paid …" (plain).
    QString paidText() const;
    /// What the event paid (its cost); nullopt when nothing was released.
    std::optional<double> paidAmount() const { return m_paidAmount; }
    /// Σ over the released levels of each level's own cost: what independent fresh noise at each
    /// of these levels would have cost. nullopt when nothing was released.
    std::optional<double> baselineAmount() const { return m_baseline; }
    /// Applies pending chart updates now.
    void flush();

private:
    void showPlaceholder(const QString &text);

    QLabel *m_title = nullptr;
    QLabel *m_subtitle = nullptr;
    NoiseReductionChart *m_chart = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_paid = nullptr;
    std::optional<double> m_paidAmount;
    std::optional<double> m_baseline;
};

} // namespace pbx::ui
