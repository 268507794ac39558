// SPDX-License-Identifier: MIT
#include "ui/growing/growinglabdialog.h"

#include "core/io/growing_lab_json.h"
#include "core/io/text_file.h"
#include "core/simulation/growing_lab_run.h"
#include "ui/charts/growingchart.h"
#include "ui/growing/atgpanel.h"
#include "ui/help/glossarylinks.h"
#include "ui/util/numberformat.h"
#include "ui/util/palette.h"
#include "ui/widgets/fitscrollarea.h"
#include "ui/widgets/screenfit.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace pbx::ui {

using growinglab::paperCitation;

namespace {

/// Animation: a full sweep over log t takes 250 ticks of 40 ms at 1×.
constexpr int kTickMilliseconds = 40;
constexpr double kTicksPerSweep = 250.0;

/// `content` in a frameless scroll area: in a small window the panels scroll instead of squeezing
/// the charts' wrapping legends over their axes.
QScrollArea *scrolling(QWidget *content)
{
    auto *area = new QScrollArea;
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    area->setWidget(content);
    return area;
}

} // namespace

GrowingLabDialog::GrowingLabDialog(QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("Growing database lab"));
    createWidgets();
    createLayout();
    connectSignals();
    updateVisibility();
    updatePlan();
    // Opens inside a 1024×700 projector screen (the editor and the panels scroll there) and at a
    // comfortable size where there is room.
    resizeWithinScreen(this, QSize(1220, 860));
    keepFrameInsideScreen(this);
    linkGlossaryTermsInLabels(this); // the explanations' terms link to Help ▸ Glossary
}

GrowingLabDialog::~GrowingLabDialog()
{
    m_watcher->cancel();
    m_watcher->waitForFinished();
}

void GrowingLabDialog::createWidgets()
{
    m_editor = new GrowingLabEditor(this);
    m_error = new QLabel(this);
    m_error->setWordWrap(true);
    m_error->setStyleSheet(palette::labelColourStyle(palette::errorText));
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_banner = new QLabel(
        tr("A budget that lasts forever while rows keep arriving (%1). The plan "
           "uses public parameters only; <b>Run</b> is a <b>simulation on the public CPS1988 rows</b>: "
           "true answers are read to score accuracy, never to decide. Nothing is charged to the "
           "session.")
            .arg(paperCitation()),
        this);
    m_banner->setWordWrap(true);
    m_tabs = new QTabWidget(this);
    m_timeline = new GrowingChart(this);
    m_timeline->setToolTip(tr("BBScheduler's epoch i covers t_i = n(1+γ)^i … t_{i+1} − 1 and runs the "
                              "black box once at ε_i; Σε_i converges to the budget and never exceeds "
                              "it (%1).")
                               .arg(paperCitation()));
    m_accuracy = new GrowingChart(this);
    m_accuracy->setToolTip(tr("α_i: the black box's accuracy at (ε_i, t_i, β_i); s_i = 1 − t_i/t_{i+1}: "
                              "the staleness of an answer held through the epoch (%1).")
                               .arg(paperCitation()));
    m_simulationNote = new QLabel(this);
    m_simulationNote->setWordWrap(true);
    m_pmwgChart = new GrowingChart(this);
    m_pmwgChart->setLogX(false);
    m_pmwgPrivacy = new GrowingBarChart(this);
    m_pmwgErrors = new GrowingBarChart(this);
    m_pmwgNote = new QLabel(this);
    m_pmwgNote->setWordWrap(true);
    m_pmwgNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_atg = new AtgPanel(GrowingLabEditor::predicates(), this);

    m_play = new QPushButton(tr("Play"), this);
    m_play->setCheckable(true);
    m_speed = new QComboBox(this);
    for (const double s : {0.25, 0.5, 1.0, 2.0, 4.0})
        m_speed->addItem(tr("%1×").arg(s), s);
    m_speed->setCurrentIndex(2);
    m_readout = new QLabel(this);
    m_readout->setObjectName(QStringLiteral("growingReadout"));
    m_readout->setWordWrap(true);
    m_readout->setMinimumHeight(2 * fontMetrics().lineSpacing());
    m_animation = new QTimer(this);
    m_animation->setInterval(kTickMilliseconds);

    m_run = new QPushButton(tr("Run"), this);
    m_run->setDefault(true);
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setEnabled(false);
    m_save = new QPushButton(tr("Save document…"), this);
    m_save->setToolTip(tr("The plan, or the simulation when one is shown, as a \"pbx-simulation\" JSON "
                          "document (as pbx-cli simulate growing writes)."));
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_explain = new QLabel(this);
    m_explain->setWordWrap(true);
    m_explain->setStyleSheet(palette::labelColourStyle(palette::mutedText));
    m_watcher = new QFutureWatcher<GrowingRunOutcome>(this);
}

void GrowingLabDialog::createLayout()
{
    auto *editor = new QGroupBox(tr("Schedule"), this);
    auto *editorLayout = new QVBoxLayout(editor);
    editorLayout->addWidget(m_editor);
    editorLayout->addWidget(m_error);
    auto *runRow = new QHBoxLayout;
    runRow->addWidget(m_run);
    runRow->addWidget(m_cancel);
    runRow->addWidget(m_save);
    editorLayout->addLayout(runRow);
    editorLayout->addWidget(m_progress);
    editorLayout->addWidget(m_status);
    editorLayout->addSpacing(8);
    editorLayout->addWidget(m_explain);
    editorLayout->addStretch(1);
    editor->setMinimumWidth(400);
    editor->setMaximumWidth(460);
    // The form's rows at their natural height (the panels on the right scroll instead).
    editor->setMinimumHeight(editor->sizeHint().height());

    // Room for the plot and its wrapping legend; below this the legend would cover the axis.
    for (QWidget *chart : {static_cast<QWidget *>(m_timeline), static_cast<QWidget *>(m_accuracy),
                           static_cast<QWidget *>(m_pmwgChart)})
        chart->setMinimumHeight(320);
    m_tabs->addTab(scrolling(buildTimelineTab()), tr("Timeline && accuracy"));
    m_tabs->addTab(scrolling(buildPmwgTab()), tr("PMWG / NSG"));
    m_tabs->addTab(scrolling(m_atg), tr("ATG (sparse vector)"));

    auto *animation = new QHBoxLayout;
    animation->addWidget(m_play);
    animation->addWidget(new QLabel(tr("Speed"), this));
    animation->addWidget(m_speed);
    animation->addStretch(1);
    auto *right = new QVBoxLayout;
    right->addWidget(m_banner);
    right->addWidget(m_tabs, 1);
    right->addLayout(animation);
    // The read-out on a row of its own, as wide as the charts: beside Play and Speed it was
    // squeezed into a column of one or two words per line and cut at 1024 px.
    right->addWidget(m_readout);

    auto *layout = new QHBoxLayout(this);
    layout->addWidget(new FitScrollArea(editor, Qt::Vertical, this));
    layout->addLayout(right, 1);
}

QWidget *GrowingLabDialog::buildTimelineTab()
{
    auto *streamTab = new QWidget(m_tabs);
    auto *streamLayout = new QVBoxLayout(streamTab);
    streamLayout->addWidget(m_timeline, 1);
    streamLayout->addWidget(m_accuracy, 1);
    streamLayout->addWidget(m_simulationNote);
    return streamTab;
}

QWidget *GrowingLabDialog::buildPmwgTab()
{
    auto *pmwgTab = new QWidget(m_tabs);
    auto *pmwgLayout = new QVBoxLayout(pmwgTab);
    pmwgLayout->addWidget(m_pmwgChart, 3);
    auto *pmwgBars = new QHBoxLayout;
    pmwgBars->addWidget(m_pmwgPrivacy, 1);
    pmwgBars->addWidget(m_pmwgErrors, 1);
    pmwgLayout->addLayout(pmwgBars, 2);
    pmwgLayout->addWidget(m_pmwgNote);
    return pmwgTab;
}

void GrowingLabDialog::connectSignals()
{
    connect(m_editor, &GrowingLabEditor::kindChanged, this, [this] {
        updateVisibility();
        updatePlan();
    });
    connect(m_editor, &GrowingLabEditor::valueChanged, this, &GrowingLabDialog::updatePlan);
    connect(m_run, &QPushButton::clicked, this, [this] { run(); });
    connect(m_cancel, &QPushButton::clicked, this, &GrowingLabDialog::cancel);
    connect(m_save, &QPushButton::clicked, this, &GrowingLabDialog::saveInteractive);
    connect(m_watcher, &QFutureWatcher<GrowingRunOutcome>::progressRangeChanged, m_progress,
            &QProgressBar::setRange);
    connect(m_watcher, &QFutureWatcher<GrowingRunOutcome>::progressValueChanged, m_progress,
            &QProgressBar::setValue);
    connect(m_watcher, &QFutureWatcher<GrowingRunOutcome>::progressTextChanged, m_status, &QLabel::setText);
    connect(m_watcher, &QFutureWatcher<GrowingRunOutcome>::finished, this, &GrowingLabDialog::finished);
    connect(m_play, &QPushButton::toggled, this, &GrowingLabDialog::setPlaying);
    // The ATG tab replays the lab's start size and seed.
    for (QSpinBox *s : {m_editor->startSizeSpin(), m_editor->seedSpin()})
        connect(s, &QSpinBox::valueChanged, this, [this] {
            m_atg->setStream(std::uint64_t(m_editor->startSizeSpin()->value()),
                             std::uint64_t(m_editor->seedSpin()->value()));
        });
    connect(m_animation, &QTimer::timeout, this, &GrowingLabDialog::advanceCursor);
}

void GrowingLabDialog::updateVisibility()
{
    m_editor->updateVisibility();
    setGlossaryLinkedPlainText(m_explain, m_editor->explanation());
    const QString algorithm = m_editor->algorithm();
    const bool capped = algorithm == QStringLiteral("pmwg") || algorithm == QStringLiteral("nsg");
    m_tabs->setTabEnabled(1, capped);
    m_tabs->setCurrentIndex(capped ? 1 : 0);
}

QString GrowingLabDialog::errorText() const
{
    return m_error->text();
}

QString GrowingLabDialog::simulationText() const
{
    return m_simulationNote->text();
}

QString GrowingLabDialog::pmwgText() const
{
    return m_pmwgNote->text();
}

QString GrowingLabDialog::statusText() const
{
    return m_status->text();
}

QString GrowingLabDialog::cursorText() const
{
    return m_readout->text();
}

double GrowingLabDialog::horizonEnd() const
{
    return m_editor->horizonEnd();
}

void GrowingLabDialog::setChartsComputing(bool computing)
{
    for (ChartFrame *chart : std::initializer_list<ChartFrame *>{m_timeline, m_accuracy, m_pmwgChart,
                                                                 m_pmwgPrivacy, m_pmwgErrors})
        chart->setComputing(computing);
}

void GrowingLabDialog::showInvalid(const QString &message)
{
    m_plan.reset();
    m_simulation.reset();
    setChartsComputing(false); // the charts say why nothing is drawn
    m_error->setText(message);
    m_run->setEnabled(false);
    setPlaying(false);
    const QString text = tr("Nothing to show: %1").arg(message);
    m_timeline->clear(text);
    m_accuracy->clear(text);
    m_pmwgChart->clear(text);
    m_pmwgPrivacy->clear(QString());
    m_pmwgErrors->clear(QString());
    m_simulationNote->clear();
    m_pmwgNote->clear();
    m_readout->clear();
}

void GrowingLabDialog::updatePlan()
{
    if (isRunning()) {
        cancel();
        m_status->setText(tr("The input changed: the running simulation was cancelled."));
    }
    m_simulation.reset();
    m_editor->updateOptimalGamma();

    auto config = growing::parseGrowingLab(m_editor->configDocument(false));
    if (!config) {
        showInvalid(QString::fromStdString(config.error().message));
        return;
    }
    auto plan = growing::runGrowingLab(*config, nullptr, std::uint64_t(m_editor->seedSpin()->value()), true);
    if (!plan) {
        showInvalid(QString::fromStdString(plan.error().message));
        return;
    }
    m_plan = std::move(*plan);
    m_error->clear();
    m_run->setEnabled(!isRunning());
    drawCharts();
    setChartsComputing(false); // the new input's plan, not a stale result (a run was cancelled above)
    const double n = m_editor->startSizeSpin()->value();
    setCursorTime(std::clamp(m_cursorT, n, horizonEnd() - 1.0));
}

growinglab::LabView GrowingLabDialog::labView() const
{
    return growinglab::LabView{m_plan->config.algorithm,
                               *m_plan,
                               m_simulation ? &*m_simulation : nullptr,
                               double(m_editor->startSizeSpin()->value()),
                               horizonEnd(),
                               m_editor->sortedCheck()->isChecked(),
                               m_editor->queriesSpin()->value(),
                               m_editor->betaSpin()->value()};
}

void GrowingLabDialog::drawCharts()
{
    if (!m_plan)
        return;
    const growinglab::LabView view = labView();
    growinglab::drawTimeline(*m_timeline, view);
    m_simulationNote->setText(growinglab::drawAccuracy(*m_accuracy, view));
    m_pmwgNote->setText(growinglab::drawPmwgPanel({*m_pmwgChart, *m_pmwgPrivacy, *m_pmwgErrors}, view));
}

bool GrowingLabDialog::run()
{
    if (isRunning())
        return false;
    auto config = growing::parseGrowingLab(m_editor->configDocument(true));
    if (!config) {
        showInvalid(QString::fromStdString(config.error().message));
        return false;
    }
    if (!m_plan)
        return false;
    // The last finished simulation of this input stays drawn, greyed, until the new one finishes
    // (a cancel restores it): a chart never passes an old result off as the new one.
    setChartsComputing(true);
    m_run->setEnabled(false);
    m_cancel->setEnabled(true);
    m_progress->setRange(0, 0);
    m_status->setText(m_simulation ? tr("Simulating… (the previous simulation stays shown, greyed, until "
                                        "this one finishes)")
                                   : tr("Simulating…"));
    m_watcher->setFuture(startGrowingJob(*config, std::uint64_t(m_editor->seedSpin()->value())));
    return true;
}

bool GrowingLabDialog::isRunning() const
{
    return m_watcher->isRunning();
}

void GrowingLabDialog::cancel()
{
    m_watcher->cancel();
}

void GrowingLabDialog::waitForRun()
{
    m_watcher->waitForFinished();
    QCoreApplication::processEvents();
}

void GrowingLabDialog::finished()
{
    m_cancel->setEnabled(false);
    m_run->setEnabled(m_plan.has_value());
    m_progress->setRange(0, 1);
    setChartsComputing(false);
    const auto future = m_watcher->future();
    if (m_watcher->isCanceled() || future.resultCount() == 0) {
        m_progress->setValue(0);
        m_status->setText(m_simulation ? tr("Cancelled: the previous simulation stays shown.")
                                       : tr("Cancelled: no simulation shown."));
        return;
    }
    m_progress->setValue(1);
    GrowingRunOutcome outcome = future.result();
    if (!outcome.error.isEmpty()) {
        m_status->setText(outcome.error);
        return;
    }
    m_status->setText(
        tr("Simulation finished: %1.").arg(formatCount(outcome.repetitions, tr("run"), tr("runs"))));
    m_simulation = std::move(outcome);
    drawCharts();
    setCursorTime(m_cursorT);
}

Result<void> GrowingLabDialog::saveDocument(const QString &path) const
{
    if (!m_plan)
        return makeError(ErrorCode::InvalidArgument, "nothing to save: the input is invalid");
    const io::json::Json doc = growing::growingLabResultJson(m_simulation ? m_simulation->result : *m_plan);
    return io::writeTextFileAtomically(path.toStdString(), doc.dump(2) + "\n");
}

void GrowingLabDialog::saveInteractive()
{
    const QString path
        = QFileDialog::getSaveFileName(this, tr("Save the growing-database document"),
                                       QStringLiteral("growing-lab.json"), tr("JSON documents (*.json)"));
    if (path.isEmpty())
        return;
    auto saved = saveDocument(path);
    m_status->setText(saved ? tr("Saved %1.").arg(path) : QString::fromStdString(saved.error().message));
}

void GrowingLabDialog::setPlaying(bool playing)
{
    if (m_play->isChecked() != playing) {
        const QSignalBlocker block(m_play);
        m_play->setChecked(playing);
    }
    m_play->setText(playing ? tr("Pause") : tr("Play"));
    if (!playing) {
        m_animation->stop();
        return;
    }
    if (!m_plan) {
        setPlaying(false);
        return;
    }
    if (m_cursorT >= horizonEnd() - 1.0)
        setCursorTime(m_editor->startSizeSpin()->value());
    m_animation->start();
}

void GrowingLabDialog::advanceCursor()
{
    const double n = m_editor->startSizeSpin()->value();
    const double last = horizonEnd() - 1.0;
    const double span = std::log(last) - std::log(n);
    const double step = span / kTicksPerSweep * m_speed->currentData().toDouble();
    const double next = std::exp(std::log(std::max(m_cursorT, n)) + step);
    if (next >= last || !(span > 0.0)) {
        setCursorTime(last);
        setPlaying(false);
        return;
    }
    setCursorTime(next);
}

void GrowingLabDialog::setCursorTime(double t)
{
    m_cursorT = t;
    if (!m_plan) {
        m_readout->clear();
        return;
    }
    m_timeline->setCursor(t);
    m_accuracy->setCursor(t);
    m_pmwgChart->setCursor(t);
    m_readout->setText(growinglab::cursorReadout(labView(), t, *m_accuracy, *m_pmwgChart));
}

} // namespace pbx::ui
