// SPDX-License-Identifier: MIT
#include "ui/strategies/strategieslabdialog.h"

#include "ui/strategies/selectionlabpanel.h"

#include "core/simulation/relative_error_lab.h"
#include "core/strategies/bmi_example.h"
#include "core/strategies/haar_strategy.h"
#include "core/strategies/range_workload.h"
#include "core/strategies/tree_strategy.h"
#include "ui/charts/strategycharts.h"
#include "ui/help/glossarylinks.h"
#include "ui/strategies/strategiesjob.h"
#include "ui/util/boundformat.h"
#include "ui/util/numberformat.h"
#include "ui/widgets/fitscrollarea.h"
#include "ui/widgets/screenfit.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScopeGuard>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>
#include <numbers>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>

namespace pbx::ui {

namespace {

QString num(double x, int digits = 4)
{
    return QString::number(x, 'g', digits);
}

QTableWidget *makeTable(QWidget *parent, const QStringList &headers)
{
    auto *t = new QTableWidget(0, static_cast<int>(headers.size()), parent);
    t->setHorizontalHeaderLabels(headers);
    t->verticalHeader()->hide();
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    t->horizontalHeader()->setStretchLastSection(true);
    return t;
}

void setRow(QTableWidget *t, int row, const QStringList &cells)
{
    if (t->rowCount() <= row)
        t->setRowCount(row + 1);
    for (int c = 0; c < cells.size(); ++c)
        t->setItem(row, c, new QTableWidgetItem(cells[c]));
}

QComboBox *neighboursCombo(QWidget *parent)
{
    auto *c = new QComboBox(parent);
    c->addItem(QObject::tr("add/remove"), QStringLiteral("add-remove"));
    c->addItem(QObject::tr("replace-one"), QStringLiteral("replace"));
    return c;
}

data::Neighbouring neighboursOf(const QComboBox *c)
{
    return c->currentData().toString() == QStringLiteral("replace") ? data::Neighbouring::Replace
                                                                    : data::Neighbouring::AddRemove;
}

} // namespace

StrategiesLabDialog::StrategiesLabDialog(QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("Strategies & inference"));
    m_banner = new QLabel(this);
    m_banner->setWordWrap(true);
    m_tabs = new QTabWidget(this);
    const auto addTab = [this](QWidget *page, const QString &title) {
        m_tabs->addTab(new FitScrollArea(page, Qt::Horizontal | Qt::Vertical, m_tabs), title);
    };
    addTab(buildBmiTab(), tr("BMI example"));
    addTab(buildStabilityTab(), tr("Stability && sensitivity"));
    addTab(buildRangesTab(), tr("Range strategies"));
    addTab(buildInferenceTab(), tr("Constrained inference"));
    addTab(buildQuantilesTab(), tr("Quantiles && smooth sensitivity"));
    m_selection = new SelectionLabPanel(m_tabs);
    connect(m_selection, &SelectionLabPanel::runRequested, this, [this] { run(kSelectionTab); });
    addTab(m_selection, tr("Mode (selection)"));

    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setEnabled(false);
    auto *bottom = new QHBoxLayout;
    bottom->addWidget(m_progress, 1);
    bottom->addWidget(m_cancel);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_banner);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(m_status);
    layout->addLayout(bottom);

    m_watcher = new QFutureWatcher<StrategiesJobOutcome>(this);
    connect(m_watcher, &QFutureWatcher<StrategiesJobOutcome>::progressValueChanged, m_progress,
            &QProgressBar::setValue);
    connect(m_watcher, &QFutureWatcher<StrategiesJobOutcome>::progressTextChanged, m_status,
            &QLabel::setText);
    connect(m_watcher, &QFutureWatcher<StrategiesJobOutcome>::finished, this, &StrategiesLabDialog::finished);
    connect(m_cancel, &QPushButton::clicked, this, [this] { m_watcher->cancel(); });
    linkGlossaryTermsInLabels(this); // the explanations' terms link to Help ▸ Glossary
    resizeWithinScreen(this, QSize(980, 900));
    keepFrameInsideScreen(this);
    setTable(nullptr);
    run(1); // stability: no data needed
}

/// The lecture's BMI example: the slides' rows, the releases' errors and their distribution.
QWidget *StrategiesLabDialog::buildBmiTab()
{
    auto *bmi = new QWidget(m_tabs);
    m_bmiData = new QComboBox(bmi);
    m_bmiData->addItem(tr("the slides' five rows"), QStringLiteral("slides"));
    m_bmiData->addItem(tr("census analogue: ethnicity × weekly wage < $500 (a public cut-off)"),
                       QStringLiteral("census"));
    m_bmiNeighbours = neighboursCombo(bmi);
    m_bmiEpsilon = new QDoubleSpinBox(bmi);
    m_bmiEpsilon->setRange(0.01, 10.0);
    m_bmiEpsilon->setValue(1.0);
    auto *bmiRun = new QPushButton(tr("Run 100,000 releases"), bmi);
    connect(bmiRun, &QPushButton::clicked, this, [this] { run(0); });
    auto *rows = makeTable(bmi, {tr("sex"), tr("height"), tr("weight (lb)"), tr("BMI = 703·w/h²")});
    int r = 0;
    for (const auto &row : strategies::bmiSlideRows())
        setRow(rows, r++,
               {QString(QLatin1Char(row.sex)), tr("%1 in").arg(row.heightInches), num(row.weightPounds),
                QString::number(strategies::bodyMassIndex(row), 'f', 2)});
    rows->setMinimumHeight(178);
    rows->setMaximumHeight(178);
    m_bmiTable = makeTable(
        bmi, {tr("release"), tr("Laplace scale"), tr("predicted total error"), tr("measured ± s.e.")});
    m_bmiTable->setMinimumHeight(180);
    m_bmiChart = new BarErrorChart(bmi);
    m_bmiHistogram = new CurvesChart(bmi);
    m_bmiNote = new QLabel(
        tr("Four answers: #males with BMI < 25, #males, #females with BMI < 25, #females. "
           "Algorithm 1 adds Lap(4/ε) to each (four ε/4 releases, sequential composition): 128/ε². "
           "The same vector has ℓ1 sensitivity 2, so Lap(2/ε) suffices: 32/ε². Algorithm 2 measures "
           "the four disjoint cells with Lap(1/ε) (parallel composition) and adds them up "
           "(post-processing, free): 12/ε². Under replace-one: 128 and 48."),
        bmi);
    m_bmiNote->setWordWrap(true);
    auto *bmiForm = new QFormLayout;
    bmiForm->addRow(tr("Data"), m_bmiData);
    bmiForm->addRow(tr("Neighbours"), m_bmiNeighbours);
    bmiForm->addRow(tr("ε"), m_bmiEpsilon);
    auto *bmiLayout = new QVBoxLayout(bmi);
    bmiLayout->addWidget(rows);
    bmiLayout->addLayout(bmiForm);
    bmiLayout->addWidget(bmiRun);
    bmiLayout->addWidget(m_bmiTable);
    auto *bmiCharts = new QHBoxLayout;
    bmiCharts->addWidget(m_bmiChart, 1);
    bmiCharts->addWidget(m_bmiHistogram, 1);
    bmiLayout->addLayout(bmiCharts, 1);
    bmiLayout->addWidget(m_bmiNote);
    return bmi;
}

/// Stability of transformations and the sensitivity of workloads.
QWidget *StrategiesLabDialog::buildStabilityTab()
{
    auto *stab = new QWidget(m_tabs);
    m_stabilityTable = makeTable(
        stab, {tr("transformation"), tr("k or m"), tr("stability s"), tr("ε·s (ε = 1)"), tr("s²ρ (ρ = ½)")});
    m_sensitivityTable
        = makeTable(stab, {tr("workload"), tr("Δ₁ add/remove"), tr("Δ₂ add/remove"), tr("Δ₁ replace-one")});
    auto *stabLayout = new QVBoxLayout(stab);
    stabLayout->addWidget(
        new QLabel(tr("Running an ε-DP mechanism on the output of an s-stable transformation is "
                      "sε-DP (ρ-zCDP becomes s²ρ). Poisson subsampling at rate p: ln(1 + p(e^ε − 1))."),
                   stab));
    stabLayout->addWidget(m_stabilityTable, 2);
    stabLayout->addWidget(
        new QLabel(tr("Sensitivity of workloads (largest column norm; replace-one: largest norm of a "
                      "difference of two columns)"),
                   stab));
    stabLayout->addWidget(m_sensitivityTable, 1);
    return stab;
}

/// The range-strategy explorer (and DAWA, described).
QWidget *StrategiesLabDialog::buildRangesTab()
{
    auto *ranges = new QWidget(m_tabs);
    m_rangeColumn = new QComboBox(ranges);
    connect(m_rangeColumn, &QComboBox::currentTextChanged, this, [this] { rangeColumnChanged(); });
    m_rangeLo = new QSpinBox(ranges);
    m_rangeHi = new QSpinBox(ranges);
    for (QSpinBox *bound : {m_rangeLo, m_rangeHi}) {
        bound->setRange(-1'000'000'000, 1'000'000'000);
        bound->setGroupSeparatorShown(true);
    }
    auto *cells = new QHBoxLayout;
    cells->addWidget(m_rangeLo, 1);
    cells->addWidget(new QLabel(tr("to"), ranges));
    cells->addWidget(m_rangeHi, 1);
    m_rangeWorkload = new QComboBox(ranges);
    m_rangeWorkload->addItem(tr("all ranges [i, j]"), QStringLiteral("all-ranges"));
    m_rangeWorkload->addItem(tr("prefixes [lo, j] (the cumulative distribution)"),
                             QStringLiteral("prefixes"));
    m_rangeEpsilon = new QDoubleSpinBox(ranges);
    m_rangeEpsilon->setDecimals(4);
    m_rangeEpsilon->setRange(0.0001, 100.0);
    m_rangeEpsilon->setValue(1.0);
    m_rangeConfidence = new QDoubleSpinBox(ranges);
    m_rangeConfidence->setDecimals(4);
    m_rangeConfidence->setRange(0.5, 0.9999);
    m_rangeConfidence->setSingleStep(0.01);
    m_rangeConfidence->setValue(0.95);
    m_rangeNeighbours = neighboursCombo(ranges);
    m_branching = new QSpinBox(ranges);
    m_branching->setRange(2, 64);
    m_branching->setValue(2);
    m_repetitions = new QSpinBox(ranges);
    m_repetitions->setRange(100, 100000);
    m_repetitions->setValue(2000);
    auto *rangeRun = new QPushButton(tr("Predict and measure"), ranges);
    connect(rangeRun, &QPushButton::clicked, this, [this] { run(kRangesTab); });
    m_rangeChart = new CurvesChart(ranges);
    m_rangeTable = makeTable(ranges, {tr("strategy"), tr("Δ₁"), tr("K"), tr("ε"), tr("predicted avg"),
                                      tr("predicted max"), tr("widest bar"), tr("measured ± s.e.")});
    m_rangeTable->horizontalHeaderItem(RangeAverage)
        ->setToolTip(tr("The variance of a range's answer, averaged over the workload (exact)"));
    m_rangeTable->horizontalHeaderItem(RangeMax)->setToolTip(tr("The largest variance over the workload"));
    m_rangeTable->horizontalHeaderItem(RangeWidestBar)
        ->setToolTip(tr("The widest error bar over the workload at the confidence above: √(max variance / β) "
                        "by Chebyshev, β = 1 − confidence, as a session's workload request reports it"));
    m_rangeTable->horizontalHeaderItem(RangeMeasured)
        ->setToolTip(tr("The squared error averaged over the workload and the runs (simulation)"));
    m_recommended = new QLabel(ranges);
    m_recommended->setWordWrap(true);
    // Two fields a row: the table with the numbers stays above the fold at 1024×768.
    auto *rangeForm = new QGridLayout;
    const auto field = [&](int row, int pair, const QString &label, auto *widgetOrLayout) {
        auto *text = new QLabel(label, ranges);
        rangeForm->addWidget(text, row, pair * 2);
        if constexpr (std::is_base_of_v<QLayout, std::remove_pointer_t<decltype(widgetOrLayout)>>)
            rangeForm->addLayout(widgetOrLayout, row, pair * 2 + 1);
        else {
            text->setBuddy(widgetOrLayout);
            rangeForm->addWidget(widgetOrLayout, row, pair * 2 + 1);
        }
    };
    field(0, 0, tr("Ordered numeric column"), m_rangeColumn);
    field(0, 1, tr("Cells (one per integer)"), cells);
    field(1, 0, tr("Workload"), m_rangeWorkload);
    field(1, 1, tr("Neighbours"), m_rangeNeighbours);
    field(2, 0, tr("ε (every strategy)"), m_rangeEpsilon);
    field(2, 1, tr("Error bars at confidence"), m_rangeConfidence);
    field(3, 0, tr("Tree branching b"), m_branching);
    field(3, 1, tr("Runs"), m_repetitions);
    rangeForm->setColumnStretch(1, 1);
    rangeForm->setColumnStretch(3, 1);
    auto *rangeLayout = new QVBoxLayout(ranges);
    rangeLayout->addLayout(rangeForm);
    rangeLayout->addWidget(rangeRun);
    rangeLayout->addWidget(m_rangeTable, 1);
    rangeLayout->addWidget(m_recommended);
    rangeLayout->addWidget(m_rangeChart, 2);
    auto *dawa = new QLabel(
        tr("<b>Data-dependent strategies — DAWA</b> (Li, Hay, Miklau &amp; Wang 2014), described, not run: "
           "with ε = ε₁ + ε₂ it first picks, privately with ε₁, a partition of the ordered domain into intervals "
           "whose counts are nearly uniform (a dynamic program over noisy L1 deviations from each interval's "
           "mean), then measures the interval totals with ε₂ by a workload-aware strategy and spreads each "
           "total evenly. Few intervals on a flat histogram mean little noise per range — errors below every "
           "strategy above on step-shaped data. It is not offered here because the privacy argument of its first "
           "stage has not been re-derived for this project; “DAWA-lite” (partition chosen from an identity "
           "histogram at ε₁, i.e. by post-processing) is provably private but measured fragile: on experience it "
           "never beat the identity strategy (58.9 vs 50.0 at ε = 1). DAWA: Li, Hay, Miklau & Wang, PVLDB 2014."),
        ranges);
    dawa->setWordWrap(true);
    dawa->setTextFormat(Qt::RichText);
    rangeLayout->addWidget(dawa);
    return ranges;
}

/// Constrained inference: the errors before and after a projection.
QWidget *StrategiesLabDialog::buildInferenceTab()
{
    auto *inference = new QWidget(m_tabs);
    m_inferenceColumn = new QComboBox(inference);
    m_projection = new QComboBox(inference);
    m_projection->addItem(tr("tree consistency (Hay et al. two-pass least squares)"),
                          QStringLiteral("tree-consistency"));
    m_projection->addItem(tr("non-negativity of the identity histogram"), QStringLiteral("nonnegative"));
    m_projection->addItem(tr("isotonic regression of sorted counts (PAVA)"),
                          QStringLiteral("isotonic-sorted"));
    m_projection->addItem(tr("isotonic regression of prefix sums (PAVA)"), QStringLiteral("isotonic-prefix"));
    auto *inferenceRun = new QPushButton(tr("Run 2,000 releases (ε = 1)"), inference);
    connect(inferenceRun, &QPushButton::clicked, this, [this] { run(3); });
    m_inferenceTable = makeTable(inference, {tr("quantity"), tr("value")});
    m_inferenceChart = new BarErrorChart(inference);
    auto *inferenceForm = new QFormLayout;
    inferenceForm->addRow(tr("Ordered column"), m_inferenceColumn);
    inferenceForm->addRow(tr("Projection"), m_projection);
    auto *inferenceLayout = new QVBoxLayout(inference);
    inferenceLayout->addLayout(inferenceForm);
    inferenceLayout->addWidget(inferenceRun);
    inferenceLayout->addWidget(m_inferenceTable, 1);
    m_inferenceRuns = new CurvesChart(inference);
    m_inferenceExample = new CurvesChart(inference);
    auto *inferenceCharts = new QHBoxLayout;
    inferenceCharts->addWidget(m_inferenceChart, 1);
    inferenceCharts->addWidget(m_inferenceRuns, 1);
    inferenceCharts->addWidget(m_inferenceExample, 1);
    inferenceLayout->addLayout(inferenceCharts, 2);
    auto *inferenceNote
        = new QLabel(tr("For a convex set containing the truth, ‖q̄ − q‖² ≤ ‖q̃ − q‖² − ‖q̃ − q̄‖² in every "
                        "run: the error of the projected vector never grows and drops by at least the "
                        "distance moved. Single coordinates and queries derived from it can still get "
                        "worse; rounding to integers is not such a projection."),
                     inference);
    inferenceNote->setWordWrap(true);
    inferenceLayout->addWidget(inferenceNote);
    return inference;
}

/// Quantiles by the exponential mechanism and the smooth sensitivity of the median.
QWidget *StrategiesLabDialog::buildQuantilesTab()
{
    auto *quantiles = new QWidget(m_tabs);
    m_quantileColumn = new QComboBox(quantiles);
    m_quantileQ = new QDoubleSpinBox(quantiles);
    m_quantileQ->setRange(0.01, 0.99);
    m_quantileQ->setValue(0.5);
    m_quantileEpsilon = new QDoubleSpinBox(quantiles);
    m_quantileEpsilon->setDecimals(3);
    m_quantileEpsilon->setRange(0.001, 10.0);
    m_quantileEpsilon->setValue(1.0);
    auto *quantileRun = new QPushButton(tr("Exponential mechanism"), quantiles);
    auto *smoothRun = new QPushButton(tr("Smooth sensitivity of the median"), quantiles);
    connect(quantileRun, &QPushButton::clicked, this, [this] {
        m_smooth = false;
        run(4);
    });
    connect(smoothRun, &QPushButton::clicked, this, [this] {
        m_smooth = true;
        run(4);
    });
    m_quantileChart = new CurvesChart(quantiles);
    m_noiseChart = new CurvesChart(quantiles);
    m_noiseChart->hide(); // shown with the smooth sensitivity
    m_quantileText = new QLabel(quantiles);
    m_quantileText->setWordWrap(true);
    m_quantileText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *quantileForm = new QFormLayout;
    quantileForm->addRow(tr("Column"), m_quantileColumn);
    quantileForm->addRow(tr("q"), m_quantileQ);
    quantileForm->addRow(tr("ε"), m_quantileEpsilon);
    auto *quantileButtons = new QHBoxLayout;
    quantileButtons->addWidget(quantileRun);
    quantileButtons->addWidget(smoothRun);
    auto *quantileLayout = new QVBoxLayout(quantiles);
    quantileLayout->addLayout(quantileForm);
    quantileLayout->addLayout(quantileButtons);
    auto *quantileCharts = new QHBoxLayout;
    quantileCharts->addWidget(m_quantileChart, 1);
    quantileCharts->addWidget(m_noiseChart, 1);
    quantileLayout->addLayout(quantileCharts, 2);
    quantileLayout->addWidget(m_quantileText, 1);
    return quantiles;
}

StrategiesLabDialog::~StrategiesLabDialog()
{
    m_watcher->cancel();
    m_watcher->waitForFinished();
}

void StrategiesLabDialog::setTable(std::shared_ptr<const data::Table> table)
{
    m_table = std::move(table);
    const bool usable = m_table && m_table->isPublic();
    if (!m_table)
        m_banner->setText(
            tr("No dataset: only the slides' BMI example and the stability tables run. Open a public "
               "dataset (e.g. the embedded cps1988) for the rest."));
    else if (!usable)
        m_banner->setText(
            tr("“%1” is not declared public: the lab reads true answers to score accuracy, so it runs "
               "only on public data (an embedded dataset, or a CSV whose metadata says \"public\": true).")
                .arg(QString::fromStdString(m_table->name())));
    else
        m_banner->setText(
            tr("<b>Simulation</b> on the public dataset “%1”: true answers are read to score accuracy, "
               "never to decide; nothing is charged to the session.")
                .arg(QString::fromStdString(m_table->name())));
    for (int i = 2; i <= kSelectionTab; ++i)
        m_tabs->widget(i)->setEnabled(usable);
    fillColumns();
    m_selection->setTable(usable ? m_table : nullptr);
}

void StrategiesLabDialog::setSource(const std::shared_ptr<const data::Source> &source)
{
    if (!source || source->kind() == data::SourceKind::InMemory || !source->isPublic()) {
        // In memory: its table; a private database source: its schema, refused as private.
        setTable(source ? std::shared_ptr<const data::Table>(source, &source->schema()) : nullptr);
        return;
    }
    setTable(nullptr);
    m_banner->setText(
        tr("<b>Needs the rows in memory.</b> %1. The slides' BMI example and the stability tables run.")
            .arg(QString::fromStdString(simulation::labRowsNotInMemory("The strategies lab", *source))
                     .toHtmlEscaped()));
}

QString StrategiesLabDialog::bannerText() const
{
    return m_banner->text();
}

void StrategiesLabDialog::fillColumns()
{
    for (QComboBox *combo : {m_rangeColumn, m_inferenceColumn, m_quantileColumn}) {
        const QString previous = combo->currentText();
        // Refilled quietly: the range column's cells change only when its column does.
        const QSignalBlocker quiet(combo);
        combo->clear();
        if (!m_table)
            continue;
        for (std::size_t c = 0; c < m_table->columnCount(); ++c) {
            const auto &info = m_table->columnInfo(c);
            if (info.type != data::ColumnType::Numeric || !info.declaredBounds)
                continue;
            const bool integer = info.declaredBounds->lower == std::floor(info.declaredBounds->lower)
                                 && info.declaredBounds->upper == std::floor(info.declaredBounds->upper)
                                 && info.declaredBounds->upper - info.declaredBounds->lower < 4096;
            // The range tab has cells of its own (any numeric column, clipped to them).
            if (combo == m_inferenceColumn && !integer)
                continue;
            combo->addItem(QString::fromStdString(info.name));
        }
        const int keep = combo->findText(previous);
        const int preferred = combo->findText(combo == m_quantileColumn ? QStringLiteral("wage")
                                                                        : QStringLiteral("experience"));
        combo->setCurrentIndex(keep >= 0 ? keep : std::max(0, preferred));
    }
    rangeColumnChanged();
}

void StrategiesLabDialog::rangeColumnChanged()
{
    const QString column = m_rangeColumn->currentText();
    if (column.isEmpty() || column == m_rangeBoundsColumn || !m_table)
        return;
    m_rangeBoundsColumn = column;
    const auto index = m_table->columnIndex(column.toStdString());
    if (!index || !m_table->columnInfo(*index).declaredBounds)
        return;
    const auto &declared = *m_table->columnInfo(*index).declaredBounds;
    const double lo = std::ceil(declared.lower);
    m_rangeLo->setValue(static_cast<int>(lo));
    m_rangeHi->setValue(static_cast<int>(std::min(std::floor(declared.upper), lo + 1023.0)));
}

Result<void> StrategiesLabDialog::runRanges(const RangesSetup &setup)
{
    if (auto set = setRanges(setup); !set.ok())
        return set;
    m_rangeChart->clear(tr("Predicting and measuring every strategy on these cells…"));
    m_recommended->setText(tr("Predicting and measuring…"));
    run(kRangesTab);
    return {};
}

Result<void> StrategiesLabDialog::setRanges(const RangesSetup &setup)
{
    const auto refuse = [](const std::string &message) -> Result<void> {
        return strategies::labConfigError("the Range strategies tab: " + message);
    };
    if (m_rangeColumn->findText(setup.column) < 0 || !m_tabs->widget(kRangesTab)->isEnabled())
        return refuse("no ordered numeric column '" + setup.column.toStdString() + "' in the lab's data");
    if (setup.bounds) {
        const auto [lo, hi] = *setup.bounds;
        if (lo != std::floor(lo) || hi != std::floor(hi) || !(lo < hi) || hi - lo + 1.0 > 4096.0
            || lo < m_rangeLo->minimum() || hi > m_rangeHi->maximum())
            return refuse("the cells need integer bounds lo < hi, at most 4,096 cells");
    }
    int workload = m_rangeWorkload->findData(setup.workload);
    if (workload < 0 && setup.workload.startsWith(QLatin1String("ranges-of-length:"))) {
        m_rangeWorkload->addItem(tr("ranges of length %1").arg(setup.workload.section(u':', 1)),
                                 setup.workload);
        workload = m_rangeWorkload->count() - 1;
    }
    if (workload < 0)
        return refuse("unknown workload '" + setup.workload.toStdString() + "'");
    if (!(setup.epsilon >= m_rangeEpsilon->minimum() && setup.epsilon <= m_rangeEpsilon->maximum())
        || !(setup.confidence >= m_rangeConfidence->minimum()
             && setup.confidence <= m_rangeConfidence->maximum())
        || setup.branching < 2 || setup.branching > 64)
        return refuse("ε, the confidence or the branching out of range");
    m_rangeColumn->setCurrentText(setup.column); // its declared cells …
    if (setup.bounds) {                          // … or the setup's
        m_rangeLo->setValue(static_cast<int>(setup.bounds->first));
        m_rangeHi->setValue(static_cast<int>(setup.bounds->second));
    }
    m_rangeWorkload->setCurrentIndex(workload);
    m_rangeEpsilon->setValue(setup.epsilon);
    m_exactEpsilon = {setup.epsilon, m_rangeEpsilon->value()};
    m_rangeConfidence->setValue(setup.confidence);
    m_rangeNeighbours->setCurrentIndex(setup.neighbours == data::Neighbouring::Replace ? 1 : 0);
    m_branching->setValue(static_cast<int>(setup.branching));
    // Results for other fields are not shown beside these (nor those of a run still going).
    ++m_rangesGeneration;
    m_rangeTable->setRowCount(0);
    m_rangeChart->clear(tr("Nothing to draw yet: press Predict and measure."));
    m_recommended->clear();
    return {};
}

RangesSetup StrategiesLabDialog::rangesSetup() const
{
    RangesSetup s;
    s.column = m_rangeColumn->currentText();
    s.bounds = std::pair{double(m_rangeLo->value()), double(m_rangeHi->value())};
    s.workload = m_rangeWorkload->currentData().toString();
    s.epsilon
        = m_rangeEpsilon->value() == m_exactEpsilon.second ? m_exactEpsilon.first : m_rangeEpsilon->value();
    s.confidence = m_rangeConfidence->value();
    s.branching = static_cast<std::size_t>(m_branching->value());
    s.neighbours = neighboursOf(m_rangeNeighbours);
    return s;
}

QString StrategiesLabDialog::rangesSummary() const
{
    return m_recommended->text();
}

bool StrategiesLabDialog::isRunning() const
{
    return m_watcher->isRunning();
}

void StrategiesLabDialog::waitForJob()
{
    do {
        m_watcher->waitForFinished();
        QCoreApplication::processEvents(); // finished(): shows it and starts one waiting
    } while (m_watcher->isRunning());
}

QTableWidget *StrategiesLabDialog::resultTable(int index) const
{
    switch (index) {
    case 0:
        return m_bmiTable;
    case 1:
        return m_stabilityTable;
    case 2:
        return m_rangeTable;
    case 3:
        return m_inferenceTable;
    default:
        return nullptr;
    }
}

QString StrategiesLabDialog::statusText() const
{
    return m_status->text() + QLatin1Char('\n') + m_quantileText->text();
}

void StrategiesLabDialog::run(int index)
{
    if (isRunning()) {
        // The latest wins; started by finished(). Its tab is greyed meanwhile, as while it runs.
        if (m_pendingTab >= 0 && m_pendingTab != m_runningTab)
            setTabComputing(m_pendingTab, false);
        m_pendingTab = index;
        setTabComputing(index, true);
        return;
    }
    strategies::LabConfig c;
    switch (index) {
    case 0:
        c.experiment = strategies::LabExperiment::Bmi;
        c.dataset = m_bmiData->currentData().toString() == QStringLiteral("slides") ? "slides" : "census";
        c.neighbours = neighboursOf(m_bmiNeighbours);
        c.epsilon = m_bmiEpsilon->value();
        c.repetitions = 100000;
        break;
    case 1:
        c.experiment = strategies::LabExperiment::Stability;
        break;
    case kRangesTab:
        c.experiment = strategies::LabExperiment::Ranges;
        c.column = m_rangeColumn->currentText().toStdString();
        c.bounds = std::pair{double(m_rangeLo->value()), double(m_rangeHi->value())};
        c.workload = m_rangeWorkload->currentData().toString().toStdString();
        // The ε a caller set, unrounded, while the field still shows it (4 decimals).
        c.epsilon = m_rangeEpsilon->value() == m_exactEpsilon.second ? m_exactEpsilon.first
                                                                     : m_rangeEpsilon->value();
        c.neighbours = neighboursOf(m_rangeNeighbours);
        c.repetitions = m_repetitions->value();
        m_rangesShown = {c.epsilon, m_rangeConfidence->value(), m_rangeWorkload->currentData().toString(),
                         m_rangesGeneration};
        c.strategies = {
            {strategies::RangeStrategyKind::Identity},
            {strategies::RangeStrategyKind::Tree, static_cast<std::size_t>(m_branching->value()), true,
             false},
            {strategies::RangeStrategyKind::Tree, static_cast<std::size_t>(m_branching->value()), true, true},
            {strategies::RangeStrategyKind::Haar},
            {strategies::RangeStrategyKind::AllRanges}};
        break;
    case 3:
        c.experiment = strategies::LabExperiment::Inference;
        c.column = m_inferenceColumn->currentText().toStdString();
        c.projection = m_projection->currentData().toString().toStdString();
        c.repetitions = 2000;
        break;
    case kSelectionTab:
        c = m_selection->config();
        break;
    default:
        c.experiment
            = m_smooth ? strategies::LabExperiment::SmoothSensitivity : strategies::LabExperiment::Quantile;
        c.column = m_quantileColumn->currentText().toStdString();
        c.q = m_quantileQ->value();
        c.epsilon = m_quantileEpsilon->value();
        break;
    }
    start(c, index);
}

void StrategiesLabDialog::start(const strategies::LabConfig &config, int tab)
{
    auto table = m_table;
    if (config.experiment == strategies::LabExperiment::Bmi && config.dataset == "census"
        && !(table && table->isPublic())) {
        m_status->setText(
            tr("The census analogue needs a public dataset with wage and ethnicity (cps1988)."));
        setTabComputing(tab, false); // greyed if it waited for another run
        return;
    }
    m_runningTab = tab;
    m_progress->setValue(0);
    m_cancel->setEnabled(true);
    m_status->setText(tr("running…"));
    setTabComputing(tab, true);
    m_watcher->setFuture(startStrategiesJob(config, std::move(table), 1));
}

void StrategiesLabDialog::setTabComputing(int tab, bool computing)
{
    // The tab's last results stay, greyed, until the new run is drawn.
    if (QWidget *page = m_tabs->widget(tab)) {
        for (ChartFrame *chart : page->findChildren<ChartFrame *>())
            chart->setComputing(computing);
        for (QTableWidget *table : page->findChildren<QTableWidget *>())
            table->setEnabled(!computing);
    }
}

void StrategiesLabDialog::finished()
{
    const int pending = std::exchange(m_pendingTab, -1);
    if (m_runningTab != pending)
        setTabComputing(m_runningTab, false);
    m_cancel->setEnabled(false);
    if (m_watcher->isCanceled() || m_watcher->future().resultCount() == 0) {
        if (pending >= 0)
            setTabComputing(pending, false); // nothing waiting starts
        m_status->setText(tr("Cancelled: nothing shown."));
        return;
    }
    // A run asked for while this one ran starts once this one is shown.
    const auto startPending = qScopeGuard([this, pending] {
        if (pending >= 0)
            run(pending);
    });
    const auto outcome = m_watcher->result();
    if (!outcome.error.isEmpty()) {
        m_status->setText(outcome.error);
        return;
    }
    m_progress->setValue(1000);
    std::visit(
        [this](const auto &body) {
            using Body = std::decay_t<decltype(body)>;
            if constexpr (std::is_same_v<Body, strategies::BmiLabResult>)
                showBmi(body);
            else if constexpr (std::is_same_v<Body, strategies::StabilityLabResult>)
                showStability(body);
            else if constexpr (std::is_same_v<Body, strategies::RangesLabResult>)
                showRanges(body);
            else if constexpr (std::is_same_v<Body, strategies::InferenceLabResult>)
                showInference(body);
            else if constexpr (std::is_same_v<Body, strategies::QuantileLabResult>)
                showQuantile(body);
            else if constexpr (std::is_same_v<Body, strategies::SelectionLabResult>)
                m_selection->showResult(body);
            else
                showSmoothSensitivity(body);
        },
        outcome.result.body);
    m_status->setText(tr("Done. %1").arg(QString::fromLatin1(strategies::kLabSimulationNote)));
}

void StrategiesLabDialog::showBmi(const strategies::BmiLabResult &result)
{
    m_bmiTable->setRowCount(0);
    QStringList labels;
    std::vector<double> values, lows, highs;
    const QStringList shortNames = {tr("A1"), tr("A1 Δ₁"), tr("A2"), tr("A2 clip"), tr("A2 order")};
    int row = 0;
    for (const auto &m : result.methods) {
        const double measured = m.measured, se = m.standardError;
        setRow(m_bmiTable, row,
               {QString::fromStdString(m.name), num(m.laplaceScale),
                std::isfinite(m.predicted) ? num(m.predicted) : tr("—"),
                tr("%1 ± %2").arg(num(measured, 5), num(se, 2))});
        labels << shortNames.value(row);
        values.push_back(measured);
        lows.push_back(measured - 2 * se);
        highs.push_back(measured + 2 * se);
        ++row;
    }
    m_bmiChart->setBars(tr("Mean total squared error (±2 s.e.)"), labels, values, lows, highs, tr("error"));
    std::vector<CurvesChart::Curve> curves;
    row = 0;
    for (const auto &m : result.methods) {
        if (row == 3)
            break; // the three algorithms; the inference variants are in the table
        CurvesChart::Curve c;
        c.name = shortNames.value(row++);
        for (std::size_t b = 0; b < m.histogram.size(); ++b) {
            c.x.push_back((static_cast<double>(b) + 0.5) * result.binWidth);
            c.y.push_back(m.histogram[b]);
        }
        curves.push_back(std::move(c));
    }
    m_bmiHistogram->setCurves(tr("Monte Carlo distribution of the total squared error"), curves,
                              tr("total squared error"), tr("share of runs"), false);
    auto integers = [](const std::array<double, 4> &list) {
        QStringList parts;
        for (const double v : list)
            parts << QString::number(v, 'f', 0);
        return QStringLiteral("(%1)").arg(parts.join(QStringLiteral(", ")));
    };
    m_bmiNote->setText(
        tr("Cells %1 → answers %2. Measured P[Algorithm 2 gives q̃₁ > q̃₁ + q̃₂] = %3. Algorithm 1: "
           "sequential composition of four ε/4 counts; Algorithm 2: parallel composition of disjoint "
           "cells (replace-one: each cell at ε/2), sums by post-processing.")
            .arg(integers(result.cells), integers(result.answers))
            .arg(num(result.violationProbability, 3)));
}

void StrategiesLabDialog::showStability(const strategies::StabilityLabResult &result)
{
    using strategies::Transformation;
    m_stabilityTable->setRowCount(0);
    int row = 0;
    for (const auto &t : result.transformations) {
        const bool bounded = t.stability.has_value();
        const bool parametrised = t.transformation == Transformation::FlatMap
                                  || t.transformation == Transformation::Truncate
                                  || t.transformation == Transformation::SelfJoinTruncated;
        setRow(m_stabilityTable, row++,
               {QString::fromStdString(std::string(strategies::transformationName(t.transformation))),
                parametrised ? QString::number(t.parameter) : tr("—"),
                bounded ? QString::number(*t.stability) : tr("unbounded"), bounded ? num(t.epsilon) : tr("—"),
                bounded ? num(t.rho) : tr("—")});
    }
    for (const auto &s : result.subsampling)
        setRow(m_stabilityTable, row++,
               {tr("Poisson subsampling"), tr("p = %1").arg(num(s.rate)), tr("—"), num(s.epsilon, 6),
                s.shortcut ? tr("2pε = %1").arg(num(*s.shortcut)) : tr("2pε not a bound for ε > 1")});
    m_sensitivityTable->setRowCount(0);
    row = 0;
    using data::Neighbouring;
    for (const std::size_t k : {std::size_t{21}, std::size_t{73}}) {
        const auto ar = strategies::allRangesSensitivityL1(k, Neighbouring::AddRemove);
        setRow(m_sensitivityTable, row++,
               {tr("all ranges, k = %1").arg(k), QString::number(ar), num(std::sqrt(double(ar))),
                QString::number(strategies::allRangesSensitivityL1(k, Neighbouring::Replace))});
        setRow(m_sensitivityTable, row++,
               {tr("prefixes, k = %1").arg(k), QString::number(k), num(std::sqrt(double(k))),
                QString::number(strategies::prefixSensitivityL1(k, Neighbouring::Replace))});
        const auto tree = *strategies::TreeShape::create(k, 2);
        setRow(m_sensitivityTable, row++,
               {tr("tree b = 2 with root, k = %1 (K = %2)").arg(k).arg(tree.padded),
                QString::number(tree.sensitivityL1(Neighbouring::AddRemove)),
                num(std::sqrt(double(tree.sensitivityL1(Neighbouring::AddRemove)))),
                QString::number(tree.sensitivityL1(Neighbouring::Replace))});
    }
    setRow(m_sensitivityTable, row++,
           {tr("histogram (identity)"), QStringLiteral("1"), QStringLiteral("1"), QStringLiteral("2")});
    setRow(m_sensitivityTable, row++,
           {tr("BMI answers (#M<25, #M, #F<25, #F)"), QStringLiteral("2"), num(std::sqrt(2.0)),
            QStringLiteral("4")});
}

void StrategiesLabDialog::showRanges(const strategies::RangesLabResult &result)
{
    if (m_rangesShown.generation != m_rangesGeneration)
        return; // asked with fields setRanges() has replaced since
    m_rangeTable->setRowCount(0);
    std::vector<CurvesChart::Curve> curves;
    int row = 0;
    // The widest bar as a session's workload request reports it (strategy_release.cpp): Chebyshev
    // on the exact variance, √(Var/β), written as the ledger writes a half-width (3 digits).
    const double beta = 1.0 - m_rangesShown.confidence;
    const QString epsilon = formatBound(m_rangesShown.epsilon);
    for (const auto &r : result.results) {
        const QString label = QString::fromStdString(r.strategy.label());
        QString measured = tr("—");
        if (r.measured)
            measured = tr("%1 ± %2").arg(num(r.measured->average, 6), num(r.measured->standardError, 3));
        setRow(m_rangeTable, row++,
               {label, formatNumber(double(r.prediction.sensitivityL1), 17),
                formatNumber(double(r.prediction.padded), 17), epsilon, num(r.prediction.average, 6),
                num(r.prediction.max, 6), tr("± %1").arg(formatNumber(std::sqrt(r.prediction.max / beta), 3)),
                measured});
        CurvesChart::Curve c;
        c.name = label;
        const auto &byLength = r.prediction.byLength;
        for (std::size_t L = 0; L < byLength.size(); ++L) {
            c.x.push_back(static_cast<double>(L + 1));
            c.y.push_back(byLength[L]);
        }
        curves.push_back(std::move(c));
    }
    // Measured points (simulation) over the predicted lines: the same strategies, as markers in
    // their line's colour and named by its legend entry.
    int line = -1;
    for (const auto &r : result.results) {
        ++line;
        if (!r.measured)
            continue;
        CurvesChart::Curve m;
        m.name = tr("%1 measured").arg(QString::fromStdString(r.strategy.label()));
        m.markers = true;
        m.pairedWith = line;
        const auto &byLength = r.measured->byLength;
        std::vector<std::size_t> lengths;
        for (std::size_t L = 0; L < byLength.size(); ++L)
            if (byLength[L] > 0.0)
                lengths.push_back(L);
        // A long domain: at most 64 markers, small and without the white rim (1,024 rimmed dots
        // side by side were a white band hiding the predicted lines).
        const std::size_t stride = (lengths.size() + 63) / 64;
        if (stride > 1) {
            m.rim = false;
            m.markerSize = 4.0;
        }
        for (std::size_t i = 0; i < lengths.size(); i += std::max<std::size_t>(stride, 1)) {
            m.x.push_back(static_cast<double>(lengths[i] + 1));
            m.y.push_back(byLength[lengths[i]]);
        }
        curves.push_back(std::move(m));
    }
    m_rangeChart->setCurves(
        tr("Variance by range length (ε = %1): lines predicted, markers measured").arg(epsilon), curves,
        tr("range length L"), tr("variance"), true);
    const QString workload = m_rangesShown.workload == QLatin1String("prefixes") ? tr("prefixes")
                             : m_rangesShown.workload == QLatin1String("all-ranges")
                                 ? tr("ranges")
                                 : tr("ranges of one length");
    m_recommended->setText(
        tr("Recommended for this workload: <b>%1</b> — %2. Domain: %3 from %4 to %5, %6 cells (%7 empty); "
           "workload: %8 %9; error bars at %10.")
            .arg(QString::fromStdString(result.results[result.recommended].prediction.strategy.label()),
                 QString::fromLatin1(strategies::kRecommendedWhy),
                 QString::fromStdString(result.column).toHtmlEscaped(), formatNumber(result.lo, 17),
                 formatNumber(result.hi, 17), formatNumber(double(result.cells), 17),
                 formatNumber(double(result.emptyCells), 17), formatNumber(double(result.workloadSize), 17))
            .arg(workload, formatConfidence(m_rangesShown.confidence)));
}

void StrategiesLabDialog::showInference(const strategies::InferenceLabResult &result)
{
    m_inferenceTable->setRowCount(0);
    int row = 0;
    const QString projection = QString::fromStdString(result.projection);
    setRow(m_inferenceTable, row++, {tr("projection"), projection});
    setRow(m_inferenceTable, row++, {tr("vector size"), QString::number(result.vectorSize)});
    setRow(m_inferenceTable, row++, {tr("mean ‖q̃ − q‖² (before)"), num(result.sseBefore, 6)});
    setRow(m_inferenceTable, row++, {tr("mean ‖q̄ − q‖² (after)"), num(result.sseAfter, 6)});
    setRow(m_inferenceTable, row++, {tr("mean ‖q̃ − q̄‖² (moved)"), num(result.meanDistanceMoved, 6)});
    setRow(m_inferenceTable, row++,
           {tr("runs outside the constraints"), QString::number(result.runsOutsideConstraints)});
    setRow(m_inferenceTable, row++,
           {tr("runs where the projected vector got worse"), QString::number(result.runsWorse)});
    if (result.predicted)
        setRow(m_inferenceTable, row++,
               {tr("predicted before → after"),
                tr("%1 → %2").arg(num(result.predicted->first, 6), num(result.predicted->second, 6))});
    const double before = result.sseBefore, after = result.sseAfter, moved = result.meanDistanceMoved;
    // A short title: the chart is a third of the dialog wide and Qt elides a long one; the
    // identity itself is spelled out below the charts.
    m_inferenceChart->setBars(tr("Mean squared errors"),
                              {tr("before"), tr("after"), tr("moved"), tr("after + moved")},
                              {before, after, moved, after + moved}, {}, {}, tr("squared error"));
    showInferenceRuns(result);
}

void StrategiesLabDialog::showInferenceRuns(const strategies::InferenceLabResult &result)
{
    // Run by run: the error before the projection is at least the error after plus the distance
    // moved (equality for affine sets), in every run.
    CurvesChart::Curve runBefore, runAfter, runSum;
    runBefore.name = tr("‖q̃ − q‖²");
    runAfter.name = tr("‖q̄ − q‖²");
    runSum.name = tr("‖q̄ − q‖² + ‖q̃ − q̄‖²");
    for (auto *c : {&runBefore, &runAfter, &runSum})
        c->markers = true;
    // A run inside the constraints is not moved: its three values coincide. A ring, a diamond
    // inside it and a dot inside that keep all three visible (one shape each was one dot).
    runBefore.marker = CurvesChart::Marker::Ring;
    runBefore.markerSize = 12.0;
    runSum.marker = CurvesChart::Marker::Diamond;
    runSum.markerSize = 8.0;
    runAfter.markerSize = 5.0;
    int index = 0;
    for (const auto &r : result.firstRuns) {
        const double x = ++index;
        runBefore.x.push_back(x);
        runBefore.y.push_back(r.before);
        runAfter.x.push_back(x);
        runAfter.y.push_back(r.after);
        runSum.x.push_back(x);
        runSum.y.push_back(r.after + r.moved);
    }
    m_inferenceRuns->setCurves(tr("Run by run"), {runBefore, runAfter, runSum}, tr("run"),
                               tr("squared error"));
    // The first run's vectors: what the projection did to them. At the chart's scale the three
    // mostly coincide (the noise is small beside the counts), so they are drawn nested, widest
    // first: the truth as a wide band, the noisy values as dots on it, the projection as a narrow
    // dashed line on top; each shows around or between the one above it. Drawn at one width,
    // the projection covered the other two.
    const strategies::InferenceExample none;
    const strategies::InferenceExample &first = result.example ? *result.example : none;
    std::vector<CurvesChart::Curve> example;
    for (const auto &[v, name, markers] : {std::tuple{&first.truth, tr("true (simulation)"), false},
                                           std::tuple{&first.noisy, tr("noisy q̃"), true},
                                           std::tuple{&first.projected, tr("projected q̄"), false}}) {
        CurvesChart::Curve c;
        c.name = name;
        c.markers = markers;
        for (std::size_t i = 0; i < v->size() && i < 512; ++i) {
            c.x.push_back(static_cast<double>(i));
            c.y.push_back((*v)[i]);
        }
        example.push_back(std::move(c));
    }
    example[0].lineWidth = 8.0;
    example[1].markerSize = 5.0;
    example[1].rim = false;
    example[2].lineWidth = 2.0;
    example[2].lineStyle = Qt::DashLine;
    m_inferenceExample->setCurves(tr("First run: %1").arg(QString::fromStdString(result.projection)), example,
                                  tr("coordinate"), tr("value"));
}

void StrategiesLabDialog::showQuantile(const strategies::QuantileLabResult &result)
{
    QString extra;
    if (const auto &g = result.grid) {
        CurvesChart::Curve c;
        c.name = tr("P(candidate)");
        c.markers = true;
        for (std::size_t i = 0; i < g->candidates.size(); ++i) {
            c.x.push_back(g->candidates[i]);
            c.y.push_back(g->probabilities[i]);
        }
        m_noiseChart->hide();
        m_quantileChart->setCurves(tr("Exponential mechanism over the public grid (log scale)"), {c},
                                   tr("candidate"), tr("probability"), true);
        const double rankBound = g->rankErrorBound95;
        extra = tr(" With probability ≥ 95% the rank is within %1 %2 of the best candidate's.")
                    .arg(num(rankBound), rankBound == 1.0 ? tr("row") : tr("rows"));
    }
    m_quantileText->setText(
        tr("<b>Simulation</b> (true data of a public dataset): the true q-quantile is %1; the "
           "continuous exponential mechanism's expected absolute error is %2 (expected rank error "
           "%3 rows).%4")
            .arg(num(result.trueQuantile, 8), num(result.expectedAbsoluteError),
                 num(result.expectedRankError), extra));
}

void StrategiesLabDialog::showSmoothSensitivity(const strategies::SmoothSensitivityLabResult &result)
{
    CurvesChart::Curve c;
    c.name = tr("e^(−kβ)·A(k)");
    for (const auto &[k, value] : result.curve) {
        c.x.push_back(static_cast<double>(k));
        c.y.push_back(value);
    }
    m_quantileChart->setCurves(tr("Smooth sensitivity of the median: its maximum is S* (log scale)"), {c},
                               tr("k"), tr("e^(−kβ)·A(k)"), true);
    // The two noise laws per unit of S* (their scales: 6/ε for Cauchy with γ = 2, 2/ε for Laplace),
    // so the shapes compare whatever S* is: Cauchy's tails decay like 1/z², Laplace's exponentially.
    const double epsilon = m_quantileEpsilon->value();
    const double cauchyScale = 6.0 / epsilon, laplaceScale = 2.0 / epsilon;
    CurvesChart::Curve cauchy, laplace;
    cauchy.name = tr("Cauchy, scale 6S*/ε (pure ε-DP)");
    laplace.name = tr("Laplace, scale 2S*/ε ((ε, δ)-DP)");
    const double span = 20.0 * cauchyScale;
    for (int i = -200; i <= 200; ++i) {
        const double z = span * i / 200.0;
        cauchy.x.push_back(z);
        cauchy.y.push_back(
            1.0 / (std::numbers::pi * cauchyScale * (1.0 + (z / cauchyScale) * (z / cauchyScale))));
        laplace.x.push_back(z);
        laplace.y.push_back(std::exp(-std::fabs(z) / laplaceScale) / (2.0 * laplaceScale));
    }
    m_noiseChart->setCurves(tr("Noise density per unit of S* (log scale)"), {cauchy, laplace},
                            tr("noise / S*"), tr("density"), true);
    m_noiseChart->show();
    m_quantileText->setText(
        tr("<b>Non-private diagnostic</b> (simulation on public data): S*, A(k) and the local sensitivity are "
           "computed from the true data and are not private. Median %1. Pure ε-DP (Cauchy, β = ε/6): S* = %2 at k = %3, "
           "noise scale 6S*/ε = %4. (ε, δ = 10⁻⁶) with Laplace: S* = %5, scale 2S*/ε = %6. Compare the exponential "
           "mechanism's expected absolute error %7: data-dependent noise can be tiny on “nice” data and enormous at "
           "small ε. DAWA (Li et al. 2014) goes further — it picks a data-dependent partition privately; here it is "
           "only described, as its first stage's privacy argument has not been re-derived.")
            .arg(num(result.median, 8), num(result.cauchy.value), QString::number(result.cauchy.attainedAt),
                 num(result.cauchy.noiseScale), num(result.laplace.value), num(result.laplace.noiseScale),
                 num(result.exponentialMechanismError)));
}

} // namespace pbx::ui
