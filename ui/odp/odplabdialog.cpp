// SPDX-License-Identifier: MIT
#include "ui/odp/odplabdialog.h"

#include "core/accounting/optimal_composition.h"
#include "core/datasets/cps1988_recovery.h"
#include "core/filters/budget_account.h"
#include "core/filters/odp_filter.h"
#include "core/mechanisms/noise_source.h"
#include "core/odp/budget_recovery.h"
#include "core/odp/crossover.h"
#include "core/odp/early_stop_filters.h"
#include "core/odp/early_stopping.h"
#include "core/odp/ptr_iqr.h"
#include "core/odp/sparse_vector.h"
#include "ui/charts/odpcellchart.h"
#include "ui/charts/odplinechart.h"
#include "ui/charts/ptrflowdiagram.h"
#include "ui/help/glossarylinks.h"
#include "ui/sessiondocument.h"
#include "ui/util/numberformat.h"
#include "ui/widgets/screenfit.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QRandomGenerator>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace pbx::ui {

namespace {
const QColor kDp(0x80, 0x80, 0x80);
const QColor kFilter(0x1f, 0x77, 0xb4);
const QColor kOdp(0xd6, 0x27, 0x28);
const QColor kReserved(0xff, 0x7f, 0x0e);
const QColor kRdpFilter(0x8c, 0x56, 0x4b); // brown: the green is the "returned" bar's

QLabel *note(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setWordWrap(true);
    // A fixed explanation links its terms to Help ▸ Glossary; notes filled in later stay plain.
    if (text.isEmpty())
        label->setText(text);
    else
        setGlossaryLinkedPlainText(label, text);
    return label;
}
} // namespace

OdpLabDialog::OdpLabDialog(QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("Output DP lab"));
    m_tabs = new QTabWidget(this);
    m_tabs->addTab(buildCellsTab(), tr("Cells"));
    m_tabs->addTab(buildFilterTab(), tr("Filter path"));
    m_tabs->addTab(buildSvtTab(), tr("Sparse vector"));
    m_tabs->addTab(buildPtrTab(), tr("Propose-test-release"));
    m_tabs->addTab(buildEarlyStopTab(), tr("Early stopping"));
    m_tabs->addTab(buildRecoveryTab(), tr("Budget recovery"));
    m_tabs->addTab(buildCrossoverTab(), tr("Crossover"));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(
        note(tr("Output DP charges a mechanism for the cell its output fell into; the filter admits it "
                "by its worst cell and always debits δ in full (Hartmann et al. 2023, Theorem 7). "
                "This lab uses public parameters only: no data are read and nothing is charged."),
             this));
    layout->addWidget(m_tabs, 1);
    layout->addWidget(buttons);
    connect(&m_watcher, &QFutureWatcher<SvtFigureOutcome>::finished, this, &OdpLabDialog::onSvtFinished);
    connect(&m_watcher, &QFutureWatcher<SvtFigureOutcome>::progressRangeChanged, m_progress,
            &QProgressBar::setRange);
    connect(&m_watcher, &QFutureWatcher<SvtFigureOutcome>::progressValueChanged, m_progress,
            &QProgressBar::setValue);
    resizeWithinScreen(this, QSize(960, 820));
    keepFrameInsideScreen(this);
}

OdpLabDialog::~OdpLabDialog()
{
    m_watcher.cancel();
    m_watcher.waitForFinished();
    m_recoveryWatcher.cancel();
    m_recoveryWatcher.waitForFinished();
}

QWidget *OdpLabDialog::buildCellsTab()
{
    auto *tab = new QWidget(this);
    m_cellPreset = new QComboBox(tab);
    m_cellPreset->addItems({tr("Toy coin mechanism: heads → f(D) + Lap(Δ/ε), tails → ⊥ (ε = 1)"),
                            tr("Sparse vector, c = 4, ε_SVT = 0.5"), tr("Budget recovery, CPS1988 plan"),
                            tr("PTR-IQR as two filter entries, noisy mode, ε = 1")});
    m_cellRealised = new QComboBox(tab);
    m_cellRemaining = new QDoubleSpinBox(tab);
    m_cellRemaining->setRange(0.0, 100.0);
    m_cellRemaining->setDecimals(3);
    m_cellRemaining->setValue(2.0);
    m_coin = new QPushButton(tr("Flip the coin"), tab);
    m_cellNote = note(QString(), tab);
    m_cellChart = new OdpCellChart(tab);
    auto *form = new QFormLayout;
    form->addRow(tr("Mechanism"), m_cellPreset);
    auto *realised = new QHBoxLayout;
    realised->addWidget(m_cellRealised, 1);
    realised->addWidget(m_coin);
    form->addRow(tr("Realised cell"), realised);
    form->addRow(tr("ε left in the session, ε_r"), m_cellRemaining);
    connect(m_cellPreset, &QComboBox::currentIndexChanged, this, [this] {
        m_cellRealised->setCurrentIndex(0);
        updateCells();
    });
    connect(m_cellRealised, &QComboBox::currentIndexChanged, this, &OdpLabDialog::updateCells);
    connect(m_cellRemaining, &QDoubleSpinBox::valueChanged, this, &OdpLabDialog::updateCells);
    connect(m_coin, &QPushButton::clicked, this, [this] {
        // A fair coin: the toy mechanism reads no data, so its output can be drawn here.
        m_cellRealised->setCurrentIndex(1 + static_cast<int>(QRandomGenerator::global()->bounded(2)));
    });
    auto *layout = new QVBoxLayout(tab);
    layout->addLayout(form);
    layout->addWidget(m_cellChart, 1);
    layout->addWidget(m_cellNote);
    updateCells();
    return tab;
}

void OdpLabDialog::updateCells()
{
    const int preset = m_cellPreset->currentIndex();
    std::vector<OdpCellChart::Cell> cells;
    QString text;
    switch (preset) {
    case 0:
        cells = {{tr("⊥ (tails)"), 0.0}, {tr("ℝ (heads)"), 1.0}};
        text = tr(
            "The first lesson (the toy example of Hartmann et al. 2023): the output ⊥ says nothing about the data, so "
            "it costs 0; a number costs ε. A DP accountant charges ε either way.");
        break;
    case 1: {
        const auto split = odp::lyuSplit(0.5, 4);
        const auto g = odp::svtGuarantee({split->epsilon1, split->epsilon2, 4, 1.0});
        for (const auto &c : g->cells)
            cells.push_back({QStringLiteral("j = %1").arg(c.id), c.epsilon});
        text = tr("E(j) = ε₁ + jε₂/c after j positives (ε₁ = %1, ε₂ = %2): a scan that flags few entries "
                  "pays for few.")
                   .arg(split->epsilon1, 0, 'g', 4)
                   .arg(split->epsilon2, 0, 'g', 4);
        break;
    }
    case 2: {
        const auto split = odp::cps1988RecoverySplitSizes(cps1988Rows());
        const auto c = odp::calibrateRecovery(odp::RecoveryParameters{}, split.trainRows, split.testRows);
        cells
            = {{tr("⊥ (test failed)"), c ? c->bottomCost : 0.0}, {tr("released"), c ? c->releaseCost : 0.0}};
        text = tr("A model that fails its private test is not released and costs only the test, ε_t.");
        break;
    }
    default: {
        const auto c = odp::ptrCaseCosts(odp::PtrAccounting::Entries, odp::IqrReleaseMode::Noisy, 1.0, 1e-6);
        cells = {{tr("case 1: M1 released"), c.epsilon[0]},
                 {tr("case 2: M2 released"), c.epsilon[1]},
                 {tr("case 3: both ⊥"), c.epsilon[2]}};
        text = tr("Each PTR function is a filter entry: ⊥ costs its test, a release its test and release.");
        break;
    }
    }
    // Keep the realised choice when only ε_r changed.
    const int chosen = m_cellRealised->currentIndex();
    const QSignalBlocker block(m_cellRealised);
    m_cellRealised->clear();
    m_cellRealised->addItem(tr("not run yet"));
    for (const auto &c : cells)
        m_cellRealised->addItem(c.label);
    m_cellRealised->setCurrentIndex(std::clamp(chosen, 0, static_cast<int>(cells.size())));
    m_coin->setEnabled(preset == 0);
    m_coin->setToolTip(preset == 0 ? tr("Draw the toy mechanism's output")
                                   : tr("This mechanism's cell depends on the data: choose one to see what "
                                        "it returns"));
    const int realised = m_cellRealised->currentIndex() - 1;
    m_cellChart->setCells(m_cellPreset->currentText(), cells, m_cellRemaining->value(),
                          realised >= 0 ? std::optional<int>(realised) : std::nullopt);
    m_cellNote->setText(text + QStringLiteral(" ") + m_cellChart->annotation() + QStringLiteral("."));
}

QWidget *OdpLabDialog::buildFilterTab()
{
    // The demonstration session: budget (2, 1e-5), ten requests with their worst cases, realised
    // cells and δ; plain DP accounting charges the worst case and refuses the early-stopped run.
    struct Step
    {
        const char *label;
        double worst;
        double realised;
        double delta;
    };
    const Step steps[] = {{"Laplace count", 0.25, 0.25, 0},
                          {"sparse vector (j = 1 of 4)", 0.5, 0.2, 0},
                          {"Laplace release", 0.3, 0.3, 0},
                          {"PTR-IQR M1 (⊥)", 0.4, 0.2, 1e-6},
                          {"PTR-IQR M2 (released)", 0.4, 0.4, 1e-6},
                          {"early stop (at k1)", 0.6, 0.3, 4e-6},
                          {"budget recovery (ε_p = 0.4)", 0.4, 0.05, 0},
                          {"budget recovery (⊥)", 0.35, 0.05, 0},
                          {"Gaussian", 0.3, 0.3, 4e-6}};
    auto filter = odp::OdpFilter::create(2.0, 1e-5);
    filters::BudgetAccount plain(2.0);
    bool plainRefused = false;
    OdpLineChart::Curve reserved{tr("reserved (worst case)"), kReserved, Qt::DashLine, {0}, {0}, true};
    OdpLineChart::Curve settled{tr("spent a posteriori (ODP)"), kOdp, Qt::SolidLine, {0}, {0}, true};
    OdpLineChart::Curve dp{tr("plain DP accounting"), kDp, Qt::SolidLine, {0}, {0}, true};
    OdpLineChart::Curve certificate{
        tr("certificate (worst case admitted, ε_g = 2)"), Qt::black, Qt::DotLine, {0, 9}, {2, 2}};
    OdpLineChart::Curve deltas{tr("δ debited (always in full)"), kFilter, Qt::SolidLine, {0}, {0}, true};
    QStringList refused;
    for (int i = 0; i < 9; ++i) {
        const Step &s = steps[i];
        const double x = i + 1;
        // A step asking for exactly what is left (up to round-off in the decimal costs) is
        // calibrated to the remainder; anything more is refused.
        const double remaining = filter->epsilonRemaining();
        const double worst = std::abs(s.worst - remaining) < 1e-9 ? remaining : s.worst;
        const double deltaLeft = filter->deltaRemaining();
        const double delta = std::abs(s.delta - deltaLeft) < 1e-15 ? deltaLeft : s.delta;
        odp::OdpGuarantee g{{{0, "realised", std::min(s.realised, worst)}, {1, "worst", worst}}, delta};
        const double before = filter->epsilonSpent();
        auto id = filter->reserve(g, s.label);
        if (id) {
            reserved.x.push_back(x);
            reserved.y.push_back(before + worst);
            (void)filter->settle(*id, 0);
        } else {
            refused << QString::fromUtf8(s.label);
        }
        settled.x.push_back(x);
        settled.y.push_back(filter->epsilonSpent());
        deltas.x.push_back(x);
        deltas.y.push_back(filter->deltaSpent() * 1e6);
        if (!plainRefused && plain.fits(s.worst)) {
            plain.add(s.worst);
            dp.x.push_back(x);
            dp.y.push_back(plain.spent());
        } else {
            plainRefused = true;
        }
    }
    auto *tab = new QWidget(this);
    m_filterChart = new OdpLineChart(tab);
    m_filterChart->setTitles(tr("ε over the session (budget 2, δ 1e-5)"), tr("request"), tr("ε"));
    m_filterChart->setCurves({reserved, settled, dp, certificate});
    m_deltaChart = new OdpLineChart(tab);
    m_deltaChart->setTitles(tr("δ over the session"), tr("request"), tr("δ (× 10⁻⁶)"));
    m_deltaChart->setCurves({deltas});
    m_deltaChart->setMaximumHeight(240);
    m_filterNote
        = note(tr("Plain DP accounting stops at request 6 (1.85 + 0.6 > 2). The ODP filter refused: %1. "
                  "\"Spent a posteriori\" decides admission; the transcript's guarantee is the budget.")
                   .arg(refused.isEmpty() ? tr("nothing") : refused.join(QStringLiteral(", "))),
               tab);
    auto *layout = new QVBoxLayout(tab);
    layout->addWidget(m_filterChart, 3);
    layout->addWidget(m_deltaChart, 1);
    layout->addWidget(m_filterNote);
    return tab;
}

QWidget *OdpLabDialog::buildSvtTab()
{
    auto *tab = new QWidget(this);
    m_svtPreset = new QComboBox(tab);
    m_svtPreset->addItems(
        {tr("Well separated (large 1000, threshold 500)"), tr("Noisy (large 100, threshold 50)")});
    m_entries = new QSpinBox(tab);
    m_entries->setRange(1, 1000);
    m_entries->setValue(100);
    m_big = new QDoubleSpinBox(tab);
    m_big->setRange(0, 1e6);
    m_big->setValue(1000);
    m_threshold = new QDoubleSpinBox(tab);
    m_threshold->setRange(-1e6, 1e6);
    m_threshold->setValue(500);
    m_cutoff = new QSpinBox(tab);
    m_cutoff->setRange(1, 100);
    m_cutoff->setValue(10);
    m_epsilon = new QDoubleSpinBox(tab);
    m_epsilon->setDecimals(3);
    m_epsilon->setRange(0.001, 100);
    m_epsilon->setValue(1.0);
    connect(m_svtPreset, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_big->setValue(index == 0 ? 1000 : 100);
        m_threshold->setValue(index == 0 ? 500 : 50);
    });
    m_simLarge = new QSpinBox(tab);
    m_simLarge->setRange(0, 1000);
    m_simLarge->setValue(3);
    m_simSeed = new QSpinBox(tab);
    m_simSeed->setRange(0, 1000000);
    m_simSeed->setValue(1);
    auto *simulate = new QPushButton(tr("Simulate one run"), tab);
    connect(simulate, &QPushButton::clicked, this, &OdpLabDialog::simulateSvtRun);
    auto *form = new QFormLayout;
    form->addRow(tr("Preset"), m_svtPreset);
    form->addRow(tr("Entries N"), m_entries);
    form->addRow(tr("Large value"), m_big);
    form->addRow(tr("Threshold T"), m_threshold);
    auto *form2 = new QFormLayout;
    form2->addRow(tr("Cut-off c"), m_cutoff);
    form2->addRow(tr("Total ε (half to the SVT)"), m_epsilon);
    form2->addRow(tr("Timeline: large entries L"), m_simLarge);
    auto *seedRow = new QHBoxLayout;
    seedRow->addWidget(m_simSeed, 1);
    seedRow->addWidget(simulate);
    form2->addRow(tr("Timeline: seed"), seedRow);
    auto *forms = new QHBoxLayout;
    forms->addLayout(form, 1);
    forms->addLayout(form2, 1);
    m_compute = new QPushButton(tr("Compute"), tab);
    m_cancel = new QPushButton(tr("Cancel"), tab);
    m_cancel->setEnabled(false);
    m_progress = new QProgressBar(tab);
    connect(m_compute, &QPushButton::clicked, this, &OdpLabDialog::computeSvtFigure);
    connect(m_cancel, &QPushButton::clicked, this, &OdpLabDialog::cancelSvtFigure);
    auto *run = new QHBoxLayout;
    run->addWidget(m_compute);
    run->addWidget(m_cancel);
    run->addWidget(m_progress, 1);
    m_svtChart = new OdpLineChart(tab);
    m_svtChart->setTitles(tr("Noise of each released entry"), tr("number of large entries L"),
                          tr("expected std. dev."));
    m_svtChart->setSecondaryTitle(tr("P(j = 0)"));
    m_svtChart->setEmptyMessage(tr("Nothing to draw yet: press Compute."));
    m_svtNote = note(
        tr("Sparse vector costs ε₁ + j·ε₂/c after j positives (Hartmann et al. 2023, Lemma 8); the flagged entries share "
           "what is left. Press Compute."),
        tab);
    m_svtTimeline = new OdpLineChart(tab);
    m_svtTimeline->setTitles(tr("One simulated run: ⊤/⊥ and the cost"), tr("query i (entry scanned)"),
                             tr("ε charged so far"));
    m_simNote = note(QString(), tab);
    auto *charts = new QHBoxLayout;
    auto *timeline = new QVBoxLayout;
    timeline->addWidget(m_svtTimeline, 1);
    timeline->addWidget(m_simNote);
    auto *figure = new QVBoxLayout;
    figure->addLayout(run);
    figure->addWidget(m_svtChart, 1);
    figure->addWidget(m_svtNote);
    charts->addLayout(timeline, 1);
    charts->addLayout(figure, 1);
    auto *layout = new QVBoxLayout(tab);
    layout->addLayout(forms);
    layout->addLayout(charts, 1);
    simulateSvtRun();
    return tab;
}

void OdpLabDialog::simulateSvtRun()
{
    // Public data only: a vector of N entries, L of them at the large value (spread evenly), the
    // rest 0; seeded noise. The cost after each query is E(j) = ε₁ + jε₂/c (Lemma 8).
    const int entries = m_entries->value();
    const int large = std::min(m_simLarge->value(), entries);
    const int cutoff = m_cutoff->value();
    const double epsilon = m_epsilon->value();
    std::vector<std::int64_t> f(static_cast<std::size_t>(entries), 0);
    std::vector<double> largeAt;
    for (int l = 0; l < large; ++l) {
        const int i = static_cast<int>((static_cast<std::int64_t>(l) * entries + entries / 2) / large);
        f[static_cast<std::size_t>(i)] = static_cast<std::int64_t>(std::llround(m_big->value()));
        largeAt.push_back(i + 1);
    }
    const auto split = odp::lyuSplit(0.5 * epsilon, cutoff);
    if (!split) {
        m_simNote->setText(QString::fromStdString(split.error().message));
        return;
    }
    const odp::SvtParameters p{split->epsilon1, split->epsilon2, cutoff, 1.0};
    auto source = mechanisms::NoiseSource::seeded(static_cast<std::uint64_t>(m_simSeed->value()), 0);
    auto run = odp::releaseLargeEntries(f, std::llround(m_threshold->value()), p, epsilon, source.bits());
    if (!run) {
        m_simNote->setText(QString::fromStdString(run.error().message));
        return;
    }
    OdpLineChart::Curve staircase{tr("E(j)"), kFilter, Qt::SolidLine, {0}, {p.epsilon1}};
    OdpLineChart::Curve top{tr("⊤"), kOdp, Qt::SolidLine, {}, {}, false, true};
    OdpLineChart::Curve bottom{tr("⊥"), kDp, Qt::SolidLine, {}, {}, false, true, 4.0};
    int j = 0;
    for (std::size_t i = 0; i < run->answers.size(); ++i) {
        const double x = static_cast<double>(i + 1);
        staircase.x.push_back(x);
        staircase.y.push_back(odp::svtCellCost(p, j)); // a step: the level before this answer
        if (run->answers[i])
            ++j;
        staircase.x.push_back(x);
        staircase.y.push_back(odp::svtCellCost(p, j));
        (run->answers[i] ? top : bottom).x.push_back(x);
        (run->answers[i] ? top : bottom).y.push_back(odp::svtCellCost(p, j));
    }
    const double last = std::max(1.0, static_cast<double>(run->answers.size()));
    OdpLineChart::Curve cut{tr("cut-off E(c)"),
                            Qt::black,
                            Qt::DashLine,
                            {0, last},
                            {odp::svtCellCost(p, cutoff), odp::svtCellCost(p, cutoff)}};
    OdpLineChart::Curve truth{tr("large entry"), kReserved, Qt::SolidLine, {}, {}, false, true, 7.0};
    for (double x : largeAt)
        if (x <= last) {
            truth.x.push_back(x);
            truth.y.push_back(0.0);
        }
    m_svtTimeline->setCurves({staircase, cut, top, bottom, truth});
    m_simNote->setText(
        tr("Public vector: N entries, L of them at the large value (orange, at 0), the rest 0; seeded noise. "
           "The staircase is E(j) = ε₁ + jε₂/c, the dashed line E(c) = ε₁ + ε₂. %1, j = %2 of c = %3 "
           "flagged%4: the sparse vector cost %5 of the %6 reserved for it; the %2 released entries share "
           "ε − E(j) = %7.")
            .arg(formatCount(static_cast<qint64>(run->answers.size()), tr("query"), tr("queries")))
            .arg(run->j)
            .arg(cutoff)
            .arg(run->j == cutoff ? tr(" (halted at the cut-off)") : QString())
            .arg(run->svtCost, 0, 'g', 4)
            .arg(odp::svtCellCost(p, cutoff), 0, 'g', 4)
            .arg(run->releaseEpsilon, 0, 'g', 4));
}

void OdpLabDialog::computeSvtFigure()
{
    if (svtRunning())
        return;
    SvtFigureInput input;
    input.entries = m_entries->value();
    input.big = m_big->value();
    input.threshold = m_threshold->value();
    input.cutoff = m_cutoff->value();
    input.epsilon = m_epsilon->value();
    input.largestCount = std::min(input.entries, 2 * input.cutoff);
    m_compute->setEnabled(false);
    m_cancel->setEnabled(true);
    m_progress->setValue(0);
    m_svtChart->setComputing(true); // the last figure stays, greyed, until this one is drawn
    m_watcher.setFuture(startSvtFigure(input));
}

bool OdpLabDialog::svtRunning() const
{
    return m_watcher.isRunning();
}

void OdpLabDialog::waitForSvtFigure()
{
    m_watcher.waitForFinished();
    QCoreApplication::processEvents();
}

void OdpLabDialog::cancelSvtFigure()
{
    m_watcher.cancel();
}

void OdpLabDialog::onSvtFinished()
{
    m_svtChart->setComputing(false);
    m_compute->setEnabled(true);
    m_cancel->setEnabled(false);
    const auto future = m_watcher.future();
    if (m_watcher.isCanceled() || future.resultCount() == 0) {
        m_svtNote->setText(tr("Cancelled."));
        return;
    }
    const SvtFigureOutcome outcome = future.result();
    if (!outcome.error.isEmpty()) {
        m_svtNote->setText(outcome.error);
        return;
    }
    OdpLineChart::Curve dp{tr("plain DP (always c entries)"), kDp, Qt::DashLine, {}, {}};
    OdpLineChart::Curve filter{tr("privacy filter"), kFilter, Qt::SolidLine, {}, {}, true};
    OdpLineChart::Curve odpCurve{tr("ODP"), kOdp, Qt::SolidLine, {}, {}, true};
    OdpLineChart::Curve nothing{
        tr("P(j = 0): nothing released (right axis)"), Qt::black, Qt::DotLine, {}, {}};
    nothing.rightAxis = true;
    QString pNothing;
    for (const auto &row : outcome.rows) {
        nothing.x.push_back(row.large);
        nothing.y.push_back(row.pNothing);
        dp.x.push_back(row.large);
        dp.y.push_back(row.dpStd);
        if (row.pNothing < 1.0) {
            filter.x.push_back(row.large);
            filter.y.push_back(row.filterStd);
            odpCurve.x.push_back(row.large);
            odpCurve.y.push_back(row.odpStd);
        }
        if (row.large <= 3)
            pNothing += tr(" L=%1: %2").arg(row.large).arg(row.pNothing, 0, 'g', 3);
    }
    m_svtChart->setCurves({dp, filter, odpCurve, nothing});
    m_svtNote->setText(tr("ε₁ = %1, ε₂ = %2 (Lyu et al.'s split). Probability that nothing is released:%3. "
                          "Exact expectations (quadrature), conditioned on at least one release.")
                           .arg(outcome.epsilon1, 0, 'g', 4)
                           .arg(outcome.epsilon2, 0, 'g', 4)
                           .arg(pNothing));
}

QWidget *OdpLabDialog::buildEarlyStopTab()
{
    auto *tab = new QWidget(this);
    m_earlyPreset = new QComboBox(tab);
    m_earlyPreset->addItems({tr("100 Laplace steps, ε₀ = 0.05, stops every 20, δ = 1e-6"),
                             tr("1000 Gaussian steps, noise multiplier 30, stops every 100, δ = 1e-5")});
    m_earlyStop = new QSpinBox(tab);
    m_earlyStop->setRange(1, 5);
    m_earlyStop->setValue(2);
    m_earlyStop->setPrefix(tr("realised stop: j = "));
    m_earlyStop->setToolTip(tr("The stopping point the run reached (it depends on the data; choose one)"));
    m_earlyChart = new OdpLineChart(tab);
    m_earlyChart->setTitles(tr("ε charged if training stops at step k"), tr("stopping point k"), tr("ε"));
    m_earlyNote = note(QString(), tab);
    connect(m_earlyPreset, &QComboBox::currentIndexChanged, this, &OdpLabDialog::updateEarlyStop);
    connect(m_earlyStop, &QSpinBox::valueChanged, this, &OdpLabDialog::updateEarlyStop);
    auto *top = new QHBoxLayout;
    top->addWidget(m_earlyPreset, 1);
    top->addWidget(m_earlyStop);
    auto *layout = new QVBoxLayout(tab);
    layout->addLayout(top);
    layout->addWidget(m_earlyChart, 1);
    layout->addWidget(m_earlyNote);
    updateEarlyStop();
    return tab;
}

void OdpLabDialog::setEarlyStop(int j)
{
    m_earlyStop->setValue(j);
}

void OdpLabDialog::updateEarlyStop()
{
    const bool laplace = m_earlyPreset->currentIndex() == 0;
    std::vector<std::int64_t> stops;
    for (int j = 1; j <= (laplace ? 5 : 10); ++j)
        stops.push_back((laplace ? 20 : 100) * j);
    odp::IterativeSteps steps;
    if (laplace) {
        steps.stepEpsilon = 0.05;
    } else {
        steps.kind = odp::IterativeSteps::Kind::Gaussian;
        steps.noiseMultiplier = 30.0;
    }
    const auto composition = laplace ? odp::StepComposition::Kov : odp::StepComposition::Gaussian;
    const double delta = laplace ? 1e-6 : 1e-5;
    auto plan = odp::lemma11Plan(stops, steps, composition, delta, odp::DeltaSplit::Equal);
    if (!plan) {
        m_earlyNote->setText(QString::fromStdString(plan.error().message));
        return;
    }
    std::vector<double> xs(stops.begin(), stops.end());
    std::vector<OdpLineChart::Curve> curves;
    curves.push_back({tr("plain DP, all %1").arg(formatCount(stops.back(), tr("step"), tr("steps"))),
                      kDp,
                      Qt::DashLine,
                      {xs.front(), xs.back()},
                      {plan->dpEpsilon, plan->dpEpsilon}});
    curves.push_back({tr("ODP, a cell per stopping point (equal δ split)"), kFilter, Qt::SolidLine, xs,
                      plan->costs, true});
    // The realised stop and what it returned against plain DP (negative at the last stops).
    m_earlyStop->setMaximum(static_cast<int>(stops.size()));
    const std::size_t j
        = static_cast<std::size_t>(std::clamp(m_earlyStop->value(), 1, static_cast<int>(stops.size())) - 1);
    const double charged = plan->costs[j];
    const double returned = plan->dpEpsilon - charged;
    curves.push_back({tr("realised stop k = %1").arg(stops[j]),
                      Qt::black,
                      Qt::SolidLine,
                      {xs[j]},
                      {charged},
                      false,
                      true,
                      12.0});
    curves.push_back({returned >= 0 ? tr("returned %1").arg(returned, 0, 'f', 3)
                                    : tr("overpaid %1").arg(-returned, 0, 'f', 3),
                      returned >= 0 ? QColor(0x2c, 0xa0, 0x2c) : QColor(0x94, 0x67, 0xbd),
                      Qt::SolidLine,
                      {xs[j], xs[j]},
                      {charged, plan->dpEpsilon}});
    auto proportional = odp::lemma11Plan(stops, steps, composition, delta, odp::DeltaSplit::Proportional);
    if (proportional)
        curves.push_back({tr("ODP, a cell per stopping point (δ ∝ k)"), kFilter, Qt::DotLine, xs,
                          proportional->costs, true});
    QString extra = tr(" Stopped at k = %1: charged %2, %3 %4 against plain DP.")
                        .arg(stops[j])
                        .arg(charged, 0, 'f', 3)
                        .arg(returned >= 0 ? tr("returned") : tr("overpaid"))
                        .arg(std::abs(returned), 0, 'f', 3);
    if (laplace) {
        std::vector<double> basic;
        for (auto k : stops)
            basic.push_back(0.05 * static_cast<double>(k));
        curves.push_back({tr("per-step charges (basic)"), kReserved, Qt::DotLine, xs, basic, true});
        auto tuned = odp::tuneWithTheorem15(stops, steps, composition, delta);
        if (tuned) {
            curves.push_back(
                {tr("ODP, δ's tuned to the exact total δ"), kOdp, Qt::SolidLine, xs, tuned->costs, true});
            extra
                += tr(" The exact δ of the costs (Hartmann et al. 2023, Theorem 15) lets every δ'_j grow by %1 at the same total δ.")
                       .arg(tuned->scale, 0, 'f', 4);
        }
    }
    // The same run under a Rényi filter (Feldman & Zrnic 2021; Lécuyer 2021): the budget, fixed
    // before the run, that lets it continue to each k (its guarantee wherever it stops).
    if (auto filters = odp::filterBudgetsForStops(stops, steps, delta)) {
        std::vector<double> rdp;
        for (const auto &b : *filters)
            rdp.push_back(b.rdpEpsilon);
        curves.push_back({tr("Rényi filter: budget to reach k"), kRdpFilter, Qt::DashDotLine, xs, rdp, true});
        extra += tr(" A Rényi filter (24 orders, δ/24 each) needs a budget of %1 to reach k = %2, and it is "
                    "the guarantee wherever the run stops.")
                     .arg(filters->back().rdpEpsilon, 0, 'f', 3)
                     .arg(stops.back());
    }
    m_earlyChart->setCurves(curves);
    m_earlyNote->setText(
        tr("Stopping early is cheap; running to the end costs %1 instead of %2, because δ is split "
           "over every stopping point (Hartmann et al. 2023, Lemma 11).%3")
            .arg(plan->costs.back(), 0, 'f', 3)
            .arg(plan->dpEpsilon, 0, 'f', 3)
            .arg(extra));
}

QWidget *OdpLabDialog::buildCrossoverTab()
{
    auto *tab = new QWidget(this);
    const double eps0[] = {0.01, 0.05, 0.1, 0.25, 0.5, 1, 2};
    const double deltas[] = {1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9};
    m_crossover = new QTableWidget(7, 7, tab);
    QStringList columns;
    for (double d : deltas)
        columns << QStringLiteral("δ = %1").arg(d, 0, 'g', 1);
    QStringList rows;
    for (double e : eps0)
        rows << QStringLiteral("ε₀ = %1").arg(e);
    m_crossover->setHorizontalHeaderLabels(columns);
    m_crossover->setVerticalHeaderLabels(rows);
    m_crossover->setEditTriggers(QAbstractItemView::NoEditTriggers);
    for (int i = 0; i < 7; ++i)
        for (int j = 0; j < 7; ++j) {
            auto k = odp::crossoverK(eps0[i], deltas[j]);
            auto *item = new QTableWidgetItem(k ? QString::number(*k) : QStringLiteral("—"));
            item->setTextAlignment(Qt::AlignCenter);
            if (k) { // heat: log-scaled from pale (small k) to strong (large k)
                const double t = std::min(1.0, std::log(static_cast<double>(*k)) / std::log(200.0));
                item->setBackground(QColor::fromHsvF(0.0, 0.15 + 0.6 * t, 1.0));
            }
            m_crossover->setItem(i, j, item);
        }
    m_crossover->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_crossover->verticalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_crossover->setSelectionMode(QAbstractItemView::SingleSelection);
    m_crossoverChart = new OdpLineChart(tab);
    connect(m_crossover, &QTableWidget::currentCellChanged, this,
            [this](int row, int column) { updateCrossoverChart(row, column); });
    auto *layout = new QVBoxLayout(tab);
    layout->addWidget(
        note(tr("k_min: the fewest ε₀-DP mechanisms for which optimal composition "
                "(Kairouz et al., Thm 3.3) beats basic composition kε₀ at the given δ. Below it, "
                "basic composition — and ODP, which builds on it — is the best available. Darker: "
                "larger k_min (log scale, saturating at 200). Select a cell for its curves."),
             tab));
    layout->addWidget(m_crossover, 2);
    layout->addWidget(m_crossoverChart, 3);
    m_crossover->setCurrentCell(2, 2);
    updateCrossoverChart(2, 2);
    return tab;
}

void OdpLabDialog::updateCrossoverChart(int row, int column)
{
    if (row < 0 || column < 0)
        return;
    const double eps0[] = {0.01, 0.05, 0.1, 0.25, 0.5, 1, 2};
    const double deltas[] = {1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9};
    const double e0 = eps0[row];
    const double delta = deltas[column];
    const auto kMin = odp::crossoverK(e0, delta);
    if (!kMin)
        return;
    const std::int64_t last = std::max<std::int64_t>(8, 2 * *kMin);
    OdpLineChart::Curve simple{tr("basic composition kε₀ (ODP's basis)"), kDp, Qt::SolidLine, {}, {}};
    OdpLineChart::Curve ladder{tr("KOV Thm 3.3 ladder ε₀(k − 2i)"), kFilter, Qt::DashLine, {}, {}};
    OdpLineChart::Curve optimal{tr("optimal (exact KOV curve)"), kOdp, Qt::SolidLine, {}, {}};
    for (std::int64_t k = 1; k <= last; ++k) {
        const double x = static_cast<double>(k);
        simple.x.push_back(x);
        simple.y.push_back(x * e0);
        if (auto g = accounting::kovGridEpsilon(e0, 0.0, k, delta)) {
            ladder.x.push_back(x);
            ladder.y.push_back(std::min(*g, x * e0));
        }
        if (auto o = accounting::kovOptimalEpsilon(e0, 0.0, k, delta)) {
            optimal.x.push_back(x);
            optimal.y.push_back(std::min(*o, x * e0));
        }
    }
    const double km = static_cast<double>(*kMin);
    OdpLineChart::Curve marker{tr("k_min = %1: below it ODP/basic is best").arg(*kMin),
                               Qt::black,
                               Qt::DotLine,
                               {km, km},
                               {0, km * e0}};
    m_crossoverChart->setTitles(tr("ε of k mechanisms, ε₀ = %1, δ = %2: left of k_min, ODP/basic is best")
                                    .arg(e0)
                                    .arg(delta, 0, 'g', 1),
                                tr("k (mechanisms composed)"), tr("ε"));
    m_crossoverChart->setCurves({simple, ladder, optimal, marker});
}

QWidget *OdpLabDialog::buildPtrTab()
{
    auto *tab = new QWidget(this);
    m_ptrPreset = new QComboBox(tab);
    m_ptrPreset->addItems({tr("CPS1988 wage, all 28,155 rows: γ₁ = 223, γ₂ = 171 (passes)"),
                           tr("CPS1988 wage, afam/west subgroup (195 rows): γ₁ = 3, γ₂ = 8 (both ⊥)")});
    m_ptrChart = new OdpLineChart(tab);
    m_ptrChart->setFixedYRange(0.0, 1.0);
    m_ptrChart->setTitles(tr("P[test passes] against γ (δ_f = 1e-6, g₀ = 2)"),
                          tr("γ (records to change the IQR's bin)"), tr("pass probability"));
    // The four accountings of the two-discretisation mechanism, noisy mode, in units of ε.
    m_ptrCosts = new QTableWidget(4, 4, tab);
    m_ptrCosts->setHorizontalHeaderLabels({tr("case 1: M1 released"), tr("case 2: M2 released"),
                                           tr("case 3: both ⊥"), tr("δ (case 1 / 2 / 3)")});
    m_ptrCosts->setVerticalHeaderLabels(
        {tr("DP of S"), tr("two cells"), tr("three cells"), tr("two filter entries")});
    const odp::PtrAccounting kinds[] = {odp::PtrAccounting::Dp, odp::PtrAccounting::Lemma10,
                                        odp::PtrAccounting::Cells3, odp::PtrAccounting::Entries};
    const QString deltaText[]
        = {tr("1−(1−δ_f)² each"), tr("1−(1−δ_f)² each"), tr("2δ_f each"), tr("δ_f / 2δ_f / 2δ_f")};
    for (int r = 0; r < 4; ++r) {
        const auto c = odp::ptrCaseCosts(kinds[r], odp::IqrReleaseMode::Noisy, 1.0, 1e-6);
        for (int k = 0; k < 3; ++k)
            m_ptrCosts->setItem(r, k, new QTableWidgetItem(tr("%1ε").arg(c.epsilon[k], 0, 'g', 3)));
        m_ptrCosts->setItem(r, 3, new QTableWidgetItem(deltaText[r]));
    }
    m_ptrCosts->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_ptrCosts->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_ptrCosts->setMaximumHeight(m_ptrCosts->horizontalHeader()->height()
                                 + 4 * m_ptrCosts->verticalHeader()->defaultSectionSize() + 4);
    m_ptrNote = note(QString(), tab);
    m_ptrFlow = new PtrFlowDiagram(tab);
    connect(m_ptrPreset, &QComboBox::currentIndexChanged, this, &OdpLabDialog::updatePtrPreset);
    auto *charts = new QHBoxLayout;
    charts->addWidget(m_ptrChart, 3);
    charts->addWidget(m_ptrFlow, 2);
    auto *layout = new QVBoxLayout(tab);
    layout->addWidget(m_ptrPreset);
    layout->addLayout(charts, 1);
    layout->addWidget(m_ptrCosts);
    layout->addWidget(m_ptrNote);
    updatePtrPreset();
    return tab;
}

void OdpLabDialog::updatePtrPreset()
{
    // The γ of a dataset read the data: these are quoted from the teaching example
    // (docs/output-dp.md §4.5), not computed here.
    const bool full = m_ptrPreset->currentIndex() == 0;
    const double gammas[] = {full ? 223.0 : 3.0, full ? 171.0 : 8.0};
    // P[pass](γ) = 1 − ½e^{−ε(γ − t)} for γ ≥ t, ½e^{−ε(t − γ)} below, at three ε.
    std::vector<OdpLineChart::Curve> curves;
    const QColor colours[] = {kOdp, kFilter, kReserved};
    const double epsilons[] = {0.1, 0.5, 1.0};
    for (int e = 0; e < 3; ++e) {
        const double t = *odp::ptrThreshold(epsilons[e], 1e-6, 2);
        OdpLineChart::Curve c{
            tr("ε = %1 (t = %2)").arg(epsilons[e]).arg(t, 0, 'f', 1), colours[e], Qt::SolidLine, {}, {}};
        for (int g = 0; g <= 250; g += 2) {
            c.x.push_back(g);
            c.y.push_back(odp::ptrPassProbability(g, epsilons[e], t));
        }
        curves.push_back(c);
    }
    curves.push_back(
        {tr("γ₁ = %1 (offset 0)").arg(gammas[0]), Qt::black, Qt::DashLine, {gammas[0], gammas[0]}, {0, 1}});
    curves.push_back(
        {tr("γ₂ = %1 (offset ½)").arg(gammas[1]), Qt::black, Qt::DotLine, {gammas[1], gammas[1]}, {0, 1}});
    m_ptrChart->setCurves(curves);
    // The realised path: M1 passes on the full data (case 1); both fail on the subgroup (case 3).
    const int realised = full ? 0 : 2;
    for (int r = 0; r < m_ptrCosts->rowCount(); ++r)
        for (int k = 0; k < 3; ++k)
            if (auto *item = m_ptrCosts->item(r, k))
                item->setBackground(k == realised ? QColor(0xfd, 0xdb, 0xc7) : QColor(Qt::transparent));
    // The flow: each case's cost under the four accountings (noisy mode, in units of ε).
    const odp::PtrAccounting kinds[] = {odp::PtrAccounting::Dp, odp::PtrAccounting::Lemma10,
                                        odp::PtrAccounting::Cells3, odp::PtrAccounting::Entries};
    const QString names[] = {tr("DP of S"), tr("two cells"), tr("three cells"), tr("two entries")};
    QStringList lines[3];
    for (int r = 0; r < 4; ++r) {
        const auto c = odp::ptrCaseCosts(kinds[r], odp::IqrReleaseMode::Noisy, 1.0, 1e-6);
        for (int k = 0; k < 3; ++k)
            lines[k] << tr("%1: %2ε").arg(names[r]).arg(c.epsilon[k], 0, 'g', 3);
    }
    m_ptrFlow->setCases(lines, realised);
    const double t = *odp::ptrThreshold(0.1, 1e-6, 2);
    m_ptrNote->setText(
        tr("IQR by propose-test-release with two shifted log-scale discretisations, noisy release (cost 2ε "
           "on a pass); the realised case is shaded. At ε = 0.1: P[M1 passes] = %1, P[M2 passes] = %2. Budget "
           "left for the median: %3. The γ read the data: they are quoted from the teaching example "
           "(Dwork & Lei 2009, on this dataset), not computed here.")
            .arg(odp::ptrPassProbability(gammas[0], 0.1, t), 0, 'g', 6)
            .arg(odp::ptrPassProbability(gammas[1], 0.1, t), 0, 'g', 6)
            .arg(full ? tr("ε_med (the IQR was released and paid for)")
                      : tr("ε_med + ε (both tests failed: the release budget comes back)")));
}

std::size_t OdpLabDialog::cps1988Rows()
{
    // The embedded dataset's row count (public metadata), read once: the recovery tab's plan is
    // drawn for the table the simulation runs on.
    static const std::size_t rows = [] {
        auto table = SessionDocument::loadTable(QStringLiteral("cps1988"));
        return table ? (*table)->rowCount() : std::size_t{0};
    }();
    return rows;
}

QWidget *OdpLabDialog::buildRecoveryTab()
{
    auto *tab = new QWidget(this);
    m_recoveryChart = new OdpLineChart(tab);
    m_recoveryChart->setTitles(tr("95th percentile of the test noise, s·ln 10 (ε_t = 0.1, 80/20 split)"),
                               tr("log₁₀ N (records)"), tr("log₁₀ q95"));
    std::vector<OdpLineChart::Curve> curves;
    const double lambdas[] = {1e-4, 1e-3, 1e-2, 1e-1};
    const QColor colours[] = {kDp, kFilter, kOdp, kReserved};
    for (int l = 0; l < 4; ++l) {
        OdpLineChart::Curve c{tr("Λ = %1").arg(lambdas[l], 0, 'g', 1), colours[l], Qt::SolidLine, {}, {}};
        for (double e = 3.0; e <= 6.0001; e += 0.25) {
            c.x.push_back(e);
            c.y.push_back(std::log10(odp::testNoiseQuantile95(std::pow(10.0, e), lambdas[l], 0.1)));
        }
        curves.push_back(c);
    }
    const std::size_t rows = cps1988Rows();
    const double cps = std::log10(static_cast<double>(rows));
    curves.push_back({tr("CPS1988 (N = %1)").arg(rows), Qt::black, Qt::DotLine, {cps, cps}, {-4.0, 2.5}});
    m_recoveryChart->setCurves(curves);
    odp::RecoveryParameters p; // the CPS1988 plan: Λ = 0.01, ε_p = 2, ε_t = 0.5, τ = 0.49
    const auto split = odp::cps1988RecoverySplitSizes(rows);
    auto c = odp::calibrateRecovery(p, split.trainRows, split.testRows);
    auto *figure = new QWidget(tab);
    auto *layout = new QVBoxLayout(figure);
    layout->addWidget(m_recoveryChart, 1);
    layout->addWidget(note(
        tr("Private logistic regression is released only if its privately tested error is at most "
           "τ. CPS1988 plan (label wage > 500, Λ = 0.01, ε_p = 2, ε_t = 0.5, τ = 0.49): released "
           "costs %1, ⊥ costs %2 (Hartmann et al. 2023, Corollary 18), s = %3. In simulation on the public data the full "
           "model passes about 94% of the time (expected cost 1.91) and the weak model about 14% "
           "(0.71): trying a weak model recovers 1.5 of the 2.0 most of the time.")
            .arg(c ? c->releaseCost : 0.0, 0, 'g', 3)
            .arg(c ? c->bottomCost : 0.0, 0, 'g', 3)
            .arg(c ? c->testNoise : 0.0, 0, 'g', 4),
        figure));
    m_recoveryTabs = new QTabWidget(tab);
    m_recoveryTabs->addTab(figure, tr("Test noise against N (Fig. 2)"));
    m_recoveryTabs->addTab(buildRecoverySimulation(tab), tr("Simulation on CPS1988 (public data)"));
    auto *outer = new QVBoxLayout(tab);
    outer->addWidget(m_recoveryTabs);
    return tab;
}

QWidget *OdpLabDialog::buildRecoverySimulation(QWidget *parent)
{
    auto *page = new QWidget(parent);
    auto *banner = new QLabel(
        tr("<b>Simulation mode — public data only.</b> This reads CPS1988: the non-private test error of "
           "each model is computed from the data, which no session may do. It teaches what budget "
           "recovery would return; nothing is charged."),
        page);
    banner->setWordWrap(true);
    banner->setStyleSheet(QStringLiteral("QLabel { background: #fff4d6; border: 1px solid #e0b84c; "
                                         "border-radius: 4px; padding: 6px; }"));
    m_simRun = new QPushButton(tr("Run the simulation"), page);
    m_simCancel = new QPushButton(tr("Cancel"), page);
    m_simCancel->setEnabled(false);
    m_simProgress = new QProgressBar(page);
    connect(m_simRun, &QPushButton::clicked, this, &OdpLabDialog::startRecoverySimulation);
    connect(m_simCancel, &QPushButton::clicked, this, [this] { m_recoveryWatcher.cancel(); });
    connect(&m_recoveryWatcher, &QFutureWatcher<RecoverySimulationOutcome>::finished, this,
            &OdpLabDialog::onRecoverySimulationFinished);
    connect(&m_recoveryWatcher, &QFutureWatcher<RecoverySimulationOutcome>::progressRangeChanged,
            m_simProgress, &QProgressBar::setRange);
    connect(&m_recoveryWatcher, &QFutureWatcher<RecoverySimulationOutcome>::progressValueChanged,
            m_simProgress, &QProgressBar::setValue);
    auto *run = new QHBoxLayout;
    run->addWidget(m_simRun);
    run->addWidget(m_simCancel);
    run->addWidget(m_simProgress, 1);
    m_sweepChart = new OdpLineChart(page);
    m_sweepChart->setTitles(tr("Expected cost against ε_t (ε_p = 2, τ = 0.49)"), tr("ε_t (the test)"),
                            tr("expected ε"));
    m_densityChart = new OdpLineChart(page);
    m_densityChart->setTitles(tr("Noisy test error ẽ = err + Lap(s), ε_t = 0.5; released iff ẽ ≤ τ"), tr("ẽ"),
                              tr("density"));
    for (OdpLineChart *chart : {m_sweepChart, m_densityChart})
        chart->setEmptyMessage(tr("Nothing to draw yet: press Run the simulation."));
    auto *charts = new QHBoxLayout;
    charts->addWidget(m_sweepChart, 1);
    charts->addWidget(m_densityChart, 1);
    m_simResult = note(tr("Press Run: two logistic fits (wage > 500, Λ = 0.01), off the GUI thread."), page);
    auto *layout = new QVBoxLayout(page);
    layout->addWidget(banner);
    layout->addLayout(run);
    layout->addLayout(charts, 1);
    layout->addWidget(m_simResult);
    return page;
}

namespace {
const std::vector<double> kSweep = {0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0};
constexpr std::size_t kSweepHalf = 7; // ε_t = 0.5, the CPS1988 plan
} // namespace

void OdpLabDialog::startRecoverySimulation()
{
    if (recoverySimulationRunning())
        return;
    auto table = SessionDocument::loadTable(QStringLiteral("cps1988"));
    if (!table) {
        m_simResult->setText(QString::fromStdString(table.error().message));
        return;
    }
    RecoverySimulationInput input;
    input.table = *table;
    input.epsilonTests = kSweep;
    m_simRun->setEnabled(false);
    m_simCancel->setEnabled(true);
    m_simProgress->setValue(0);
    m_simResult->setText(tr("Fitting…"));
    m_sweepChart->setComputing(true); // the last simulation stays, greyed, until this one is drawn
    m_densityChart->setComputing(true);
    m_recoveryWatcher.setFuture(pbx::ui::startRecoverySimulation(input));
}

void OdpLabDialog::waitForRecoverySimulation()
{
    m_recoveryWatcher.waitForFinished();
    QCoreApplication::processEvents();
}

bool OdpLabDialog::recoverySimulationRunning() const
{
    return m_recoveryWatcher.isRunning();
}

QString OdpLabDialog::recoverySimulationText() const
{
    return m_simResult->text();
}

void OdpLabDialog::onRecoverySimulationFinished()
{
    m_sweepChart->setComputing(false);
    m_densityChart->setComputing(false);
    m_simRun->setEnabled(true);
    m_simCancel->setEnabled(false);
    const auto future = m_recoveryWatcher.future();
    if (m_recoveryWatcher.isCanceled() || future.resultCount() == 0) {
        m_simResult->setText(tr("Cancelled."));
        return;
    }
    const RecoverySimulationOutcome outcome = future.result();
    if (!outcome.error.isEmpty() || outcome.models.size() != 2) {
        m_simResult->setText(outcome.error);
        return;
    }
    const QColor colours[] = {kFilter, kOdp};
    std::vector<OdpLineChart::Curve> sweep;
    std::vector<OdpLineChart::Curve> density;
    const double s = outcome.models[0].testNoise[kSweepHalf];
    double lo = HUGE_VAL, hi = -HUGE_VAL;
    for (const auto &m : outcome.models) {
        lo = std::min(lo, m.trueError - 8 * s);
        hi = std::max(hi, m.trueError + 8 * s);
    }
    lo = std::min(lo, 0.49 - s);
    hi = std::max(hi, 0.49 + s);
    for (std::size_t m = 0; m < 2; ++m) {
        const auto &model = outcome.models[m];
        sweep.push_back(
            {tr("%1 model").arg(model.name), colours[m], Qt::SolidLine, kSweep, model.costs, true});
        OdpLineChart::Curve d{model.name, colours[m], Qt::SolidLine, {}, {}};
        for (int i = 0; i <= 200; ++i) {
            const double x = lo + (hi - lo) * i / 200.0;
            d.x.push_back(x);
            d.y.push_back(std::exp(-std::abs(x - model.trueError) / s) / (2.0 * s));
        }
        density.push_back(d);
    }
    sweep.push_back({tr("E(released) = ε_p"),
                     kDp,
                     Qt::DashLine,
                     {kSweep.front(), kSweep.back()},
                     {outcome.releaseCost, outcome.releaseCost}});
    sweep.push_back({tr("E(⊥) = ε_t"), kReserved, Qt::DotLine, kSweep, outcome.bottomCosts});
    const double peak = 1.0 / (2.0 * s);
    density.push_back({tr("τ = 0.49"), Qt::black, Qt::DashLine, {0.49, 0.49}, {0, peak}});
    m_sweepChart->setCurves(sweep);
    m_densityChart->setCurves(density);
    const auto &full = outcome.models[0];
    const auto &weak = outcome.models[1];
    m_simResult->setText(
        tr("Non-private test error (simulation only): full %1, weak %2. At ε_t = 0.5 (s = %3): P[pass] "
           "full %4, weak %5; expected cost full %6, weak %7 of ε_p = %8 (analytic, ignoring the small "
           "model noise). Trying the weak model recovers most of the budget.")
            .arg(full.trueError, 0, 'f', 6)
            .arg(weak.trueError, 0, 'f', 6)
            .arg(s, 0, 'g', 4)
            .arg(full.passes[kSweepHalf], 0, 'f', 4)
            .arg(weak.passes[kSweepHalf], 0, 'f', 4)
            .arg(full.costs[kSweepHalf], 0, 'f', 3)
            .arg(weak.costs[kSweepHalf], 0, 'f', 3)
            .arg(outcome.releaseCost, 0, 'g', 3));
}

} // namespace pbx::ui
