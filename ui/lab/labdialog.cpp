// SPDX-License-Identifier: MIT
#include "ui/lab/labdialog.h"

#include "ui/charts/labchart.h"
#include "ui/help/glossarylinks.h"
#include "ui/util/numberformat.h"
#include "ui/util/palette.h"
#include "ui/widgets/columnfitter.h"
#include "ui/widgets/scientificspinbox.h"
#include "ui/widgets/screenfit.h"
#include "ui/widgets/wrappedheight.h"

#include <QCloseEvent>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <limits>

namespace pbx::ui {

namespace {

using session::ReleaseMethod;
using FK = filters::FilterKind;

/// Laplace-family methods warm, Gaussian/Brownian cool; doubling dashed, noise reduction solid,
/// the unified filter's runs dotted.
struct MethodStyle
{
    QColor colour;
    Qt::PenStyle style;
};

MethodStyle styleFor(const simulation::LabMethod &m)
{
    if (m.procedure == simulation::LabProcedure::IReductBatch)
        return {palette::mutedText, Qt::DashDotLine}; // the batch baseline, drawn apart
    const bool doubling
        = m.mechanism == ReleaseMethod::DoublingLaplace || m.mechanism == ReleaseMethod::DoublingGaussian;
    const Qt::PenStyle style = doubling                  ? Qt::DashLine
                               : m.filter == FK::Unified ? Qt::DotLine
                                                         : Qt::SolidLine;
    switch (m.mechanism) {
    case ReleaseMethod::DoublingLaplace:
        return {palette::chartRed, style};
    case ReleaseMethod::DoublingGaussian:
        return {palette::chartPurple, style};
    case ReleaseMethod::LaplaceNr:
        return {m.filter == FK::Unified ? QColor(0x9c, 0x5b, 0x16) : QColor(0xe0, 0x8a, 0x16), style};
    case ReleaseMethod::Brownian:
        if (m.filter == FK::BrownianZcdp)
            return {palette::chartBlue, style};
        return {m.filter == FK::Unified ? palette::chartGreen : palette::chartTeal, style};
    default:
        return {palette::mutedText, style};
    }
}

QTableWidgetItem *numberItem(const QString &text, double raw)
{
    auto *item = new QTableWidgetItem(text);
    item->setData(LabDialog::RawValueRole, raw);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

} // namespace

LabDialog::LabDialog(QWidget *parent) : QDialog(parent)
{
    setObjectName(QStringLiteral("labDialog"));
    setWindowTitle(tr("Relative-error lab"));
    setSizeGripEnabled(true);
    createWidgets();
    createLayout();
    connectSignals();
    setRunning(false);
    updateDatasetText();
    m_status->setText(tr("Set the parameters and press Run."));
    linkGlossaryTermsInLabels(this); // the explanations' terms link to Help ▸ Glossary
    for (QLabel *label : findChildren<QLabel *>())
        if (label->wordWrap() && label->parentWidget() != m_chart)
            keepWrappedHeight(label); // the texts above the chart keep their height
    // Room for the chart and its legend below the settings (its size hint, 829 × 512, left the
    // chart 240 px and squeezed the legend over the axis title), within the screen.
    resizeWithinScreen(this, QSize(1100, 800));
    keepFrameInsideScreen(this);
}

void LabDialog::createWidgets()
{
    m_dataset = new QLabel(this);
    m_dataset->setWordWrap(true);
    m_dataset->setTextFormat(Qt::RichText);

    const auto scientific = [this](double low, double high, double value, const QString &tip) {
        auto *box = new ScientificSpinBox(this);
        box->setRange(low, high);
        box->setValue(value);
        box->setToolTip(tip);
        return box;
    };
    m_alpha = scientific(0.1, 100.0, 10.0,
                         tr("α: an answer counts when it is certified within "
                            "±α·|answer| from released values alone"));
    m_alpha->setSuffix(QStringLiteral(" %"));
    m_alpha->setSingleStep(1.0);
    m_confidence = scientific(50.0, 99.999, 95.0, tr("Confidence 1 − β of each certificate"));
    m_confidence->setSuffix(QStringLiteral(" %"));
    m_confidence->setSingleStep(1.0);
    m_epsilon = scientific(1e-3, 100.0, 1.0, tr("The whole budget of each simulated session"));
    m_epsilon->setSingleStep(0.5);
    m_delta = scientific(1e-15, 0.1, 1e-6,
                         tr("δ of the zCDP and unified filters and of ex-post "
                            "Brownian boundaries"));
    m_delta->setMultiplicativeStep(10.0);
    m_cap = scientific(0.0, 100.0, 0.0,
                       tr("Per-query cap as ε (pure and ex-post mechanisms) or "
                          "ρ = ε²/2 (zCDP mechanisms); queries that cannot be "
                          "certified within it are abandoned. “planned” (0): the sessions' rule, "
                          "the remaining budget divided by the queries still to come"));
    m_cap->setSpecialValueText(tr("planned"));
    m_cap->setMultiplicativeStep(2.0);
    m_repetitions = new QSpinBox(this);
    m_repetitions->setRange(1, 100000);
    m_repetitions->setValue(200);
    m_repetitions->setToolTip(tr("Independent sessions per method (each with its own query order "
                                 "and noise; the same for every method)"));
    m_queries = new QSpinBox(this);
    m_queries->setRange(1, 20000);
    m_queries->setValue(500);
    m_queries->setToolTip(tr("Counts asked per session, in a random order of the data cube's "
                             "cells"));
    m_seed = new QSpinBox(this);
    m_seed->setRange(0, std::numeric_limits<int>::max());
    m_seed->setValue(1);
    m_seed->setToolTip(tr("Seeds the query orders and the noise: the same seed gives the same "
                          "numbers"));

    m_run = new QPushButton(tr("Run"), this);
    m_run->setDefault(true);
    m_run->setToolTip(tr("Simulate every method on the same query streams (2 worker threads)"));
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setEnabled(false);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, kLabProgressMax);
    m_progress->setValue(0);
    m_progress->setTextVisible(true);
    m_status = new QLabel(this);
    m_status->setTextFormat(Qt::PlainText);
    m_status->setMinimumWidth(260);
    m_status->setWordWrap(true); // the summary after a run is longer than the row at 1024 px

    // iReduct's outcome counts after a run (its two failure modes), below the table.
    m_batchOutcome = new QLabel(this);
    m_batchOutcome->setObjectName(QStringLiteral("labBatchOutcome"));
    m_batchOutcome->setTextFormat(Qt::PlainText);
    m_batchOutcome->setWordWrap(true);
    m_batchOutcome->hide();

    m_table = new QTableWidget(0, ColumnCount, this);
    m_table->setObjectName(QStringLiteral("labResults"));
    m_table->setHorizontalHeaderLabels({tr("Method"), tr("Filter"), tr("Answered (mean ± sd)"),
                                        tr("Within α"), tr("Attempted"), tr("ε spent")});
    m_table->horizontalHeaderItem(AnsweredColumn)
        ->setToolTip(tr("Counts released with the target certified, per repetition"));
    m_table->horizontalHeaderItem(WithinColumn)
        ->setToolTip(tr("Of those, the fraction really within α of the true count (simulation "
                        "mode: scored with the true counts after the fact)"));
    m_table->horizontalHeaderItem(AttemptedColumn)
        ->setToolTip(tr("Counts that got any release (certified or not), per repetition"));
    m_table->horizontalHeaderItem(EpsilonColumn)
        ->setToolTip(tr("ε spent per repetition (zCDP filters: at δ)"));
    m_table->verticalHeader()->setVisible(false);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    // At 1024 px the results do not scroll sideways: secondary columns give way (header's menu),
    // then the method's name narrows, elided (its tooltip has it whole). The filter stays: three
    // rows read "Brownian NR" and two "Laplace NR" with the filter fitted away at 1024×768.
    auto *fitter = ColumnFitter::install(m_table, {AttemptedColumn, WithinColumn});
    const QFontMetrics metrics(m_table->font());
    m_table->setColumnWidth(MethodColumn,
                            metrics.horizontalAdvance(QStringLiteral("Doubling Gaussian")) + 24);
    fitter->setElastic(MethodColumn, metrics.horizontalAdvance(QStringLiteral("Doubling…")) + 24);
    m_table->setColumnWidth(FilterColumn, metrics.horizontalAdvance(QStringLiteral("brownian-zCDP")) + 24);
    m_table->setColumnWidth(AnsweredColumn,
                            metrics.horizontalAdvance(QStringLiteral("Answered (mean ± sd)")) + 20);
    m_table->setColumnWidth(WithinColumn, metrics.horizontalAdvance(QStringLiteral("100.0 %")) + 24);
    m_table->setColumnWidth(AttemptedColumn, metrics.horizontalAdvance(QStringLiteral("Attempted")) + 20);

    m_chart = new LabChart(this);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
}

void LabDialog::createLayout()
{
    auto *banner = new QLabel(tr("<b>Simulation mode:</b> true counts are read to score "
                                 "accuracy, never to stop. Nothing here is released or charged "
                                 "to the session."),
                              this);
    banner->setObjectName(QStringLiteral("labBanner"));
    banner->setWordWrap(true);
    banner->setTextFormat(Qt::RichText);
    banner->setStyleSheet(QStringLiteral("QLabel#labBanner { background: %1; color: %2;"
                                         " border: 1px solid #f0d29a; border-radius: 4px;"
                                         " padding: 6px 8px; }")
                              .arg(palette::warningBackground.name(), palette::bannerText.name()));

    // Label–field pairs in four columns of two rows.
    auto *settingsBox = new QGroupBox(tr("Settings"), this);
    auto *grid = new QGridLayout(settingsBox);
    grid->setHorizontalSpacing(10);
    const auto addField = [&](int row, int column, const QString &label, QWidget *field) {
        grid->addWidget(new QLabel(label, settingsBox), row, column * 2);
        grid->addWidget(field, row, column * 2 + 1);
    };
    addField(0, 0, tr("Relative error α:"), m_alpha);
    addField(1, 0, tr("Confidence:"), m_confidence);
    addField(0, 1, tr("Budget ε:"), m_epsilon);
    addField(1, 1, tr("δ:"), m_delta);
    addField(0, 2, tr("Repetitions:"), m_repetitions);
    addField(1, 2, tr("Queries per repetition:"), m_queries);
    addField(0, 3, tr("Per-query cap ε:"), m_cap);
    addField(1, 3, tr("Seed:"), m_seed);
    for (int c = 1; c < 8; c += 2)
        grid->setColumnStretch(c, 1);

    auto *runRow = new QHBoxLayout;
    runRow->addWidget(m_run);
    runRow->addWidget(m_cancel);
    runRow->addWidget(m_progress, 1);
    runRow->addWidget(m_status, 1);

    auto *note = new QLabel(
        tr("<p><b>How to read it.</b> <i>Answered</i>: counts released with the target "
           "certified from released values alone (a relative target ±α·y at half-width w holds once the "
           "released value is at least w(1+α)/α), mean ± sd over "
           "repetitions. <i>Within α</i>: of those, the share really within α of the true "
           "count — only a simulation can say. <i>Attempted</i>: counts that got any release. "
           "Noise reduction pays only the last level released; doubling pays every level.</p>"
           "<p>This is our protocol, modelled on the relative-error experiment of Ligett et al. "
           "(NeurIPS 2017), on this dataset, not the papers' experiments. The ranking depends on the per-query cap, the grids "
           "and α.</p>"),
        this);
    note->setWordWrap(true);
    note->setTextFormat(Qt::RichText);
    note->setStyleSheet(palette::labelColourStyle(palette::mutedText));
    auto *left = new QWidget(this);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_table, 1);
    leftLayout->addWidget(m_batchOutcome);
    leftLayout->addWidget(note);

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->setChildrenCollapsible(false);
    splitter->addWidget(left);
    splitter->addWidget(m_chart);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({640, 660});

    auto *layout = new QVBoxLayout(this);
    layout->setSpacing(8);
    layout->addWidget(banner);
    layout->addWidget(m_dataset);
    layout->addWidget(settingsBox);
    layout->addLayout(runRow);
    layout->addWidget(splitter, 1);
    layout->addWidget(m_buttons);
}

void LabDialog::connectSignals()
{
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
    connect(m_run, &QPushButton::clicked, this, &LabDialog::run);
    connect(m_cancel, &QPushButton::clicked, this, &LabDialog::cancel);
    connect(&m_watcher, &QFutureWatcher<LabOutcome>::finished, this, &LabDialog::onFinished);
    connect(&m_watcher, &QFutureWatcher<LabOutcome>::progressValueChanged, m_progress,
            &QProgressBar::setValue);
    connect(&m_watcher, &QFutureWatcher<LabOutcome>::progressTextChanged, this, [this](const QString &text) {
        if (!m_cancelRequested)
            m_status->setText(text);
    });
}

LabDialog::~LabDialog()
{
    stopAndWait();
}

QSize LabDialog::sizeHint() const
{
    return {1300, 820};
}

QString LabDialog::methodName(const simulation::LabMethod &method)
{
    if (method.procedure == simulation::LabProcedure::IReductBatch)
        return tr("iReduct (batch)");
    switch (method.mechanism) {
    case ReleaseMethod::Laplace:
        return tr("Laplace");
    case ReleaseMethod::Gaussian:
        return tr("Gaussian");
    case ReleaseMethod::DoublingLaplace:
        return tr("Doubling Laplace");
    case ReleaseMethod::DoublingGaussian:
        return tr("Doubling Gaussian");
    case ReleaseMethod::LaplaceNr:
        return tr("Laplace NR");
    case ReleaseMethod::Brownian:
        return tr("Brownian NR");
    }
    return {};
}

QString LabDialog::filterName(filters::FilterKind kind)
{
    switch (kind) {
    case FK::Basic:
        return tr("pure ε");
    case FK::Zcdp:
        return tr("zCDP");
    case FK::ExPost:
        return tr("ex-post");
    case FK::Unified:
        return tr("unified");
    case FK::BrownianZcdp:
        return tr("brownian-zCDP");
    case FK::Odp:
        return tr("output DP");
    case FK::Rdp:
        return tr("RDP");
    case FK::Advanced:
        return tr("advanced composition");
    case FK::Odometer:
        return tr("odometer");
    }
    return {};
}

void LabDialog::setTable(std::shared_ptr<const data::Table> table, filters::FilterSplit split)
{
    // The lab reads true counts and charges nothing: on data not declared public it runs on a
    // synthetic table generated from the public metadata alone, or not at all.
    m_refusal.clear();
    m_synthetic = false;
    if (table && !table->isPublic()) {
        auto synthetic = simulation::synthesizeFromMetadata(*table, 1);
        if (synthetic) {
            table = std::make_shared<const data::Table>(std::move(synthetic).value());
            m_synthetic = true;
        } else {
            m_refusal = toQString(simulation::labRefusal(table->name()) + "; " + synthetic.error().message);
            table.reset();
        }
    }
    m_tableData = std::move(table);
    m_split = split;
    updateDatasetText();
    if (!isRunning())
        m_run->setEnabled(m_tableData != nullptr);
}

void LabDialog::setSource(const std::shared_ptr<const data::Source> &source, filters::FilterSplit split)
{
    if (!source || source->kind() == data::SourceKind::InMemory) {
        const auto *inMemory = dynamic_cast<const data::TableSource *>(source.get());
        setTable(inMemory ? inMemory->table() : nullptr, split);
        return;
    }
    m_refusal.clear();
    m_synthetic = false;
    m_tableData.reset();
    if (source->isPublic()) {
        m_refusal = toQString(simulation::labRowsNotInMemory("the relative-error lab", *source));
    } else if (auto synthetic = simulation::synthesizeFromMetadata(*source, 1)) {
        m_tableData = std::make_shared<const data::Table>(std::move(synthetic).value());
        m_synthetic = true;
    } else {
        m_refusal
            = toQString(simulation::labRefusal(source->schema().name()) + "; " + synthetic.error().message);
    }
    m_split = split;
    updateDatasetText();
    if (!isRunning())
        m_run->setEnabled(m_tableData != nullptr);
}

void LabDialog::updateDatasetText()
{
    if (!m_tableData) {
        m_dataset->setText(
            m_refusal.isEmpty()
                ? tr("No dataset: open one in the main window first.")
                : tr("<b>Not available on this dataset.</b> %1.").arg(m_refusal.toHtmlEscaped()));
        return;
    }
    const QString synthetic
        = m_synthetic
              ? tr("<b>The session's dataset is not declared public</b>, so the lab runs on a synthetic "
                   "table drawn from its public metadata alone (declared categories and bounds, "
                   "uniformly). ")
              : QString();
    m_dataset->setText(
        synthetic
        + tr("Dataset <b>%1</b> (%2 rows). The workload is every cell of its data cube, as counts "
             "asked in a random order; each method answers as many as it can certify within α "
             "under one budget, each count capped per query. Unified filter split: %3 of ε and %4 "
             "of δ to the ex-post side (the session's setting). iReduct, the batch baseline, fixes "
             "the same counts in advance: if all become good early the rest of ε is wasted; if "
             "not, some answers stay bad.")
              .arg(toQString(m_tableData->name()).toHtmlEscaped(),
                   formatNumber(static_cast<double>(m_tableData->rowCount())),
                   formatPercent(m_split.expostEpsilonShare, 0), formatPercent(m_split.expostDeltaShare, 0)));
}

simulation::LabSettings LabDialog::settings() const
{
    simulation::LabSettings s;
    s.alpha = m_alpha->value() / 100.0;
    s.confidence = m_confidence->value() / 100.0;
    s.epsilon = m_epsilon->value();
    s.delta = m_delta->value();
    s.repetitions = m_repetitions->value();
    s.queriesPerRepetition = m_queries->value();
    s.maxEpsilonPerQuery = m_cap->value();
    s.seed = static_cast<std::uint64_t>(m_seed->value());
    s.split = m_split;
    return s;
}

void LabDialog::setSettings(const simulation::LabSettings &s)
{
    m_alpha->setValue(s.alpha * 100.0);
    m_confidence->setValue(s.confidence * 100.0);
    m_epsilon->setValue(s.epsilon);
    m_delta->setValue(s.delta);
    m_repetitions->setValue(s.repetitions);
    m_queries->setValue(s.queriesPerRepetition);
    m_cap->setValue(s.maxEpsilonPerQuery);
    m_seed->setValue(static_cast<int>(
        std::min<std::uint64_t>(s.seed, static_cast<std::uint64_t>(std::numeric_limits<int>::max()))));
    m_split = s.split;
    updateDatasetText();
}

bool LabDialog::isRunning() const
{
    return m_watcher.isRunning();
}

void LabDialog::run()
{
    if (isRunning() || !m_tableData)
        return;
    const auto s = settings();
    if (auto valid = s.validate(); !valid) {
        m_status->setText(tr("Not run: %1").arg(toQString(valid.error().message)));
        return;
    }
    // The last finished run's table and chart stay, greyed, until this run
    // finishes; a cancelled or failed run leaves them as they were.
    m_chart->setComputing(true);
    m_table->setEnabled(false);
    m_cancelRequested = false;
    m_progress->setValue(0);
    m_status->setText(m_results.empty() ? tr("Starting…")
                                        : tr("Starting… (the previous run's results, greyed, stay until "
                                             "this one finishes)"));
    LabInput input;
    input.table = m_tableData;
    input.settings = s;
    setRunning(true);
    m_watcher.setFuture(startLab(input));
}

void LabDialog::cancel()
{
    if (!isRunning())
        return;
    m_cancelRequested = true;
    m_status->setText(tr("Cancelling…"));
    m_watcher.cancel();
}

void LabDialog::stopAndWait()
{
    if (!m_watcher.isFinished()) {
        m_cancelRequested = true;
        m_watcher.cancel();
        m_watcher.waitForFinished();
    }
}

void LabDialog::closeEvent(QCloseEvent *event)
{
    stopAndWait();
    QDialog::closeEvent(event);
}

void LabDialog::setRunning(bool running)
{
    m_run->setEnabled(!running && m_tableData != nullptr);
    m_cancel->setEnabled(running);
    for (QWidget *w : std::initializer_list<QWidget *>{m_alpha, m_confidence, m_epsilon, m_delta,
                                                       m_repetitions, m_queries, m_cap, m_seed})
        w->setEnabled(!running);
}

void LabDialog::onFinished()
{
    setRunning(false);
    m_chart->setComputing(false);
    m_table->setEnabled(true);
    const QFuture<LabOutcome> future = m_watcher.future();
    const QString kept = m_results.empty() ? QString() : tr(" — the previous run's results are shown.");
    // After a cancel the job adds nothing, and anything it did add is ignored.
    if (m_cancelRequested || m_watcher.isCanceled() || future.resultCount() == 0) {
        m_progress->setValue(0);
        m_status->setText(m_results.empty() ? tr("Cancelled: no results.") : tr("Cancelled") + kept);
        Q_EMIT runFinished(false);
        return;
    }
    const LabOutcome outcome = future.result();
    if (!outcome.error.isEmpty()) {
        m_status->setText(tr("Not run: %1").arg(outcome.error) + kept);
        Q_EMIT runFinished(false);
        return;
    }
    showResults(outcome);
    Q_EMIT runFinished(true);
}

void LabDialog::showResults(const LabOutcome &outcome)
{
    m_results = outcome.results;
    m_table->setRowCount(static_cast<int>(m_results.size()));
    std::vector<LabChart::Curve> curves;
    curves.reserve(m_results.size());
    for (std::size_t i = 0; i < m_results.size(); ++i) {
        const auto &r = m_results[i];
        const int row = static_cast<int>(i);
        const MethodStyle style = styleFor(r.method);
        auto *method = new QTableWidgetItem(methodName(r.method));
        const QString named
            = QStringLiteral("%1 · %2").arg(methodName(r.method), filterName(r.method.filter));
        method->setToolTip(
            r.batch ? named + u'\n' + batchOutcomeText(*r.batch, r.answeredPerRepetition.size()) : named);
        method->setData(Qt::DecorationRole, style.colour);
        m_table->setItem(row, MethodColumn, method);
        m_table->setItem(row, FilterColumn, new QTableWidgetItem(filterName(r.method.filter)));
        auto *answered = numberItem(
            QStringLiteral("%1 ± %2").arg(formatNumber(r.answeredMean, 4), formatNumber(r.answeredSd, 3)),
            r.answeredMean);
        answered->setData(RawValueRole + 1, r.answeredSd);
        m_table->setItem(row, AnsweredColumn, answered);
        // A share of no answers is no score at all: "—", not "100.0 %".
        auto *within = numberItem(r.withinAlpha ? formatPercent(*r.withinAlpha) : tr("—"),
                                  r.withinAlpha.value_or(-1.0));
        if (!r.withinAlpha)
            within->setToolTip(tr("No answers yet: this method certified no count within α, so there is "
                                  "nothing to score."));
        m_table->setItem(row, WithinColumn, within);
        m_table->setItem(row, AttemptedColumn, numberItem(formatNumber(r.attemptedMean, 4), r.attemptedMean));
        m_table->setItem(row, EpsilonColumn,
                         numberItem(formatNumber(r.epsilonSpentMean, 3), r.epsilonSpentMean));

        LabChart::Curve curve;
        curve.name = QStringLiteral("%1 · %2").arg(methodName(r.method), filterName(r.method.filter));
        curve.colour = style.colour;
        curve.style = style.style;
        curve.epsilon = r.epsilonCurve;
        curve.answered = r.answeredCurve;
        curve.finalSd = r.answeredSd;
        curves.push_back(std::move(curve));
    }
    m_chart->setCurves(curves);
    m_table->resizeColumnsToContents();
    m_progress->setValue(kLabProgressMax);
    m_status->setText(tr("%1 methods × %2 repetitions × %3 queries over %4 cells in %5 s")
                          .arg(m_results.size())
                          .arg(settings().repetitions)
                          .arg(settings().queriesPerRepetition)
                          .arg(outcome.cells)
                          .arg(formatNumber(outcome.seconds, 2)));
    m_batchOutcome->clear();
    for (const auto &r : m_results)
        if (r.batch)
            m_batchOutcome->setText(batchOutcomeText(*r.batch, r.answeredPerRepetition.size()));
    m_batchOutcome->setVisible(!m_batchOutcome->text().isEmpty());
}

QString LabDialog::batchOutcomeText(const simulation::LabResult::BatchOutcomes &batch,
                                    std::size_t repetitions)
{
    return tr("iReduct: in %1 of %2 repetitions every count was certified with budget left over (the "
              "batch was too small); in %3 the budget ran out first (too large).")
        .arg(batch.allGood)
        .arg(repetitions)
        .arg(batch.budgetExhausted);
}

} // namespace pbx::ui
