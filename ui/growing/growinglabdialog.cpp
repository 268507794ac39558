// SPDX-License-Identifier: MIT
#include "ui/growing/growinglabdialog.h"

#include "core/growing/bb_scheduler.h"
#include "core/io/text_file.h"
#include "ui/charts/growingchart.h"
#include "ui/growing/atgpanel.h"
#include "ui/help/glossarylinks.h"
#include "ui/util/numberformat.h"
#include "ui/util/palette.h"
#include "ui/widgets/fitscrollarea.h"
#include "ui/widgets/scientificspinbox.h"
#include "ui/widgets/screenfit.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace pbx::ui {

using io::json::Json;

namespace {

/// The ten counting queries of the Monte Carlo in docs/growing-databases.md; the lab uses the first k.
const char *const kQueries[]
    = {"region == \"south\"", "ethnicity == \"afam\"", "parttime == \"yes\"", "smsa == \"yes\"",
       "education >= 16",     "education <= 11",       "wage < 500",          "wage >= 1000",
       "experience < 10",     "experience >= 30"};
constexpr int kQueryCount = 10;
const char *const kSortedOrder = "sorted:region == \"south\"";
/// The repetitions offered when ERMG is chosen (each one refits all its models).
constexpr int kErmRepetitions = 10;

/// Animation: a full sweep over log t takes 250 ticks of 40 ms at 1×.
constexpr int kTickMilliseconds = 40;
constexpr double kTicksPerSweep = 250.0;

const QColor kStaleness(0xd9, 0x77, 0x06);

double number(const Json &j)
{
    return j.is_number() ? j.get<double>() : std::numeric_limits<double>::quiet_NaN();
}

QString integer(double x)
{
    return QLocale().toString(static_cast<qlonglong>(std::llround(x)));
}

QString num(double x, int digits = 4)
{
    return std::isfinite(x) ? formatNumber(x, digits) : QStringLiteral("—");
}

GrowingChart::Series makeSeries(const QString &id, const QString &name, const QColor &colour,
                                GrowingChart::Kind kind, Qt::PenStyle style = Qt::SolidLine)
{
    GrowingChart::Series s;
    s.id = id;
    s.name = name;
    s.colour = colour;
    s.kind = kind;
    s.style = style;
    return s;
}

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

/// A "privacy" block of the core's document read in the budget's unit: ε (pure), ρ (zcdp), or ε at
/// the target δ (approx: the core's ρ accounts converted by the budget's own conversion).
struct PrivacyReading
{
    QString unit;
    double budget = std::numeric_limits<double>::quiet_NaN();
    double worstCase = std::numeric_limits<double>::quiet_NaN();
    double realised = std::numeric_limits<double>::quiet_NaN(); ///< NaN before a simulation
    QString note; ///< approx: the ρ the conversion started from
};

PrivacyReading privacyReading(const Json &privacy)
{
    PrivacyReading r;
    if (privacy.contains("target")) {
        const Json &target = privacy["target"];
        r.unit = QCoreApplication::translate("GrowingLabDialog", "ε at δ = %1")
                     .arg(formatNumber(number(target["delta"]), 3));
        r.budget = number(target["epsilon"]);
        r.worstCase = number(privacy.value("worst_case_target_epsilon", Json()));
        r.realised = number(privacy.value("realised_target_epsilon", Json()));
        r.note = QCoreApplication::translate("GrowingLabDialog",
                                             "(In ρ: realised %1, worst case %2 of %3; converted to ε "
                                             "at δ by the budget's conversion.)")
                     .arg(num(number(privacy.value("realised", Json()))), num(number(privacy["worst_case"])),
                          num(number(privacy["total_reserved"])));
        return r;
    }
    const bool rho = privacy.value("unit", "epsilon") == "rho";
    r.unit = rho ? QStringLiteral("ρ") : QStringLiteral("ε");
    r.budget = number(privacy["total_reserved"]);
    r.worstCase = number(privacy["worst_case"]);
    r.realised = number(privacy.value("realised", Json()));
    return r;
}

/// The paper every algorithm of this lab comes from, for the texts the user reads.
QString paperCitation()
{
    return QStringLiteral("Cummings, Krehbiel, Lai & Tantipongpipat, “Differential privacy for growing "
                          "databases”, NeurIPS 2018");
}

QString algorithmOf(const QComboBox *c)
{
    return c->currentData().toString();
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
    linkGlossaryTermsInLabels(this); // the explanations' terms link to Help ▸ Glossary
}

GrowingLabDialog::~GrowingLabDialog()
{
    m_watcher->cancel();
    m_watcher->waitForFinished();
}

void GrowingLabDialog::createWidgets()
{
    m_algorithm = new QComboBox(this);
    m_algorithm->addItem(tr("BBScheduler (epochs)"), QStringLiteral("bbscheduler"));
    m_algorithm->addItem(tr("BBImprover (a run per step)"), QStringLiteral("bbimprover"));
    m_algorithm->addItem(tr("PMWG (multiplicative weights)"), QStringLiteral("pmwg"));
    m_algorithm->addItem(tr("NSG (sparse vector, capped)"), QStringLiteral("nsg"));
    m_algorithm->addItem(tr("ERMG (private logistic regression)"), QStringLiteral("ermg"));
    m_dataset = new QComboBox(this);
    m_dataset->addItem(tr("cps1988 (public, 28,155 rows)"), QStringLiteral("cps1988"));
    m_startSize = new QSpinBox(this);
    m_startSize->setRange(1, std::numeric_limits<int>::max());
    m_startSize->setValue(1000);
    m_startSize->setGroupSeparatorShown(true);
    m_horizon = new QSpinBox(this);
    m_horizon->setRange(1, std::numeric_limits<int>::max());
    m_horizon->setValue(1000000);
    m_horizon->setGroupSeparatorShown(true);
    m_horizon->setToolTip(tr("The plan runs to this t; the simulation stops at the dataset's last row."));
    m_sorted = new QCheckBox(tr("sorted: region == \"south\" arrives last"), this);
    m_sorted->setToolTip(tr("The adversarial order of the staleness lemma: that query's count is frozen "
                            "while the other rows arrive (simulation only)."));
    m_schedule = new QComboBox(this);
    m_schedule->addItem(tr("geometric (pure: ε_i t_i constant)"), QStringLiteral("geometric"));
    m_schedule->addItem(tr("polynomial (pure: 6ε/(π²(i+1)²))"), QStringLiteral("polynomial"));
    m_schedule->addItem(tr("zCDP equalised (√ρ_i t_i constant)"), QStringLiteral("zcdp-equalised"));
    m_schedule->addItem(tr("zCDP geometric"), QStringLiteral("zcdp-geometric"));
    m_gamma = new QDoubleSpinBox(this);
    m_gamma->setDecimals(4);
    m_gamma->setRange(0.0, 5000.0); // the core decides what is valid (0 < γ ≤ 1000)
    m_gamma->setSingleStep(0.05);
    m_gamma->setValue(1.0);
    m_optimalGamma = new QPushButton(this);
    m_optimalGamma->setToolTip(tr("The γ that minimises the first epoch's bound α + s (searched over "
                                  "[0.005, 4]): larger γ means fewer, better-funded epochs but staler "
                                  "answers."));
    m_gammaRow = new QWidget(this);
    m_decay = new QDoubleSpinBox(this);
    m_decay->setDecimals(3);
    m_decay->setRange(0.0, 1.0);
    m_decay->setSingleStep(0.05);
    m_decay->setValue(0.1);
    m_budgetKind = new QComboBox(this);
    m_budgetKind->addItem(tr("pure ε"), QStringLiteral("pure"));
    m_budgetKind->addItem(tr("zCDP ρ"), QStringLiteral("zcdp"));
    m_budgetKind->addItem(tr("approximate (ε, δ) via zCDP"), QStringLiteral("approx"));
    m_epsilon = new QDoubleSpinBox(this);
    m_epsilon->setDecimals(4);
    m_epsilon->setRange(0.0, 100.0);
    m_epsilon->setValue(1.0);
    m_rho = new QDoubleSpinBox(this);
    m_rho->setDecimals(6);
    m_rho->setRange(0.0, 100.0);
    m_rho->setSingleStep(0.001);
    m_rho->setValue(0.024356);
    m_delta = new ScientificSpinBox(this);
    m_delta->setRange(0.0, 1.0);
    m_delta->setMultiplicativeStep(10.0);
    m_delta->setValue(1e-6);
    m_beta = new QDoubleSpinBox(this);
    m_beta->setDecimals(4);
    m_beta->setRange(0.0, 1.0);
    m_beta->setSingleStep(0.01);
    m_beta->setValue(0.05);
    m_queries = new QSpinBox(this);
    m_queries->setRange(1, kQueryCount);
    m_queries->setValue(kQueryCount);
    m_queries->setToolTip(tr("Counting queries answered by the Laplace-k black box (the first k of ten "
                             "predicates on cps1988: region, ethnicity, part-time, SMSA, education, wage, "
                             "experience)."));
    m_box = new QComboBox(this);
    m_box->addItem(tr("Laplace-k (counting queries)"), QStringLiteral("laplace-k"));
    m_box->addItem(tr("SmallDB m (SmallDBG, 28 marginal cells)"), QStringLiteral("smalldb"));
    m_smallDbM = new QSpinBox(this);
    m_smallDbM->setRange(1, 12); // the core refuses a range above 5·10⁶ databases (m ≥ 11)
    m_smallDbM->setValue(6);
    m_smallDbM->setToolTip(tr("The size m of the released database: SmallDB draws one of the "
                              "C(16 + m − 1, m) multisets of the 16 cells region × SMSA × part-time "
                              "by the exponential mechanism."));
    m_nsgC0 = new QDoubleSpinBox(this);
    m_nsgC0->setDecimals(2);
    m_nsgC0->setRange(0.0, 100000.0);
    m_nsgC0->setValue(10.0);
    m_nsgC0->setToolTip(tr("The cap on hard (⊤) answers: H(t) = ⌊c₀(1 + H_t − H_n)⌋, enforced."));
    m_nsgThreshold = new QDoubleSpinBox(this);
    m_nsgThreshold->setDecimals(3);
    m_nsgThreshold->setRange(0.0, 1.0);
    m_nsgThreshold->setSingleStep(0.05);
    m_nsgThreshold->setValue(0.5);
    m_nsgThreshold->setToolTip(
        tr("The threshold T (fraction scale): a query whose answer exceeds T is hard."));
    m_every = new QSpinBox(this);
    m_every->setRange(1, std::numeric_limits<int>::max());
    m_every->setValue(1000);
    m_every->setGroupSeparatorShown(true);
    m_every->setToolTip(tr("One model is fitted every m arrivals, charged for the whole block (a "
                           "simulation fits at most 1000)."));
    m_repetitions = new QSpinBox(this);
    m_repetitions->setRange(1, 100000);
    m_repetitions->setValue(200);
    m_seed = new QSpinBox(this);
    m_seed->setRange(0, std::numeric_limits<int>::max());
    m_seed->setValue(1);
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
    QStringList predicates;
    for (const char *q : kQueries)
        predicates << QString::fromUtf8(q);
    m_atg = new AtgPanel(predicates, this);

    m_play = new QPushButton(tr("Play"), this);
    m_play->setCheckable(true);
    m_speed = new QComboBox(this);
    for (const double s : {0.25, 0.5, 1.0, 2.0, 4.0})
        m_speed->addItem(tr("%1×").arg(s), s);
    m_speed->setCurrentIndex(2);
    m_readout = new QLabel(this);
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
    auto *gammaLayout = new QHBoxLayout(m_gammaRow);
    gammaLayout->setContentsMargins(0, 0, 0, 0);
    gammaLayout->addWidget(m_gamma, 1);
    gammaLayout->addWidget(m_optimalGamma);
    m_form = new QFormLayout;
    m_form->addRow(tr("Algorithm"), m_algorithm);
    m_form->addRow(tr("Dataset"), m_dataset);
    m_form->addRow(tr("Start size n"), m_startSize);
    m_form->addRow(tr("Horizon (last t)"), m_horizon);
    m_form->addRow(tr("Arrival order"), m_sorted);
    m_form->addRow(tr("Schedule"), m_schedule);
    m_form->addRow(tr("γ (epoch growth)"), m_gammaRow);
    m_form->addRow(tr("Decay a"), m_decay);
    m_form->addRow(tr("Budget"), m_budgetKind);
    m_form->addRow(tr("ε"), m_epsilon);
    m_form->addRow(tr("ρ"), m_rho);
    m_form->addRow(tr("δ"), m_delta);
    m_form->addRow(tr("β (failure probability)"), m_beta);
    m_form->addRow(tr("Black box"), m_box);
    m_form->addRow(tr("SmallDB size m"), m_smallDbM);
    m_form->addRow(tr("Cap c₀"), m_nsgC0);
    m_form->addRow(tr("Threshold T"), m_nsgThreshold);
    m_form->addRow(tr("Fit every m rows"), m_every);
    m_form->addRow(tr("Queries k"), m_queries);
    m_form->addRow(tr("Repetitions"), m_repetitions);
    m_form->addRow(tr("Seed"), m_seed);
    auto *editor = new QGroupBox(tr("Schedule"), this);
    auto *editorLayout = new QVBoxLayout(editor);
    editorLayout->addLayout(m_form);
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
    // The form's rows at their natural height (the panels on the right scroll instead). The rows of
    // one algorithm only (at most one more than any other algorithm's) are left out of it.
    for (QWidget *row : {static_cast<QWidget *>(m_smallDbM), static_cast<QWidget *>(m_nsgC0),
                         static_cast<QWidget *>(m_nsgThreshold), static_cast<QWidget *>(m_every)})
        m_form->setRowVisible(row, false);
    editor->setMinimumHeight(editor->sizeHint().height());

    // Room for the plot and its wrapping legend; below this the legend would cover the axis.
    for (QWidget *chart : {static_cast<QWidget *>(m_timeline), static_cast<QWidget *>(m_accuracy),
                           static_cast<QWidget *>(m_pmwgChart)})
        chart->setMinimumHeight(320);
    auto *streamTab = new QWidget(m_tabs);
    auto *streamLayout = new QVBoxLayout(streamTab);
    streamLayout->addWidget(m_timeline, 1);
    streamLayout->addWidget(m_accuracy, 1);
    streamLayout->addWidget(m_simulationNote);
    m_tabs->addTab(scrolling(streamTab), tr("Timeline && accuracy"));
    auto *pmwgTab = new QWidget(m_tabs);
    auto *pmwgLayout = new QVBoxLayout(pmwgTab);
    pmwgLayout->addWidget(m_pmwgChart, 3);
    auto *pmwgBars = new QHBoxLayout;
    pmwgBars->addWidget(m_pmwgPrivacy, 1);
    pmwgBars->addWidget(m_pmwgErrors, 1);
    pmwgLayout->addLayout(pmwgBars, 2);
    pmwgLayout->addWidget(m_pmwgNote);
    m_tabs->addTab(scrolling(pmwgTab), tr("PMWG / NSG"));
    m_tabs->addTab(scrolling(m_atg), tr("ATG (sparse vector)"));

    auto *animation = new QHBoxLayout;
    animation->addWidget(m_play);
    animation->addWidget(new QLabel(tr("Speed"), this));
    animation->addWidget(m_speed);
    animation->addWidget(m_readout, 1);
    auto *right = new QVBoxLayout;
    right->addWidget(m_banner);
    right->addWidget(m_tabs, 1);
    right->addLayout(animation);

    auto *layout = new QHBoxLayout(this);
    layout->addWidget(new FitScrollArea(editor, Qt::Vertical, this));
    layout->addLayout(right, 1);
}

void GrowingLabDialog::connectSignals()
{
    connect(m_algorithm, &QComboBox::currentIndexChanged, this, [this] {
        // BBImprover is analysed in zCDP: offer a zCDP budget instead of the core's refusal.
        const QString chosen = algorithmOf(m_algorithm);
        if ((chosen == QStringLiteral("bbimprover") || chosen == QStringLiteral("ermg"))
            && m_budgetKind->currentData().toString() == QStringLiteral("pure")) {
            const QSignalBlocker blockBudget(m_budgetKind);
            const QSignalBlocker blockSchedule(m_schedule);
            m_budgetKind->setCurrentIndex(1);
            m_schedule->setCurrentIndex(2);
        }
        // An ERMG repetition refits every model (seconds on CPS1988): offer a short Monte Carlo.
        if (chosen == QStringLiteral("ermg") && m_repetitions->value() > kErmRepetitions) {
            const QSignalBlocker block(m_repetitions);
            m_repetitions->setValue(kErmRepetitions);
        }
    });
    for (QComboBox *c : {m_algorithm, m_schedule, m_dataset, m_box})
        connect(c, &QComboBox::currentIndexChanged, this, [this] {
            updateVisibility();
            updatePlan();
        });
    connect(m_budgetKind, &QComboBox::currentIndexChanged, this, [this] {
        // Keep the schedule's kind in the budget's unit (the core refuses a mismatch).
        const bool pure = m_budgetKind->currentData().toString() == QStringLiteral("pure");
        const bool zcdpSchedule = m_schedule->currentData().toString().startsWith(QStringLiteral("zcdp"));
        if (pure == zcdpSchedule) {
            const QSignalBlocker block(m_schedule);
            m_schedule->setCurrentIndex(pure ? 0 : 2);
        }
        updateVisibility();
        updatePlan();
    });
    for (QSpinBox *s : {m_startSize, m_horizon, m_queries, m_repetitions, m_seed, m_smallDbM, m_every})
        connect(s, &QSpinBox::valueChanged, this, &GrowingLabDialog::updatePlan);
    for (QDoubleSpinBox *s : {m_gamma, m_decay, m_epsilon, m_rho, static_cast<QDoubleSpinBox *>(m_delta),
                              m_beta, m_nsgC0, m_nsgThreshold})
        connect(s, &QDoubleSpinBox::valueChanged, this, &GrowingLabDialog::updatePlan);
    connect(m_sorted, &QCheckBox::toggled, this, &GrowingLabDialog::updatePlan);
    connect(m_optimalGamma, &QPushButton::clicked, this, [this] {
        if (m_optimalGammaValue > 0.0)
            m_gamma->setValue(m_optimalGammaValue);
    });
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
    for (QSpinBox *s : {m_startSize, m_seed})
        connect(s, &QSpinBox::valueChanged, this, [this] {
            m_atg->setStream(std::uint64_t(m_startSize->value()), std::uint64_t(m_seed->value()));
        });
    connect(m_animation, &QTimer::timeout, this, &GrowingLabDialog::advanceCursor);
}

void GrowingLabDialog::updateVisibility()
{
    const QString algorithm = algorithmOf(m_algorithm);
    const bool scheduler = algorithm == QStringLiteral("bbscheduler");
    const bool pmwg = algorithm == QStringLiteral("pmwg");
    const bool nsg = algorithm == QStringLiteral("nsg");
    const bool ermg = algorithm == QStringLiteral("ermg");
    const bool smalldb = scheduler && m_box->currentData().toString() == QStringLiteral("smalldb");
    const QString budget = m_budgetKind->currentData().toString();
    m_form->setRowVisible(m_schedule, scheduler);
    m_form->setRowVisible(m_gammaRow, scheduler);
    m_form->setRowVisible(m_decay, algorithm == QStringLiteral("bbimprover") || ermg);
    m_form->setRowVisible(m_box, scheduler);
    m_form->setRowVisible(m_smallDbM, smalldb);
    m_form->setRowVisible(m_nsgC0, nsg);
    m_form->setRowVisible(m_nsgThreshold, nsg);
    m_form->setRowVisible(m_every, ermg);
    m_form->setRowVisible(m_epsilon, budget != QStringLiteral("zcdp"));
    m_form->setRowVisible(m_rho, budget == QStringLiteral("zcdp"));
    m_form->setRowVisible(m_delta, budget == QStringLiteral("approx"));
    m_form->setRowVisible(m_queries, !pmwg && !ermg && !smalldb);
    m_form->setRowVisible(m_repetitions, !pmwg);
    if (smalldb)
        setGlossaryLinkedPlainText(
            m_explain,
            tr("SmallDBG: BBScheduler with SmallDB as its black box. Each epoch releases a small "
               "database of m rows drawn by the exponential mechanism (exactly, by enumerating every "
               "multiset) and answers the 28 one- and two-way marginal cells of region × SMSA × "
               "part-time from it until the next epoch. No m-row database can beat the best achievable "
               "maximum error, so the measured error is drawn against it."));
    else if (nsg)
        setGlossaryLinkedPlainText(
            m_explain,
            tr("NSG: the sparse vector on a growing database. Counting queries are compared with a noisy "
               "threshold T; a hard answer (⊤) is released with fresh noise and opens a new round. The "
               "cap H(t) = ⌊c₀(1 + H_t − H_n)⌋ on hard answers is enforced, so the worst-case privacy "
               "holds whatever the data; the realised loss is charged at the hard answers' times."));
    else if (ermg)
        setGlossaryLinkedPlainText(
            m_explain,
            tr("ERMG: BBImprover with a private empirical-risk minimiser as its box: L2-regularised "
               "logistic regression on CPS1988 (wage ≥ 500, nine public-bounded features), released by "
               "output perturbation with Gaussian noise σ_t (Chaudhuri, Monteleoni & Sarwate 2011), one "
               "fit every m arrivals. It needs a zCDP or (ε, δ) budget."));
    else if (scheduler)
        setGlossaryLinkedPlainText(
            m_explain,
            tr("BBScheduler (Cummings et al. 2018, §3): epoch i starts at t_i = n(1+γ)^i and runs the "
               "black box once on the rows so far at ε_i; its answers are held until the next epoch, so "
               "the error is the black box's α_i plus the staleness s_i = 1 − t_i/t_{i+1}. Σε_i "
               "converges to the budget, so it holds whatever the horizon. The optimal γ minimises the "
               "first epoch's bound."));
    else if (pmwg)
        setGlossaryLinkedPlainText(
            m_explain,
            tr("PMWG (Cummings et al. 2018, §4): easy queries are answered from a public histogram for "
               "free; a hard one (a sparse-vector positive) pays and corrects the histogram by a "
               "multiplicative-weights step. The cap H(t) = ⌊c₀(1 + H_t − H_n)⌋ on hard queries is "
               "enforced, so the worst case holds even when accuracy fails (practical-mode constants "
               "c₀ = 40, T = 0.05, η = 0.3, p = ½)."));
    else
        setGlossaryLinkedPlainText(
            m_explain,
            tr("BBImprover (Cummings et al. 2018, §3.2): the black box runs at every step t with "
               "ρ_t = ρ/(Z_a(n)·t^{1+a}), which sums to at most ρ over an unbounded horizon; its bound "
               "shrinks like t^{−(1−a)/2} but starts far worse than BBScheduler's. It needs a zCDP or "
               "(ε, δ) budget."));
    m_tabs->setTabEnabled(1, pmwg || nsg);
    m_tabs->setCurrentIndex(pmwg || nsg ? 1 : 0);
}

Json GrowingLabDialog::configDocument(bool simulate) const
{
    const QString algorithm = algorithmOf(m_algorithm);
    Json doc{{"format", "pbx-growing-lab"},
             {"version", 1u},
             {"algorithm", algorithm.toStdString()},
             {"dataset", m_dataset->currentData().toString().toStdString()},
             {"neighbours", "replace"}};
    doc["stream"] = Json{{"start_size", std::uint64_t(m_startSize->value())},
                         {"order", m_sorted->isChecked() ? kSortedOrder : "random"},
                         {"end", std::uint64_t(m_horizon->value())}};
    const QString kind = m_budgetKind->currentData().toString();
    Json budget{{"kind", kind.toStdString()}};
    if (kind == QStringLiteral("zcdp"))
        budget["rho"] = m_rho->value();
    else
        budget["epsilon"] = m_epsilon->value();
    if (kind == QStringLiteral("approx"))
        budget["delta"] = m_delta->value();
    doc["budget"] = std::move(budget);
    if (algorithm == QStringLiteral("bbscheduler"))
        doc["schedule"]
            = Json{{"kind", m_schedule->currentData().toString().toStdString()}, {"gamma", m_gamma->value()}};
    else if (algorithm == QStringLiteral("bbimprover"))
        doc["schedule"] = Json{{"a", m_decay->value()}};
    else if (algorithm == QStringLiteral("ermg"))
        doc["schedule"]
            = Json{{"kind", "improver"}, {"a", m_decay->value()}, {"every", std::uint64_t(m_every->value())}};
    Json queries = Json::array();
    for (int j = 0; j < m_queries->value(); ++j)
        queries.push_back(kQueries[j]);
    if (algorithm == QStringLiteral("nsg")) {
        Json nsg{{"T", m_nsgThreshold->value()}, {"cap", Json{{"kind", "time"}, {"c0", m_nsgC0->value()}}}};
        if (simulate)
            nsg["queries"] = queries;
        doc["nsg"] = std::move(nsg);
        doc["repetitions"] = std::uint64_t(m_repetitions->value());
    } else if (algorithm == QStringLiteral("ermg")) {
        doc["repetitions"] = std::uint64_t(m_repetitions->value());
    } else if (algorithm == QStringLiteral("bbscheduler")
               && m_box->currentData().toString() == QStringLiteral("smalldb")) {
        doc["black_box"] = Json{{"kind", "smalldb"}, {"m", std::uint64_t(m_smallDbM->value())}};
        doc["repetitions"] = std::uint64_t(m_repetitions->value());
    } else if (algorithm == QStringLiteral("bbscheduler") || algorithm == QStringLiteral("bbimprover")) {
        doc["black_box"] = Json{{"kind", "laplace-k"},
                                {"queries", simulate ? queries : Json(std::uint64_t(m_queries->value()))}};
        doc["repetitions"] = std::uint64_t(m_repetitions->value());
    }
    doc["beta"] = m_beta->value();
    return doc;
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
    return double(m_horizon->value()) + 1.0;
}

void GrowingLabDialog::showInvalid(const QString &message)
{
    m_plan = Json();
    m_simulation.reset();
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
    const bool scheduler = algorithmOf(m_algorithm) == QStringLiteral("bbscheduler");
    // The optimal γ from the rest of the input (so it can repair an invalid γ).
    m_optimalGammaValue = 0.0;
    if (scheduler) {
        Json probe = configDocument(false);
        probe["schedule"]["gamma"] = "optimal";
        if (auto c = growing::parseGrowingLab(probe)) {
            if (auto best = growing::optimalGamma(growing::schedulerConfigOf(*c), c->startSize))
                m_optimalGammaValue = best->gamma;
        }
    }
    m_optimalGamma->setEnabled(m_optimalGammaValue > 0.0);
    m_optimalGamma->setText(m_optimalGammaValue > 0.0
                                ? tr("Use optimal γ* = %1").arg(m_optimalGammaValue, 0, 'f', 3)
                                : tr("optimal γ: —"));

    auto config = growing::parseGrowingLab(configDocument(false));
    if (!config) {
        showInvalid(QString::fromStdString(config.error().message));
        return;
    }
    auto plan = growing::runGrowingLab(*config, nullptr, std::uint64_t(m_seed->value()), true);
    if (!plan) {
        showInvalid(QString::fromStdString(plan.error().message));
        return;
    }
    m_plan = std::move(*plan);
    m_error->clear();
    m_run->setEnabled(!isRunning());
    drawTimeline();
    drawAccuracy();
    drawPmwg();
    const double n = m_startSize->value();
    setCursorTime(std::clamp(m_cursorT, n, horizonEnd() - 1.0));
}

void GrowingLabDialog::drawTimeline()
{
    const QString algorithm = algorithmOf(m_algorithm);
    const double n = m_startSize->value();
    const double end = horizonEnd();
    const Json &privacy = m_plan["privacy"];
    const bool rho = privacy.value("unit", "epsilon") == "rho";
    const QString unit = rho ? tr("ρ") : tr("ε");
    const double total = number(privacy["total_reserved"]);
    m_timeline->setTitles(tr("Privacy spent over time"), tr("t (rows arrived, log scale)"),
                          rho ? tr("ρ (zCDP)") : tr("ε"), tr("ρ_t per step"));
    GrowingChart::Series budget{
        QStringLiteral("budget"),
        tr("budget %1 = %2: never exceeded, whatever the horizon").arg(unit, num(total)),
        palette::chartRed,
        GrowingChart::Kind::Line,
        Qt::DashLine,
        {{n, total}, {end, total}}};
    if (privacy.contains("target")) // an (ε, δ) target accounted in zCDP
        budget.name = tr("budget ρ = %1 (for (ε, δ) = (%2, %3)): never exceeded, whatever the horizon")
                          .arg(num(total, 6), num(number(privacy["target"]["epsilon"])),
                               num(number(privacy["target"]["delta"])));
    if (algorithm == QStringLiteral("ermg")) {
        // σ_t of each fit (right axis) and the ρ charged so far under the budget.
        auto sigma = makeSeries(QStringLiteral("sigma"), tr("σ_t of each fit (right axis)"),
                                palette::chartPurple, GrowingChart::Kind::Line);
        sigma.rightAxis = true;
        auto cumulative = makeSeries(QStringLiteral("cumulative"), tr("cumulative Σρ (rounded up)"),
                                     palette::chartTeal, GrowingChart::Kind::Line);
        cumulative.width = 2.6;
        for (const Json &r : m_plan["releases"]) {
            sigma.points.emplace_back(number(r["t"]), number(r["sigma"]));
            cumulative.points.emplace_back(number(r["t"]), number(r["cumulative"]));
        }
        m_timeline->setTitles(tr("ERMG: the noise σ_t of each released model and the privacy spent"),
                              tr("t (rows arrived, log scale)"), tr("ρ (zCDP)"), tr("σ_t"));
        m_timeline->setData(n, end, {}, {sigma, cumulative, budget});
        return;
    }
    if (algorithm == QStringLiteral("pmwg") || algorithm == QStringLiteral("nsg")) {
        const double worst = number(privacy["worst_case"]);
        GrowingChart::Series worstCase{QStringLiteral("worst-case"),
                                       tr("worst case (the cap fully used) %1 = %2").arg(unit, num(worst)),
                                       palette::chartInk,
                                       GrowingChart::Kind::Line,
                                       Qt::DotLine,
                                       {{n, worst}, {end, worst}}};
        std::vector<GrowingChart::Series> series{budget, worstCase};
        if (m_simulation && m_simulation->document.contains("privacy")) {
            // NSG's Monte Carlo: the realised loss varies with the hard answers' times.
            const Json &band
                = m_simulation->document.value("monte_carlo", Json::object()).value("realised", Json());
            if (band.is_object()) {
                auto spread = makeSeries(
                    QStringLiteral("realised-band"),
                    tr("realised %1, 5–95 % of %2 seeded orders (median %3)")
                        .arg(unit, integer(number(m_simulation->document["monte_carlo"]["repetitions"])),
                             num(number(band["median"]))),
                    palette::chartTeal, GrowingChart::Kind::Band);
                spread.points = {{n, number(band["q95"])}, {end, number(band["q95"])}};
                spread.lower = {{n, number(band["q05"])}, {end, number(band["q05"])}};
                series.insert(series.begin(), spread);
            }
            // In the budget's unit (ρ under a zCDP or approx budget), as the axis.
            const double realised = number(m_simulation->document["privacy"]["realised"]);
            series.push_back({QStringLiteral("realised"),
                              (band.is_object() ? tr("realised %1 = %2 (simulation, first order)")
                                                : tr("realised %1 = %2 (simulation)"))
                                  .arg(unit, num(realised)),
                              palette::chartTeal,
                              GrowingChart::Kind::Line,
                              Qt::SolidLine,
                              {{n, realised}, {end, realised}}});
        }
        m_timeline->setData(n, end, {}, series);
        return;
    }
    std::vector<GrowingChart::Band> bands;
    auto per
        = makeSeries(QStringLiteral("per-epoch"), rho ? tr("ρ_i of each epoch") : tr("ε_i of each epoch"),
                     rho ? palette::chartPurple : palette::chartBlue, GrowingChart::Kind::Step);
    auto cumulative = makeSeries(QStringLiteral("cumulative"), tr("cumulative Σ%1_i (rounded up)").arg(unit),
                                 palette::chartTeal, GrowingChart::Kind::Step);
    cumulative.width = 2.6;
    if (algorithm == QStringLiteral("bbscheduler")) {
        for (const Json &e : m_plan["epochs"]) {
            const double from = number(e["start"]);
            const double to = number(e["end"]) + 1.0;
            bands.push_back({from, to});
            per.points.emplace_back(from, number(rho ? e["rho"] : e["epsilon"]));
            cumulative.points.emplace_back(from, number(e["cumulative"]));
            per.stepEnd = cumulative.stepEnd = to;
        }
        cumulative.name = tr("cumulative Σ%1_i (rounded up): %2 at the horizon")
                              .arg(unit, num(number(privacy["spent_realised"]), 8));
        m_timeline->setData(n, end, std::move(bands), {per, cumulative, budget});
        return;
    }
    // BBImprover: a run at every step; ρ_t is tiny next to the budget, so it has its own axis.
    per.name = tr("ρ_t of each step (right axis)");
    per.kind = GrowingChart::Kind::Line;
    per.rightAxis = true;
    cumulative.kind = GrowingChart::Kind::Line;
    for (const Json &s : m_plan["steps"]) {
        per.points.emplace_back(number(s["t"]), number(s["rho"]));
        cumulative.points.emplace_back(number(s["t"]), number(s["cumulative"]));
    }
    cumulative.name = tr("cumulative Σρ_t (rounded up): %1 at the horizon")
                          .arg(num(number(privacy["spent_realised"]), 6));
    m_timeline->setData(n, end, {}, {per, cumulative, budget});
}

void GrowingLabDialog::drawAccuracy()
{
    const QString algorithm = algorithmOf(m_algorithm);
    const double n = m_startSize->value();
    const double end = horizonEnd();
    m_accuracy->setTitles(tr("Accuracy bound (fraction scale, probability ≥ 1 − β)"),
                          tr("t (rows arrived, log scale)"), tr("error"));
    if (algorithm == QStringLiteral("nsg") && m_simulation) {
        drawNsgErrors();
        return;
    }
    if (algorithm == QStringLiteral("pmwg") || algorithm == QStringLiteral("nsg")) {
        m_accuracy->clear(tr("Hard answers, privacy and errors: see the PMWG / NSG tab."));
        m_simulationNote->setText(tr("Hard answers, privacy and errors are in the PMWG / NSG tab."));
        return;
    }
    if (algorithm == QStringLiteral("ermg")) {
        drawErm();
        return;
    }
    // Bounds above 1 say nothing about a fraction; they are drawn at 1.
    bool clipped = false;
    auto clip = [&clipped](double v) {
        clipped = clipped || !(v <= 1.0);
        return std::isfinite(v) ? std::min(v, 1.0) : 1.0;
    };
    const bool scheduler = algorithm == QStringLiteral("bbscheduler");
    const auto kind = scheduler ? GrowingChart::Kind::Step : GrowingChart::Kind::Line;
    auto bound = makeSeries(QStringLiteral("bound"), tr("bound α + s"), palette::chartInk, kind);
    auto noise = makeSeries(QStringLiteral("noise"), tr("noise part α (black box)"), palette::chartBlue, kind,
                            Qt::DashLine);
    auto stale
        = makeSeries(QStringLiteral("staleness"), tr("staleness part s"), kStaleness, kind, Qt::DotLine);
    const Json &rows = scheduler ? m_plan["epochs"] : m_plan["steps"];
    for (const Json &e : rows) {
        const double t = number(scheduler ? e["start"] : e["t"]);
        bound.points.emplace_back(t, clip(number(e["bound"])));
        noise.points.emplace_back(t, clip(number(e["alpha_black_box"])));
        stale.points.emplace_back(t, clip(number(e["staleness"])));
        if (scheduler)
            bound.stepEnd = noise.stepEnd = stale.stepEnd = number(e["end"]) + 1.0;
    }
    std::vector<GrowingChart::Series> series{bound, noise, stale};
    QStringList notes;
    if (!scheduler) {
        const Json &cross = m_plan["crossover"];
        if (cross.value("within_horizon", false)) {
            const double t = number(cross["first_t"]);
            series.push_back({QStringLiteral("crossover"),
                              tr("crossover: BBImprover beats BBScheduler from t = %1").arg(integer(t)),
                              palette::chartPurple,
                              GrowingChart::Kind::Line,
                              Qt::DashDotLine,
                              {{t, 0.0}, {t, 1.0}}});
        } else {
            notes << tr("Crossover with BBScheduler (zCDP equalised, γ = %1): %2.")
                         .arg(num(number(cross["gamma"]), 3))
                         .arg(cross["first_t"].is_number()
                                  ? tr("t = %1, beyond the horizon").arg(integer(number(cross["first_t"])))
                                  : tr("beyond 2⁵⁰ rows"));
        }
    }
    if (m_simulation) {
        const GrowingRunOutcome &sim = *m_simulation;
        const Json &doc = sim.document;
        const double simEnd = number(doc["settings"]["stream"]["end"]);
        const QString label
            = tr("simulation on CPS1988 (%1)").arg(formatCount(sim.repetitions, tr("run"), tr("runs")));
        if (doc.contains("smalldb")) {
            // SmallDBG: the core's Monte Carlo summary as it is, against the best achievable.
            const Json &mc = doc["monte_carlo"];
            auto median = makeSeries(QStringLiteral("measured"),
                                     tr("measured: median of each epoch's largest error, %1").arg(label),
                                     palette::chartGreen, GrowingChart::Kind::Step);
            const Json &epochs = doc["epochs"];
            const Json &medians = mc["epoch_max_error_median"];
            for (std::size_t i = 0; i < epochs.size() && i < medians.size(); ++i) {
                median.points.emplace_back(number(epochs[i]["start"]), clip(number(medians[i])));
                median.stepEnd = number(epochs[i]["end"]) + 1.0;
            }
            series.push_back(median);
            const double best = number(doc["smalldb"].value("best_max_error_at_end", Json()));
            if (std::isfinite(best))
                series.push_back({QStringLiteral("best"),
                                  tr("best achievable by any %1-row database on all rows: %2")
                                      .arg(integer(number(doc["smalldb"]["m"])), num(best)),
                                  palette::chartRed,
                                  GrowingChart::Kind::Line,
                                  Qt::DashDotLine,
                                  {{n, best}, {end, best}}});
            const Json &maxError = mc["max_error"];
            notes << tr("<b>Simulation on CPS1988</b> (SmallDB m = %1, %2 of %3 candidate databases; rows "
                        "1 … %4 in %5 seeded %6 orders; the 28 marginal cells): the largest error over the "
                        "stream has median %7, 95th percentile %8, maximum %9; the best any m-row database "
                        "achieves on all rows is %10. %11 of %5 runs exceeded their bound (β = %12).")
                         .arg(integer(number(doc["smalldb"]["m"])), tr("one"),
                              integer(number(doc["smalldb"]["range_size"])), integer(simEnd))
                         .arg(sim.repetitions)
                         .arg(m_sorted->isChecked() ? tr("sorted") : tr("random"))
                         .arg(num(number(maxError["median"])), num(number(maxError["q95"])),
                              num(number(maxError["max"])), num(best))
                         .arg(integer(number(mc["runs_exceeding"])), num(m_beta->value()));
            if (clipped)
                notes << tr("Values above 1 say nothing about a fraction and are drawn at 1.");
            m_accuracy->setData(n, end, {}, series);
            m_simulationNote->setText(notes.join(QLatin1Char(' ')));
            return;
        }
        if (scheduler) {
            auto median = makeSeries(QStringLiteral("measured"),
                                     tr("measured: median of each epoch's largest error, %1").arg(label),
                                     palette::chartGreen, GrowingChart::Kind::Step);
            auto q95 = makeSeries(QStringLiteral("measured-q95"), tr("measured: 95th percentile"),
                                  palette::chartGreen, GrowingChart::Kind::Step, Qt::DashLine);
            const Json &epochs = doc["epochs"];
            for (std::size_t i = 0; i < epochs.size() && i < sim.epochMedian.size(); ++i) {
                median.points.emplace_back(number(epochs[i]["start"]), clip(sim.epochMedian[i]));
                q95.points.emplace_back(number(epochs[i]["start"]), clip(sim.epochQ95[i]));
                median.stepEnd = q95.stepEnd = number(epochs[i]["end"]) + 1.0;
            }
            series.push_back(median);
            series.push_back(q95);
        } else {
            series.push_back({QStringLiteral("measured"),
                              tr("measured error at the last step, median (%1)").arg(label),
                              palette::chartGreen,
                              GrowingChart::Kind::Scatter,
                              Qt::SolidLine,
                              {{simEnd, clip(growingQuantile(sim.worstPerRun, 0.5))}}});
        }
        notes << tr("<b>Simulation on CPS1988</b> (rows 1 … %1 in %2 seeded %3 orders, %4 counting "
                    "queries): the %5 error has median %6, 95th percentile %7, maximum %8; %9 of %2 runs "
                    "exceeded their bound somewhere (β = %10).")
                     .arg(integer(simEnd))
                     .arg(sim.repetitions)
                     .arg(m_sorted->isChecked() ? tr("sorted") : tr("random"))
                     .arg(m_queries->value())
                     .arg(scheduler ? tr("largest") : tr("last step's"))
                     .arg(num(growingQuantile(sim.worstPerRun, 0.5)))
                     .arg(num(growingQuantile(sim.worstPerRun, 0.95)))
                     .arg(num(*std::max_element(sim.worstPerRun.begin(), sim.worstPerRun.end())))
                     .arg(sim.runsExceeding)
                     .arg(num(m_beta->value()));
    } else {
        notes << tr("Press <b>Run</b> for the measured error (a simulation on CPS1988).");
    }
    if (clipped)
        notes << tr("Values above 1 say nothing about a fraction and are drawn at 1.");
    m_accuracy->setData(n, end, {}, series);
    m_simulationNote->setText(notes.join(QLatin1Char(' ')));
}

void GrowingLabDialog::drawErm()
{
    const double n = m_startSize->value();
    m_accuracy->setTitles(tr("Excess empirical risk of the released model (simulation on CPS1988)"),
                          tr("t (rows arrived, log scale)"), tr("L(θ̃) − L(θ*)"));
    if (!m_simulation) {
        // Nothing measured yet: no axes of an earlier plan, only the message under ERMG's own title.
        m_accuracy->clear(tr("Press Run for the excess empirical risk (a simulation on CPS1988)."));
        m_simulationNote->setText(
            tr("The plan lists every fit's ρ, sensitivity Δ and noise σ_t without reading data; press "
               "<b>Run</b> for the excess empirical risk of each released model on CPS1988."));
        return;
    }
    const Json &doc = m_simulation->document;
    const Json &mc = doc["monte_carlo"];
    const int runs = mc.value("repetitions", 1);
    auto band = makeSeries(QStringLiteral("excess-band"),
                           tr("mean excess risk, 5–95 % of %1 seeded orders").arg(runs), palette::chartGreen,
                           GrowingChart::Kind::Band);
    auto runsMedian = makeSeries(QStringLiteral("excess-runs-median"),
                                 tr("mean excess risk, median of %1 seeded orders").arg(runs),
                                 palette::chartGreen, GrowingChart::Kind::Line);
    runsMedian.width = 2.6;
    for (const Json &r : mc["releases"]) {
        const double t = number(r["t"]);
        const Json &b = r["excess_risk_mean"];
        runsMedian.points.emplace_back(t, number(b["median"]));
        band.points.emplace_back(t, number(b["q95"]));
        band.lower.emplace_back(t, number(b["q05"]));
    }
    auto mean = makeSeries(QStringLiteral("excess-mean"), tr("first order: mean over the noise draws"),
                           palette::chartBlue, GrowingChart::Kind::Line);
    auto median = makeSeries(QStringLiteral("excess-median"), tr("first order: median over the noise draws"),
                             palette::chartBlue, GrowingChart::Kind::Line, Qt::DashLine);
    double last = n;
    for (const Json &r : doc["releases"]) {
        const double t = number(r["t"]);
        mean.points.emplace_back(t, number(r["excess_risk"]["mean"]));
        median.points.emplace_back(t, number(r["excess_risk"]["median"]));
        last = t;
    }
    m_accuracy->setData(n, horizonEnd(), {}, {band, runsMedian, mean, median});
    const Json &releases = doc["releases"];
    const Json &perRelease = mc["releases"];
    if (releases.empty() || perRelease.empty()) {
        m_simulationNote->clear();
        return;
    }
    const Json &first = releases.front();
    const Json &lastRelease = releases.back();
    auto spread = [](const Json &b) {
        return tr("%1 (5–95 %: %2 – %3)")
            .arg(num(number(b["median"])), num(number(b["q05"])), num(number(b["q95"])));
    };
    m_simulationNote->setText(
        tr("<b>Simulation on CPS1988</b> (%1 seeded orders, %2 fits up to t = %3): σ_t falls from %4 at "
           "t = %5 to %6; the mean excess empirical risk, median over the orders, from %7 to %8. Spent "
           "ρ = %9 of %10.")
            .arg(integer(double(runs)), integer(double(releases.size())), integer(last),
                 num(number(first["sigma"])), integer(number(first["t"])), num(number(lastRelease["sigma"])),
                 spread(perRelease.front()["excess_risk_mean"]),
                 spread(perRelease.back()["excess_risk_mean"]))
            .arg(num(number(doc["privacy"]["spent_realised"]), 6),
                 num(number(doc["privacy"]["total_reserved"]), 6)));
}

void GrowingLabDialog::drawNsgErrors()
{
    const Json &mc = m_simulation->document["monte_carlo"];
    const int runs = mc.value("repetitions", 1);
    m_accuracy->setTitles(tr("NSG: mean |error| of the hard answers released so far (simulation on CPS1988)"),
                          tr("t (rows arrived, log scale)"), tr("|error| (fraction)"));
    auto band = makeSeries(QStringLiteral("hard-error-band"), tr("5–95 % of %1 seeded orders").arg(runs),
                           palette::chartBlue, GrowingChart::Kind::Band);
    auto median = makeSeries(QStringLiteral("hard-error-median"),
                             tr("median of %1 seeded orders (orders with a hard answer by t)").arg(runs),
                             palette::chartBlue, GrowingChart::Kind::Line);
    median.width = 2.6;
    for (const Json &c : mc["checkpoints"]) {
        const Json &b = c["hard_mean_abs"];
        if (!b.is_object())
            continue; // no order has a hard answer yet
        const double t = number(c["time"]);
        median.points.emplace_back(t, number(b["median"]));
        band.points.emplace_back(t, number(b["q95"]));
        band.lower.emplace_back(t, number(b["q05"]));
    }
    m_accuracy->setData(m_startSize->value(), horizonEnd(), {}, {band, median});
    m_simulationNote->setText(tr("Hard answers against the cap and privacy: see the PMWG / NSG tab."));
}

void GrowingLabDialog::drawPmwg()
{
    const bool nsg = algorithmOf(m_algorithm) == QStringLiteral("nsg");
    if (algorithmOf(m_algorithm) != QStringLiteral("pmwg") && !nsg) {
        m_pmwgChart->clear(tr("Choose PMWG or NSG as the algorithm."));
        m_pmwgPrivacy->clear(QString());
        m_pmwgErrors->clear(QString());
        m_pmwgNote->clear();
        return;
    }
    const bool simulated = m_simulation.has_value();
    const Json &doc = simulated ? m_simulation->document : m_plan;
    const Json &caps = doc["cap"];
    m_pmwgChart->setTitles(tr("%1: hard queries K(t) against the cap H(t) = ⌊c₀(1 + H_t − H_n)⌋")
                               .arg(nsg ? tr("NSG") : tr("PMWG")),
                           tr("t (rows arrived)"), tr("queries"));
    auto cap = makeSeries(QStringLiteral("cap"), tr("cap H(t) (enforced)"), palette::chartRed,
                          GrowingChart::Kind::Step, Qt::DashLine);
    auto hard = makeSeries(QStringLiteral("hard"), tr("hard queries K(t) (simulation on CPS1988)"),
                           palette::chartBlue, GrowingChart::Kind::Step);
    double last = m_startSize->value();
    for (const Json &c : caps) {
        const double t = number(c["time"]);
        cap.points.emplace_back(t, number(c["cap"]));
        if (c.contains("hard"))
            hard.points.emplace_back(t, number(c["hard"]));
        last = t;
    }
    cap.stepEnd = hard.stepEnd = last + 1.0;
    // The cap last, so it stays visible where it binds.
    std::vector<GrowingChart::Series> series;
    const Json &mc = doc.value("monte_carlo", Json::object());
    if (nsg && mc.contains("checkpoints")) {
        // NSG's Monte Carlo: K(t) over the seeded orders, the median inside its 5–95 % band.
        const int runs = mc.value("repetitions", 1);
        hard.name = tr("hard answers K(t), first order");
        hard.style = Qt::DotLine;
        auto band = makeSeries(QStringLiteral("hard-band"), tr("K(t), 5–95 % of %1 seeded orders").arg(runs),
                               palette::chartBlue, GrowingChart::Kind::Band);
        auto median
            = makeSeries(QStringLiteral("hard-median"), tr("K(t), median of %1 seeded orders").arg(runs),
                         palette::chartBlue, GrowingChart::Kind::Step);
        median.width = 2.6;
        for (const Json &c : mc["checkpoints"]) {
            const double t = number(c["time"]);
            median.points.emplace_back(t, number(c["hard"]["median"]));
            band.points.emplace_back(t, number(c["hard"]["q95"]));
            band.lower.emplace_back(t, number(c["hard"]["q05"]));
        }
        band.stepEnd = median.stepEnd = last + 1.0;
        series.push_back(band);
        series.push_back(median);
    }
    if (!hard.points.empty())
        series.push_back(hard);
    series.push_back(cap);
    m_pmwgChart->setData(m_startSize->value(), last + 1.0, {}, series);
    const Json &privacy = doc["privacy"];
    const PrivacyReading reading = privacyReading(privacy);
    QString text = tr("Worst-case privacy %1 = %2 (budget %3, σ_n = %4).")
                       .arg(reading.unit, num(reading.worstCase), num(reading.budget))
                       .arg(num(number(doc["sigma_n"])));
    std::vector<GrowingBarChart::Bar> privacyBars{{tr("budget"), reading.budget, palette::chartRed},
                                                  {tr("worst case"), reading.worstCase, palette::chartInk}};
    if (simulated)
        privacyBars.push_back({tr("realised (simulation)"), reading.realised, palette::chartTeal});
    m_pmwgPrivacy->setBars(
        tr("Privacy in %1: realised vs worst case").arg(privacy.contains("target") ? tr("ε") : reading.unit),
        reading.unit, privacyBars);
    if (simulated && nsg) {
        const Json &errors = doc["errors"];
        std::vector<GrowingBarChart::Bar> errorBars{
            {tr("NSG hard answers"), number(errors["hard_mean_abs"]), palette::chartBlue}};
        const Json &mcError = doc.value("monte_carlo", Json::object()).value("hard_mean_abs", Json());
        if (mcError.is_object())
            errorBars.push_back(
                {tr("median of %1 orders").arg(integer(number(doc["monte_carlo"]["repetitions"]))),
                 number(mcError["median"]), palette::chartGreen});
        m_pmwgErrors->setBars(tr("Mean |error| of the hard answers (simulation)"), tr("error (fraction)"),
                              errorBars);
        const double hardCount = hard.points.empty() ? 0.0 : hard.points.back().y();
        const Json &lastCap = caps.back();
        text += QLatin1Char(' ')
                + tr("<b>Simulation on CPS1988</b>: %1 hard answers of the cap %2 (%3 queries turned away "
                     "at the last checkpoint) in %4 rounds; realised %5 = %6 against the worst case %7; "
                     "mean |error| of the hard answers %8.")
                      .arg(integer(hardCount), integer(cap.points.back().y()),
                           integer(number(lastCap.value("capped", Json()))),
                           integer(double(doc["rounds"].size())), reading.unit, num(reading.realised),
                           num(reading.worstCase), num(number(errors["hard_mean_abs"])));
        if (!reading.note.isEmpty())
            text += QLatin1Char(' ') + reading.note;
        if (mc.contains("checkpoints")) {
            auto spread = [](const Json &b) {
                return b.is_object()
                           ? tr("%1 (5–95 %: %2 – %3)")
                                 .arg(num(number(b["median"])), num(number(b["q05"])), num(number(b["q95"])))
                           : QStringLiteral("—");
            };
            const bool rhoUnit = privacy.value("unit", "epsilon") == "rho";
            text += QLatin1Char(' ')
                    + tr("<b>Over %1 seeded orders</b> (the numbers above are the first's): hard answers %2, "
                         "realised %3 %4, mean |error| of the hard answers %5.")
                          .arg(integer(number(mc["repetitions"])), spread(mc["hard"]),
                               rhoUnit ? tr("ρ") : tr("ε"), spread(mc["realised"]),
                               spread(mc["hard_mean_abs"]));
        }
    } else if (simulated) {
        const Json &errors = doc["errors"];
        m_pmwgErrors->setBars(tr("Mean |error| of the answers (simulation)"), tr("error (fraction)"),
                              {{tr("PMWG"), number(errors["mean_abs"]), palette::chartBlue},
                               {tr("Laplace per query (baseline)"),
                                number(errors["laplace_baseline_mean_abs"]), palette::neutralGrey}});
        const double hardCount = hard.points.empty() ? 0.0 : hard.points.back().y();
        text
            += QLatin1Char(' ')
               + tr("<b>Simulation on CPS1988</b>: %1 hard queries of the cap %2; realised %3 = %4 against "
                    "the worst case %5. Over %6 queries the mean absolute error "
                    "is %7 (95th percentile %8, max %9); answering each with Laplace noise under basic "
                    "composition would err by %10 on average. The public histogram's final KL divergence from the data's is %11 (a diagnostic read from the data).")
                     .arg(integer(hardCount))
                     .arg(integer(cap.points.back().y()))
                     .arg(reading.unit)
                     .arg(num(reading.realised))
                     .arg(num(reading.worstCase))
                     .arg(integer(number(errors["queries"])))
                     .arg(num(number(errors["mean_abs"])))
                     .arg(num(number(errors["q95_abs"])))
                     .arg(num(number(errors["max_abs"])))
                     .arg(num(number(errors["laplace_baseline_mean_abs"])))
                     .arg(num(number(errors["final_kl"])));
        if (!reading.note.isEmpty())
            text += QLatin1Char(' ') + reading.note;
    } else {
        m_pmwgErrors->clear(tr("Run the simulation for the errors."));
        text += QLatin1Char(' ') + tr("Press <b>Run</b> for the hard queries, realised privacy and errors.");
    }
    m_pmwgNote->setText(text);
}

bool GrowingLabDialog::run()
{
    if (isRunning())
        return false;
    auto config = growing::parseGrowingLab(configDocument(true));
    if (!config) {
        showInvalid(QString::fromStdString(config.error().message));
        return false;
    }
    if (m_plan.is_null())
        return false;
    m_simulation.reset();
    m_run->setEnabled(false);
    m_cancel->setEnabled(true);
    m_progress->setRange(0, 0);
    m_status->setText(tr("Simulating…"));
    m_watcher->setFuture(startGrowingJob(*config, std::uint64_t(m_seed->value())));
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
    m_run->setEnabled(!m_plan.is_null());
    m_progress->setRange(0, 1);
    const auto future = m_watcher->future();
    if (m_watcher->isCanceled() || future.resultCount() == 0) {
        m_progress->setValue(0);
        m_status->setText(tr("Cancelled: no simulation shown."));
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
    drawTimeline();
    drawAccuracy();
    drawPmwg();
    setCursorTime(m_cursorT);
}

Result<void> GrowingLabDialog::saveDocument(const QString &path) const
{
    const Json &doc = m_simulation ? m_simulation->document : m_plan;
    if (doc.is_null())
        return makeError(ErrorCode::InvalidArgument, "nothing to save: the input is invalid");
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
    if (m_plan.is_null()) {
        setPlaying(false);
        return;
    }
    if (m_cursorT >= horizonEnd() - 1.0)
        setCursorTime(m_startSize->value());
    m_animation->start();
}

void GrowingLabDialog::advanceCursor()
{
    const double n = m_startSize->value();
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
    if (m_plan.is_null()) {
        m_readout->clear();
        return;
    }
    const QString algorithm = algorithmOf(m_algorithm);
    m_timeline->setCursor(t);
    m_accuracy->setCursor(t);
    m_pmwgChart->setCursor(t);
    const bool rho = m_plan["privacy"].value("unit", "epsilon") == "rho";
    const QString unit = rho ? tr("ρ") : tr("ε");
    QString text = tr("t = %1").arg(integer(t));
    if (algorithm == QStringLiteral("bbscheduler")) {
        for (const Json &e : m_plan["epochs"]) {
            if (t < number(e["start"]) || t > number(e["end"]))
                continue;
            text += tr(" · epoch %1 (t %2 – %3) · %4_%1 = %5 · spent Σ = %6 of %7 · bound α + s = %8 "
                       "(α %9 + s %10)")
                        .arg(e["index"].get<int>())
                        .arg(integer(number(e["start"])), integer(number(e["end"])), unit)
                        .arg(num(number(rho ? e["rho"] : e["epsilon"]), 6))
                        .arg(num(number(e["cumulative"]), 8))
                        .arg(num(number(m_plan["privacy"]["total_reserved"]), 6))
                        .arg(num(number(e["bound"])))
                        .arg(num(number(e["alpha_black_box"])))
                        .arg(num(number(e["staleness"])));
            const double measured = m_accuracy->valueAt(QStringLiteral("measured"), t);
            if (std::isfinite(measured))
                text += tr(" · measured (simulation) %1").arg(num(measured));
        }
    } else if (algorithm == QStringLiteral("bbimprover")) {
        const Json *at = nullptr;
        for (const Json &s : m_plan["steps"])
            if (number(s["t"]) <= t)
                at = &s;
        if (at)
            text += tr(" · ρ_t = %1 · spent Σρ = %2 of %3 · bound α + s = %4")
                        .arg(num(number((*at)["rho"]), 4))
                        .arg(num(number((*at)["cumulative"]), 6))
                        .arg(num(number(m_plan["privacy"]["total_reserved"]), 6))
                        .arg(num(number((*at)["bound"])));
    } else if (algorithm == QStringLiteral("ermg")) {
        const Json *at = nullptr;
        for (const Json &r : m_plan["releases"])
            if (number(r["t"]) <= t)
                at = &r;
        if (at)
            text += tr(" · fit at t = %1 · ρ = %2 · Δ = %3 · σ_t = %4 · spent Σρ = %5 of %6")
                        .arg(integer(number((*at)["t"])), num(number((*at)["rho"]), 4),
                             num(number((*at)["sensitivity"]), 4), num(number((*at)["sigma"]), 4),
                             num(number((*at)["cumulative"]), 6),
                             num(number(m_plan["privacy"]["total_reserved"]), 6));
    } else {
        const double cap = m_pmwgChart->valueAt(QStringLiteral("cap"), t);
        const double hard = m_pmwgChart->valueAt(QStringLiteral("hard"), t);
        text += tr(" · cap H(t) = %1").arg(std::isfinite(cap) ? integer(cap) : QStringLiteral("—"));
        if (std::isfinite(hard))
            text += tr(" · hard queries so far %1 (simulation)").arg(integer(hard));
    }
    m_readout->setText(text);
}

} // namespace pbx::ui
