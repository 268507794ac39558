// SPDX-License-Identifier: MIT
// The growing-database lab's ATG tab: AboveThreshold for growing databases (Cummings, Krehbiel,
// Lai & Tantipongpipat, NeurIPS 2018; the AboveThreshold proof of Dwork & Roth 2014, Thm 3.23)
// replayed on one counting query of the public CPS1988 rows arriving in a seeded order
// (atgtrace.h). Noisy query values and the noisy threshold are drawn on the count scale over
// time, rounds as bands, each round's cost f(s) + f(t_h) annotated; rounds continue back to back
// under a hard-answer cap (NSG's). A table prices one round started at n by its halting time
// (n, 10n, 100n, 1000n), ATG's cost beside the naive design's true loss. A toggle shows the naive
// fraction-scale design as a labelled counter-example with its true privacy loss. Simulation only; nothing is
// charged to a session.
#pragma once

#include "core/data/table.h"
#include "ui/growing/atgtrace.h"

#include <QWidget>

#include <memory>
#include <optional>

QT_FORWARD_DECLARE_CLASS(QCheckBox)
QT_FORWARD_DECLARE_CLASS(QComboBox)
QT_FORWARD_DECLARE_CLASS(QDoubleSpinBox)
QT_FORWARD_DECLARE_CLASS(QLabel)
QT_FORWARD_DECLARE_CLASS(QSpinBox)

namespace pbx::ui {

class GrowingBarChart;
class GrowingChart;

class AtgPanel final : public QWidget
{
    Q_OBJECT
public:
    /// `predicates`: the counting queries offered (the lab's list).
    explicit AtgPanel(const QStringList &predicates, QWidget *parent = nullptr);
    ~AtgPanel() override;

    /// The lab's start size n and seed; redraws.
    void setStream(std::uint64_t startSize, std::uint64_t seed);

    QComboBox *queryCombo() const { return m_query; }
    /// Arrival order: "sorted:region == \"south\"" (the default: the southern rows last, so the
    /// share of the south crosses a threshold late in the stream) or "random".
    QComboBox *orderCombo() const { return m_order; }
    QDoubleSpinBox *thresholdSpin() const { return m_threshold; }
    QDoubleSpinBox *sigmaSpin() const { return m_sigma; }
    QDoubleSpinBox *exponentSpin() const { return m_exponent; }
    QSpinBox *capSpin() const { return m_cap; }
    QCheckBox *naiveCheck() const { return m_naive; }
    GrowingChart *chart() const { return m_chart; }
    GrowingBarChart *naiveChart() const { return m_naiveChart; }
    /// The configuration drawn (the lab's stream and the panel's fields).
    AtgTraceConfig config() const;
    std::uint64_t seed() const { return m_seed; }
    /// The trace drawn, or nothing when the input is invalid (errorText() says why).
    const std::optional<AtgTrace> &trace() const { return m_trace; }
    QString errorText() const;
    /// The per-round costs and NSG's realised against worst-case loss, as shown.
    QString noteText() const;
    /// The counter-example's text (empty while the toggle is off).
    QString naiveText() const;
    /// What one round started at s = n costs if it halts at t_h = n, 10n, 100n or 1000n: ATG's
    /// f(s) + f(t_h) and the naive fraction-scale design's true loss (growing::atgLoss,
    /// growing::naiveFractionScaleLoss), rounded up to four digits, as an HTML table with one row per
    /// t_h (cells: t_h, ATG, naive). Empty when σ_n or p is invalid.
    QString roundCostsText() const;

    /// Recomputes and redraws (the fields call it on every change).
    void redraw();

protected:
    void showEvent(QShowEvent *event) override;

private:
    void drawNaive();
    void drawRoundCosts();

    QComboBox *m_query = nullptr;
    QComboBox *m_order = nullptr;
    QDoubleSpinBox *m_threshold = nullptr;
    QDoubleSpinBox *m_sigma = nullptr;
    QDoubleSpinBox *m_exponent = nullptr;
    QSpinBox *m_cap = nullptr;
    QSpinBox *m_queries = nullptr;
    QCheckBox *m_naive = nullptr;
    QLabel *m_error = nullptr;
    GrowingChart *m_chart = nullptr;
    QLabel *m_note = nullptr;
    QLabel *m_roundCosts = nullptr;
    GrowingBarChart *m_naiveChart = nullptr;
    QLabel *m_naiveNote = nullptr;

    std::uint64_t m_startSize = 1000;
    std::uint64_t m_seed = 1;
    std::unique_ptr<data::Table> m_table; ///< CPS1988, loaded once
    QString m_loadError;
    std::optional<AtgTrace> m_trace;
};

} // namespace pbx::ui
