// SPDX-License-Identifier: MIT
#include "ui/comparison/comparisonview.h"

#include "core/accounting/per_step_dp.h"
#include "core/filters/advanced_filter.h"
#include "core/session/ledger/session_ledger.h"
#include "ui/charts/comparisoncharts.h"
#include "ui/charts/presentation.h"
#include "ui/comparison/comparisonlayout.h"
#include "ui/comparison/exampleplans.h"
#include "ui/comparison/planeditor.h"
#include "ui/comparison/planmodel.h"
#include "ui/comparison/strategyresultsmodel.h"
#include "ui/help/glossarylinks.h"
#include "ui/sessiondocument.h"
#include "ui/util/boundformat.h"
#include "ui/util/numberformat.h"
#include "ui/util/strategyinfo.h"
#include "ui/widgets/scientificspinbox.h"

#include <QAbstractScrollArea>
#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QShowEvent>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTimer>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace pbx::ui {

namespace {

QGroupBox *groupBox(const QString &title, QWidget *content, QWidget *parent)
{
    auto *box = new QGroupBox(title, parent);
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(8, 6, 8, 8);
    layout->addWidget(content);
    return box;
}

/// A wrapped label that does not ask its layout for height-for-width: with it, the dock's scroll
/// area sized the whole view to its preferred height (975 px, taller than a 768-px screen) instead
/// of the height it has.
class StatusLabel final : public QLabel
{
public:
    using QLabel::QLabel;
    bool hasHeightForWidth() const override { return false; }
};

} // namespace

ComparisonView::ComparisonView(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("comparisonView"));
    m_undoStack = new QUndoStack(this);
    m_plan = new PlanModel(this);
    m_plan->setUndoStack(m_undoStack);
    m_sessionModel = new PlanModel(this);
    m_sessionModel->setReadOnly(true);
    m_results = new StrategyResultsModel(this);

    // The plan starts as the first example, as loaded data rather than an undoable edit.
    const auto examples = examplePlans();
    if (!examples.isEmpty())
        m_plan->setLedgerRaw(examples.front().ledger);

    m_timer = new QTimer(this);
    m_timer->setSingleShot(true);
    m_timer->setInterval(coalesceMilliseconds);

    createWidgets();
    createLayout();
    connectSignals();

    m_results->clear();
    setSource(Source::Plan);
    selectStrategy(QStringLiteral("basic"));
}

void ComparisonView::createWidgets()
{
    m_planEditor = new PlanEditor(m_plan, m_undoStack, this);
    m_sourceStack = new QStackedWidget(this);
    m_sourceStack->addWidget(createSessionPage());
    m_sourceStack->addWidget(m_planEditor);

    m_resultsView = new QTableView(this);
    m_resultsView->setObjectName(QStringLiteral("strategyTable"));
    m_resultsView->setModel(m_results);
    m_resultsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_resultsView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_resultsView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_resultsView->setWordWrap(true);
    m_resultsView->setTextElideMode(Qt::ElideRight);
    m_resultsView->verticalHeader()->setVisible(false);
    m_resultsView->horizontalHeader()->setStretchLastSection(true);
    m_resultsView->horizontalHeader()->setHighlightSections(false);
    m_resultsView->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    m_resultsView->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    // Rows grow to their wrapped text, so a not-applicable reason is read in full.
    m_resultsView->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    sizeResultColumns();
    // In presentation mode's larger font too: the header "ε at δ = 1e-6" was cut.
    connect(&Presentation::instance(), &Presentation::changed, this, [this] { sizeResultColumns(); });
    m_explanation = new QTextBrowser(this);
    m_explanation->setObjectName(QStringLiteral("strategyExplanation"));
    connectGlossaryLinks(m_explanation); // terms link to Help ▸ Glossary
    m_explanation->setFrameShape(QFrame::NoFrame);
    m_explanation->viewport()->setAutoFillBackground(false);

    m_curveChart = new CompositionCurveChart(this);
    m_profileChart = new PrivacyProfileChart(this);
    m_rdpChart = new RdpCurveChart(this);
    m_pldChart = new PldHistogramChart(this);
    // A redraw faster than this is painted once, in colour: the greyed paint (the colorize effect
    // renders each view off screen) would cost more than the computation it announces (an edit's
    // preview usually arrives sooner). Each result sets every chart in one go: no need to wait
    // for more changes before rebuilding.
    for (ChartFrame *chart :
         std::initializer_list<ChartFrame *>{m_curveChart, m_profileChart, m_rdpChart, m_pldChart}) {
        chart->setGreyDelay(kGreyDelayMilliseconds);
        chart->setCoalesceDelay(0);
    }

    m_status = new StatusLabel(this);
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
}

void ComparisonView::sizeResultColumns()
{
    const QFontMetrics metrics(m_resultsView->font());
    m_resultsView->setColumnWidth(StrategyResultsModel::Strategy,
                                  metrics.horizontalAdvance(QStringLiteral("Privacy-loss distribution"))
                                      + 40);
    m_resultsView->setColumnWidth(StrategyResultsModel::Value,
                                  metrics.horizontalAdvance(QStringLiteral("ε at δ = 1e-10")) + 24);
}

void ComparisonView::createLayout()
{
    auto *left = new QSplitter(Qt::Vertical, this);
    left->setChildrenCollapsible(false);
    left->addWidget(groupBox(tr("Ledger"), m_sourceStack, left));
    left->addWidget(groupBox(tr("Every strategy on this ledger"), createResultsPane(), left));
    left->addWidget(groupBox(tr("Why the numbers differ"), m_explanation, left));
    left->setStretchFactor(0, 2);
    left->setStretchFactor(1, 3);
    left->setStretchFactor(2, 3);
    left->setSizes({200, 330, 260});

    // A 2×2 grid of charts beside the table when wide, one chart at a time when narrow, one view
    // at a time in presentation mode below 1280 px (comparisonlayout.h).
    m_arrangement = new ComparisonLayout(left,
                                         {{m_curveChart, tr("ε after k steps")},
                                          {m_profileChart, tr("Privacy profile δ(ε)")},
                                          {m_rdpChart, tr("RDP curves")},
                                          {m_pldChart, tr("Privacy-loss distribution")}},
                                         this);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 4);
    layout->setSpacing(6);
    layout->addWidget(createTopBar());
    layout->addWidget(m_arrangement, 1);
    layout->addWidget(m_status);
    connect(&Presentation::instance(), &Presentation::changed, this, [this] { updateArrangement(); });
}

QSize ComparisonView::availableSize() const
{
    // In a scroll area (the dock's), the size the area can show, not the size the content was
    // given (which is at least its minimum).
    for (QWidget *p = parentWidget(); p; p = p->parentWidget())
        if (auto *area = qobject_cast<QAbstractScrollArea *>(p))
            return area->maximumViewportSize();
    return size();
}

void ComparisonView::updateArrangement()
{
    const auto mode = ComparisonLayout::modeFor(availableSize(), Presentation::instance().isEnabled());
    m_arrangement->setMode(mode);
    if (m_topRows
        == (mode == ComparisonLayout::Mode::Wide     ? 1
            : mode == ComparisonLayout::Mode::Narrow ? 2
                                                     : 3))
        return;
    // The top bar: one row when wide; the PLD grid and the buttons on a second row when narrow;
    // in presentation mode below 1280 px also the report's δ/ε on a row of their own.
    const int rows = mode == ComparisonLayout::Mode::Wide     ? 1
                     : mode == ComparisonLayout::Mode::Narrow ? 2
                                                              : 3;
    m_topRows = rows;
    for (QWidget *group : {m_sourceGroup, m_reportGroup, m_toolsGroup})
        m_topBar->removeWidget(group);
    const int span = rows == 1 ? 1 : 3;
    m_topBar->addWidget(m_sourceGroup, 0, 0, 1, rows == 3 ? 3 : 1, Qt::AlignLeft);
    m_topBar->addWidget(m_reportGroup, rows == 3 ? 1 : 0, rows == 3 ? 0 : 1, 1, rows == 3 ? 3 : 1,
                        Qt::AlignLeft);
    m_topBar->addWidget(m_toolsGroup, rows - 1, rows == 1 ? 2 : 0, 1, span);
    for (int c = 0; c < 3; ++c)
        m_topBar->setColumnStretch(c, c == 2 ? 1 : 0);
}

void ComparisonView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    updateArrangement();
}

bool ComparisonView::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Resize && watched == m_watchedArea)
        QTimer::singleShot(0, this, [this] { updateArrangement(); });
    return QWidget::eventFilter(watched, event);
}

QWidget *ComparisonView::createResultsPane()
{
    auto *pane = new QWidget(this);
    m_perStepBar = new QWidget(pane);
    m_perStepCheck = new QCheckBox(tr("Gaussian/zCDP steps as (ε, δ), per-step δ ="), m_perStepBar);
    m_perStepCheck->setObjectName(QStringLiteral("perStepCheck"));
    m_perStepCheck->setChecked(true);
    m_perStepCheck->setToolTip(
        tr("<p>Basic, advanced and optimal composition compose (ε, δ) guarantees only. With this on, "
           "each Gaussian step is stated as the exact (ε, δ) of the Gaussian mechanism at this δ "
           "(Balle &amp; Wang 2018, Thm 8) and each zCDP step by the Canonne–Kamath–Steinke "
           "conversion, so they apply too.</p><p>Every converted step carries its δ into the "
           "total: basic needs Σδᵢ ≤ δ, advanced composition pays Σδᵢ + δ′.</p>"));
    m_perStepSpin = new ScientificSpinBox(m_perStepBar);
    m_perStepSpin->setObjectName(QStringLiteral("perStepDelta"));
    m_perStepSpin->setRange(1e-15, 0.1);
    m_perStepSpin->setMultiplicativeStep(10.0);
    m_perStepSpin->setValue(1e-8);
    m_perStepSpin->setKeyboardTracking(false);
    m_perStepSpin->setToolTip(tr("The δ at which each Gaussian or zCDP step is converted to (ε, δ)"));
    m_perStepAuto = new QCheckBox(tr("auto (δ/2k)"), m_perStepBar);
    m_perStepAuto->setObjectName(QStringLiteral("perStepAuto"));
    m_perStepAuto->setChecked(true);
    m_perStepAuto->setToolTip(tr("Half of δ for the k conversions (δ/(2k) each), half left for the "
                                 "composition itself"));
    connect(m_perStepCheck, &QCheckBox::toggled, this, [this] {
        updatePerStepWidgets();
        scheduleRecompute();
    });
    connect(m_perStepAuto, &QCheckBox::toggled, this, [this] {
        updatePerStepWidgets();
        scheduleRecompute();
    });
    connect(m_perStepSpin, &QDoubleSpinBox::valueChanged, this, [this] {
        if (!m_perStepAuto->isChecked())
            scheduleRecompute();
    });
    auto *bar = new QHBoxLayout(m_perStepBar);
    bar->setContentsMargins(0, 0, 0, 0);
    bar->setSpacing(6);
    bar->addWidget(m_perStepCheck);
    bar->addWidget(m_perStepSpin);
    bar->addWidget(m_perStepAuto);
    bar->addStretch(1);

    const auto note = [pane](const char *name) {
        auto *label = new QLabel(pane);
        label->setObjectName(QString::fromLatin1(name));
        label->setWordWrap(true);
        label->setTextFormat(Qt::PlainText);
        label->setVisible(false);
        return label;
    };
    m_perStepNote = note("perStepNote");
    m_perStepNote->setStyleSheet(QStringLiteral("color: #a33a00"));
    m_guaranteeNote = note("guaranteeNote");

    auto *layout = new QVBoxLayout(pane);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addWidget(m_guaranteeNote);
    layout->addWidget(m_perStepBar);
    layout->addWidget(m_perStepNote);
    layout->addWidget(m_resultsView, 1);
    return pane;
}

void ComparisonView::connectSignals()
{
    connect(m_timer, &QTimer::timeout, this, &ComparisonView::startJob);

    connect(&m_watcher, &QFutureWatcher<ComparisonResult>::resultReadyAt, this,
            &ComparisonView::onResultReady);
    connect(&m_watcher, &QFutureWatcher<ComparisonResult>::finished, this, &ComparisonView::onJobFinished);
    connect(&m_watcher, &QFutureWatcher<ComparisonResult>::progressValueChanged, m_progress,
            &QProgressBar::setValue);
    connect(&m_watcher, &QFutureWatcher<ComparisonResult>::progressTextChanged, this,
            [this](const QString &text) {
                if (m_running && m_previewShown)
                    setStatus(previewStatus(QStringLiteral(": ") + text));
                else if (m_running)
                    setStatus(tr("Computing… %1").arg(text));
            });

    connect(m_plan, &PlanModel::planChanged, this, [this] {
        if (m_source == Source::Plan) {
            m_ledger = m_plan->ledger();
            updatePerStepWidgets();
            scheduleRecompute();
        }
    });
    connect(m_resultsView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &ComparisonView::updateExplanation);
}

ComparisonView::~ComparisonView()
{
    // Results of these jobs are not wanted; the jobs hold copies of their input, so waiting is
    // only about not leaving work running past the view (and the application).
    m_watcher.disconnect(this);
    m_future.cancel();
    for (auto &future : m_retired)
        future.cancel();
    m_future.waitForFinished();
    for (auto &future : m_retired)
        future.waitForFinished();
}

QWidget *ComparisonView::createTopBar()
{
    auto *bar = new QWidget(this);
    m_sessionRadio = new QRadioButton(tr("This session's ledger"), bar);
    m_planRadio = new QRadioButton(tr("Planned workload"), bar);
    m_sessionRadio->setToolTip(tr("What the releases of this session would cost under every "
                                  "composition strategy"));
    m_planRadio->setToolTip(tr("What a workload would cost before running it (planning spends "
                               "nothing)"));
    auto *sourceGroup = new QButtonGroup(bar);
    sourceGroup->addButton(m_sessionRadio);
    sourceGroup->addButton(m_planRadio);
    connect(m_sessionRadio, &QRadioButton::toggled, this, [this](bool on) {
        if (on)
            setSource(Source::Session);
    });
    connect(m_planRadio, &QRadioButton::toggled, this, [this](bool on) {
        if (on)
            setSource(Source::Plan);
    });

    m_epsilonMode = new QRadioButton(tr("ε at δ ="), bar);
    m_deltaMode = new QRadioButton(tr("δ at ε ="), bar);
    auto *modeGroup = new QButtonGroup(bar);
    modeGroup->addButton(m_epsilonMode);
    modeGroup->addButton(m_deltaMode);
    m_epsilonMode->setChecked(true);
    m_deltaSpin = new ScientificSpinBox(bar);
    m_deltaSpin->setRange(1e-15, 0.5);
    m_deltaSpin->setMultiplicativeStep(10.0);
    m_deltaSpin->setValue(1e-5);
    m_deltaSpin->setToolTip(tr("δ at which every strategy reports its ε (also the δ of the ε(k) "
                               "chart)"));
    m_epsilonSpin = new ScientificSpinBox(bar);
    m_epsilonSpin->setRange(1e-3, 100.0);
    m_epsilonSpin->setSingleStep(0.1);
    m_epsilonSpin->setValue(1.0);
    m_epsilonSpin->setToolTip(tr("ε at which every strategy reports its δ"));
    for (ScientificSpinBox *spin : {m_deltaSpin, m_epsilonSpin}) {
        spin->setKeyboardTracking(false);
        connect(spin, &QDoubleSpinBox::valueChanged, this, &ComparisonView::scheduleRecompute);
    }
    connect(m_epsilonMode, &QRadioButton::toggled, this, [this] {
        updateQueryWidgets();
        scheduleRecompute();
    });

    m_intervalBox = new QComboBox(bar);
    m_intervalBox->addItem(tr("d = 1e-3 (fast)"), 1e-3);
    m_intervalBox->addItem(tr("d = 1e-4"), 1e-4);
    m_intervalBox->addItem(tr("d = 1e-5 (fine, slow)"), 1e-5);
    m_intervalBox->setCurrentIndex(1);
    m_intervalBox->setToolTip(tr("Grid step of the privacy-loss distribution: finer is tighter "
                                 "(the optimistic–pessimistic bracket narrows) and slower."));
    connect(m_intervalBox, &QComboBox::activated, this, &ComparisonView::scheduleRecompute);

    m_progress = new QProgressBar(bar);
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    m_progress->setFixedWidth(160);
    m_progress->setVisible(false);
    m_cancelButton = new QPushButton(tr("Cancel"), bar);
    m_cancelButton->setEnabled(false);
    m_cancelButton->setToolTip(tr("Stop the computation; its partial results are discarded"));
    connect(m_cancelButton, &QPushButton::clicked, this, &ComparisonView::cancel);
    m_recomputeButton = new QPushButton(tr("Recompute"), bar);
    m_recomputeButton->setToolTip(tr("Compute again now"));
    connect(m_recomputeButton, &QPushButton::clicked, this, &ComparisonView::recomputeNow);

    // Three groups, placed in one to three rows by updateArrangement().
    const auto group = [bar](const QList<QWidget *> &widgets, bool stretch) {
        auto *box = new QWidget(bar);
        auto *row = new QHBoxLayout(box);
        row->setContentsMargins(0, 0, 0, 0);
        row->setSpacing(6);
        for (QWidget *w : widgets) {
            if (!w) {
                row->addStretch(1);
                continue;
            }
            w->setParent(box);
            row->addWidget(w);
        }
        if (!stretch)
            row->addSpacing(12);
        return box;
    };
    m_sourceGroup = group({new QLabel(tr("<b>Compare</b>"), bar), m_sessionRadio, m_planRadio}, false);
    m_reportGroup = group(
        {new QLabel(tr("<b>Report</b>"), bar), m_epsilonMode, m_deltaSpin, m_deltaMode, m_epsilonSpin},
        false);
    m_toolsGroup = group({new QLabel(tr("<b>PLD grid</b>"), bar), m_intervalBox, nullptr, m_progress,
                          m_cancelButton, m_recomputeButton},
                         true);
    m_topBar = new QGridLayout(bar);
    m_topBar->setContentsMargins(2, 0, 2, 0);
    m_topBar->setHorizontalSpacing(6);
    m_topBar->setVerticalSpacing(4);
    updateArrangement();
    updateQueryWidgets();
    return bar;
}

QWidget *ComparisonView::createSessionPage()
{
    auto *page = new QWidget(this);
    m_sessionSummary = new QLabel(page);
    m_sessionSummary->setWordWrap(true);
    m_sessionSummary->setTextFormat(Qt::RichText);
    m_sessionTable = new QTableView(page);
    m_sessionTable->setObjectName(QStringLiteral("sessionLedgerTable"));
    m_sessionTable->setModel(m_sessionModel);
    m_sessionTable->setSelectionMode(QAbstractItemView::NoSelection);
    m_sessionTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_sessionTable->setAlternatingRowColors(true);
    m_sessionTable->setWordWrap(false);
    m_sessionTable->verticalHeader()->setDefaultSectionSize(m_sessionTable->fontMetrics().height() + 6);
    m_sessionTable->horizontalHeader()->setStretchLastSection(true);
    for (int column : {PlanModel::Delta, PlanModel::Count, PlanModel::Sampling, PlanModel::Rate})
        m_sessionTable->setColumnHidden(column, true);
    const QFontMetrics metrics(m_sessionTable->font());
    m_sessionTable->setColumnWidth(PlanModel::Mechanism,
                                   metrics.horizontalAdvance(QStringLiteral("Laplace noise reduction")) + 16);
    m_sessionTable->setColumnWidth(PlanModel::Parameter,
                                   metrics.horizontalAdvance(QStringLiteral("σ = 1,234,567")) + 16);
    m_sessionTable->setColumnWidth(PlanModel::Sensitivity,
                                   metrics.horizontalAdvance(QStringLiteral("5,000")) + 16);

    auto *copy = new QPushButton(tr("Use as plan"), page);
    copy->setToolTip(tr("Copy these events into the plan editor and ask “what if?” (undoable)"));
    connect(copy, &QPushButton::clicked, this, [this] {
        if (m_ledger.events.empty() || !m_sessionError.isEmpty())
            return;
        accounting::Ledger ledger = m_ledger;
        for (auto &e : ledger.events)
            e.partition.clear();
        m_plan->replacePlan(ledger, tr("this session's ledger"));
        setSource(Source::Plan);
    });

    auto *top = new QHBoxLayout;
    top->addWidget(m_sessionSummary, 1);
    top->addWidget(copy, 0, Qt::AlignTop);
    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addLayout(top);
    layout->addWidget(m_sessionTable, 1);
    return page;
}

void ComparisonView::setDocument(SessionDocument *document)
{
    if (m_document)
        m_document->disconnect(this);
    m_document = document;
    if (m_document) {
        connect(m_document, &SessionDocument::sessionReset, this, [this] {
            if (m_document->hasSession())
                m_deltaSpin->setValue(std::max(m_document->settings().delta, 1e-15));
            refreshSessionLedger();
        });
        connect(m_document, &SessionDocument::eventAppended, this, &ComparisonView::refreshSessionLedger);
        if (m_document->hasSession() && m_document->settings().delta > 0.0)
            m_deltaSpin->setValue(m_document->settings().delta);
        setSource(Source::Session);
    }
    refreshSessionLedger();
}

void ComparisonView::setSource(Source source)
{
    m_source = source;
    {
        const QSignalBlocker a(m_sessionRadio);
        const QSignalBlocker b(m_planRadio);
        m_sessionRadio->setChecked(source == Source::Session);
        m_planRadio->setChecked(source == Source::Plan);
    }
    m_sourceStack->setCurrentIndex(source == Source::Session ? 0 : 1);
    if (source == Source::Plan)
        m_ledger = m_plan->ledger();
    else
        refreshSessionLedger();
    updatePerStepWidgets();
    updateGuaranteeNote({});
    scheduleRecompute();
}

void ComparisonView::refreshSessionLedger()
{
    m_origins.clear();
    m_sessionError.clear();
    m_sessionRequests = 0;
    m_sessionBudget = 0.0;
    accounting::Ledger ledger;
    QString summary;
    if (!m_document || !m_document->hasSession()) {
        m_sessionError = tr("No session is open.");
        summary = m_sessionError;
    } else {
        const session::Session &s = m_document->session();
        m_sessionRequests = static_cast<int>(s.events().size());
        m_sessionBudget = s.filter().epsilonBudget();
        auto mapped = accounting::ledgerFromSession(s, &m_origins);
        if (!mapped) {
            m_sessionError = toQString(mapped.error().message);
            summary = tr("This session's ledger cannot be accounted here: %1").arg(m_sessionError);
        } else {
            ledger = std::move(mapped).value();
            std::map<QString, int> kinds;
            for (const auto &e : ledger.events)
                ++kinds[e.outputDp ? tr("output-DP mechanism (settled cost)")
                        : e.expost ? tr("Laplace noise reduction")
                                   : PlanModel::mechanismTitle(e.mechanism)];
            QStringList parts;
            for (const auto &[name, count] : kinds)
                parts << QStringLiteral("%1 × %2").arg(count).arg(name);
            int released = 0;
            for (const auto &e : s.events())
                released += e.status == session::EventStatus::Released ? 1 : 0;
            const auto counted = [](qsizetype n, const QString &one, const QString &many) {
                return QStringLiteral("%1 %2").arg(n).arg(n == 1 ? one : many);
            };
            summary = tr("<b>%1</b> (%2 released) → <b>%3</b>%4; %5 "
                         "neighbours; session budget ε = %6.")
                          .arg(counted(m_sessionRequests, tr("request"), tr("requests")))
                          .arg(released)
                          .arg(counted(static_cast<qsizetype>(ledger.events.size()), tr("privacy event"),
                                       tr("privacy events")))
                          .arg(parts.isEmpty() ? QString()
                                               : QStringLiteral(": ") + parts.join(QStringLiteral(", ")))
                          .arg(ledger.neighbours == accounting::Neighbouring::AddRemove ? tr("add/remove")
                                                                                        : tr("replace-one"))
                          .arg(formatNumber(m_sessionBudget));
            summary += tr("<br><span style='color:#666'>Every paid release is one event (a noise "
                          "reduction is one, at its last level). The strategies treat them as "
                          "fixed in advance; the session's filter accounts the data-dependent "
                          "stopping itself.</span>");
        }
    }
    m_sessionSummary->setText(summary);
    m_sessionModel->setLedgerRaw(ledger);
    if (m_source == Source::Session) {
        m_ledger = ledger;
        updatePerStepWidgets();
        scheduleRecompute();
    }
}

void ComparisonView::setQuery(bool epsilonAtDelta, double delta, double epsilon)
{
    const QSignalBlocker a(m_epsilonMode);
    const QSignalBlocker b(m_deltaSpin);
    const QSignalBlocker c(m_epsilonSpin);
    m_epsilonMode->setChecked(epsilonAtDelta);
    m_deltaMode->setChecked(!epsilonAtDelta);
    m_deltaSpin->setValue(delta);
    m_epsilonSpin->setValue(epsilon);
    updateQueryWidgets();
    scheduleRecompute();
}

bool ComparisonView::epsilonAtDelta() const
{
    return m_epsilonMode->isChecked();
}

double ComparisonView::delta() const
{
    return m_deltaSpin->value();
}

double ComparisonView::epsilon() const
{
    return m_epsilonSpin->value();
}

void ComparisonView::setPldInterval(double interval)
{
    int best = 0;
    for (int i = 0; i < m_intervalBox->count(); ++i)
        if (std::fabs(std::log10(m_intervalBox->itemData(i).toDouble()) - std::log10(interval))
            < std::fabs(std::log10(m_intervalBox->itemData(best).toDouble()) - std::log10(interval)))
            best = i;
    m_intervalBox->setCurrentIndex(best);
    scheduleRecompute();
}

double ComparisonView::pldInterval() const
{
    return m_intervalBox->currentData().toDouble();
}

void ComparisonView::updateQueryWidgets()
{
    m_epsilonSpin->setEnabled(m_deltaMode->isChecked());
    updatePerStepWidgets();
}

double ComparisonView::autoPerStepDelta(double delta, std::int64_t steps)
{
    return accounting::autoPerStepDelta(delta, steps); // the same rule as pbx-cli compare
}

bool ComparisonView::perStepAvailable() const
{
    return accounting::hasNonPureEvents(m_ledger);
}

double ComparisonView::perStepDelta() const
{
    if (!perStepAvailable() || !m_perStepCheck->isChecked())
        return 0.0;
    return m_perStepSpin->value();
}

void ComparisonView::setPerStepDelta(double delta)
{
    {
        const QSignalBlocker a(m_perStepCheck);
        const QSignalBlocker b(m_perStepAuto);
        const QSignalBlocker c(m_perStepSpin);
        m_perStepCheck->setChecked(delta > 0.0);
        if (delta > 0.0) {
            m_perStepAuto->setChecked(false);
            m_perStepSpin->setValue(delta);
        }
    }
    updatePerStepWidgets();
    scheduleRecompute();
}

void ComparisonView::setPerStepAuto(bool automatic)
{
    {
        const QSignalBlocker a(m_perStepCheck);
        const QSignalBlocker b(m_perStepAuto);
        m_perStepCheck->setChecked(true);
        m_perStepAuto->setChecked(automatic);
    }
    updatePerStepWidgets();
    scheduleRecompute();
}

void ComparisonView::updatePerStepWidgets()
{
    if (!m_perStepBar)
        return;
    m_perStepBar->setVisible(perStepAvailable());
    m_perStepSpin->setEnabled(m_perStepCheck->isChecked() && !m_perStepAuto->isChecked());
    m_perStepAuto->setEnabled(m_perStepCheck->isChecked());
    if (m_perStepAuto->isChecked()) {
        if (const double value = autoPerStepDelta(delta(), accounting::convertibleSteps(m_ledger));
            value > 0.0) {
            const QSignalBlocker block(m_perStepSpin);
            m_perStepSpin->setValue(value);
        }
    }
    if (!perStepAvailable())
        m_perStepNote->setVisible(false);
}

QString ComparisonView::perStepNoteText() const
{
    return m_perStepNote->isVisible() ? m_perStepNote->text() : QString();
}

QString ComparisonView::guaranteeText() const
{
    return m_guaranteeNote->isVisible() ? m_guaranteeNote->text() : QString();
}

void ComparisonView::updatePerStepNote(const std::vector<StrategyOutcome> &outcomes)
{
    // Basic, advanced and optimal on the per-step view: when none of them certifies anything,
    // say why (the steps' own δ), next to the control that decides it.
    const StrategyOutcome *any = nullptr;
    bool allVoid = true;
    for (const auto &o : outcomes) {
        if (!o.perStep || !o.applicable)
            continue;
        any = &o;
        allVoid
            = allVoid && (m_lastInput.epsilonAtDelta ? std::isinf(o.answer.epsilon) : o.answer.delta >= 1.0);
    }
    if (!any || !allVoid) {
        m_perStepNote->clear();
        m_perStepNote->setVisible(false);
        return;
    }
    const accounting::PerStepSummary &p = *any->perStep;
    const double k = static_cast<double>(p.convertedSteps);
    QString text;
    if (m_lastInput.epsilonAtDelta)
        text = tr("Basic, advanced and optimal composition certify no finite ε: at δ = %1 per step, the "
                  "%2 converted steps alone charge Σδᵢ = %3, which is not below the total δ = %4, so "
                  "nothing is left for the composition. Choose a per-step δ below δ/k = %5 (auto "
                  "uses δ/(2k)).")
                   .arg(formatBound(p.stepDelta, 3), formatNumber(k, 12), formatBound(p.stepsDelta, 3),
                        formatNumber(m_lastInput.delta, 3), formatNumber(m_lastInput.delta / k, 2));
    else
        text = tr("Basic, advanced and optimal composition certify nothing at ε = %1 (δ = 1): at δ = %2 "
                  "per step the %3 converted steps' ε add up beyond it, or their Σδᵢ = %4 already "
                  "reaches 1. A larger per-step δ lowers each step's ε; a smaller one lowers Σδᵢ.")
                   .arg(formatNumber(m_lastInput.epsilon), formatBound(p.stepDelta, 3), formatNumber(k, 12),
                        formatBound(p.stepsDelta, 3));
    m_perStepNote->setText(text);
    m_perStepNote->setVisible(true);
}

void ComparisonView::updateGuaranteeNote(const std::vector<StrategyOutcome> &outcomes)
{
    if (m_source != Source::Session || !m_document || !m_document->hasSession()
        || !m_sessionError.isEmpty()) {
        m_guaranteeNote->clear();
        m_guaranteeNote->setVisible(false);
        return;
    }
    const auto &filter = m_document->session().filter();
    const QString unit = toQString(filter.unitSymbol());
    if (filter.kind() == filters::FilterKind::Odometer) {
        // No budget: the odometer's reading is the guarantee, whenever the session stops.
        m_guaranteeNote->setText(
            tr("The session has no budget: its guarantee is the privacy odometer's, ε ≤ %1 at δ = %2, which "
               "holds wherever the session stops. The table composes the same releases as if they had been "
               "fixed in advance; its smaller ε's are hindsight, the price of not committing to a budget.")
                .arg(formatBound(filter.epsilonSpent()), formatNumber(filter.deltaBudget(), 3)));
        m_guaranteeNote->setVisible(true);
        return;
    }
    // The gauge's numbers (mainwindow: BudgetGauge::setBudget/setSpent), printed as it prints them:
    // a loss rounded up, four digits (formatBound). Before: "ε ≈ 0.257" beside the gauge's 0.2571.
    QString spent = tr("ε ≤ %1 of ε = %2 at δ = %3")
                        .arg(formatBound(filter.epsilonSpent()), formatNumber(filter.epsilonBudget()),
                             formatNumber(filter.deltaBudget(), 3));
    if (unit == QStringLiteral("ρ"))
        spent += tr(" (its ρ = %1 through Bun–Steinke's ρ + 2√(ρ·ln(1/δ)), the conversion its "
                    "guarantee is stated in)")
                     .arg(formatBound(filter.spent()));
    // The tighter numbers the sentence names: zCDP and the PLD where they come out below the
    // gauge's ε (the ones a reader would take for the session's).
    QStringList tighter;
    for (const auto &o : outcomes)
        if (o.applicable && (o.name == QStringLiteral("zcdp") || o.name == QStringLiteral("pld"))
            && o.epsilonAtDelta < filter.epsilonSpent())
            tighter << QStringLiteral("%1 %2").arg(strategyInfo(o.name).title, formatBound(o.epsilonAtDelta));
    const QString examples
        = tighter.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(tighter.join(QStringLiteral(", ")));
    m_guaranteeNote->setText(
        tr("The session's guarantee is its filter's, as the budget gauge shows it: %1. Any smaller ε "
           "in the table%2 is hindsight: it composes the released ledger as if it had been fixed "
           "before the session, with tighter conversions; the filter had to admit each request "
           "before the next one was chosen, so only its budget holds for this session.")
            .arg(spent, examples));
    m_guaranteeNote->setVisible(true);
}

bool ComparisonView::isBusy() const
{
    return m_running || m_timer->isActive();
}

void ComparisonView::scheduleRecompute()
{
    // A change makes the running job's answer stale: stop it now, start again once the user
    // pauses (a spin-box drag is one computation, not one per step).
    if (m_running)
        retireCurrentJob();
    m_results->setStale(true);
    m_dirty = true;
    if (!isVisible() || (m_timer->isActive() && m_timer->interval() == 0))
        return; // hidden: computed when shown; or a start is already due this event-loop turn
    // The first change after a pause starts at once (its preview is drawn within about 100 ms);
    // changes that follow it closely (typing, a spin-box drag) wait until the user pauses.
    const bool paused
        = !m_timer->isActive() && (!m_lastChange.isValid() || m_lastChange.hasExpired(coalesceMilliseconds));
    m_lastChange.start();
    m_timer->start(paused ? 0 : coalesceMilliseconds);
}

void ComparisonView::recomputeNow()
{
    startJob();
}

void ComparisonView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    // Follow the width of the scroll area the view sits in (the dock's), once it is known.
    QAbstractScrollArea *area = nullptr;
    for (QWidget *p = parentWidget(); p && !area; p = p->parentWidget())
        area = qobject_cast<QAbstractScrollArea *>(p);
    if (area != m_watchedArea) {
        if (m_watchedArea)
            m_watchedArea->removeEventFilter(this);
        m_watchedArea = area;
        if (area)
            area->installEventFilter(this);
    }
    updateArrangement();
    if (m_dirty && !m_running)
        m_timer->start();
}

void ComparisonView::hideEvent(QHideEvent *event)
{
    // Hidden, nobody reads the charts: a pending recomputation waits for the next show.
    QWidget::hideEvent(event);
    if (m_timer->isActive()) {
        m_timer->stop();
        m_dirty = true;
    }
}

void ComparisonView::retireCurrentJob()
{
    if (!m_running)
        return;
    m_running = false;
    // The watcher keeps the old future until the next job replaces it (which drops the old
    // job's pending signals); until then its signals are ignored because m_running is false.
    m_future.cancel();
    m_retired.erase(std::remove_if(m_retired.begin(), m_retired.end(),
                                   [](const QFuture<ComparisonResult> &f) { return f.isFinished(); }),
                    m_retired.end());
    if (!m_future.isFinished())
        m_retired.append(m_future);
    m_future = {};
    m_progress->setVisible(false);
    m_cancelButton->setEnabled(false);
    Q_EMIT computationCancelled();
}

void ComparisonView::cancel()
{
    m_timer->stop();
    if (!m_running)
        return;
    retireCurrentJob();
    m_dirty = true;
    setStatus(m_previewShown ? tr("Cancelled. The table and charts show this ledger's preview on the coarse "
                                  "grid d = %1 (upper bounds, looser); press Recompute to refine.")
                                   .arg(formatNumber(kPreviewPldInterval))
                             : tr("Cancelled. The table shows the previous results (greyed); press "
                                  "Recompute or change the ledger to compute again."));
}

std::vector<ComparisonInput::PrefixPoint> ComparisonView::prefixPoints() const
{
    // Session: x = request number, the prefix holds every release of requests 1..r.
    if (m_source == Source::Session)
        return accounting::groupPrefixes(m_ledger, m_origins, m_sessionRequests);
    return accounting::stepPrefixes(m_ledger);
}

void ComparisonView::startJob()
{
    m_timer->stop();
    retireCurrentJob();
    m_dirty = false;
    m_previewShown = false;
    // The charts are greyed while they show an earlier input's curves; each is
    // restored when this job draws it (or clears it below).
    for (ChartFrame *chart :
         std::initializer_list<ChartFrame *>{m_curveChart, m_profileChart, m_rdpChart, m_pldChart})
        chart->setComputing(true);

    if (m_source == Source::Session && !m_sessionError.isEmpty()) {
        m_results->clear();
        m_hasResults = false;
        const QString why = m_sessionError;
        m_curveChart->clear(why);
        m_profileChart->clear(why);
        m_rdpChart->clear(why);
        m_pldChart->clear(why);
        updatePerStepNote({});
        for (ChartFrame *chart :
             std::initializer_list<ChartFrame *>{m_curveChart, m_profileChart, m_rdpChart, m_pldChart})
            chart->setComputing(false);
        setStatus(why);
        updateExplanation();
        return;
    }
    if (m_ledger.events.empty()) {
        // No rows, but the header and the ε(k) chart's title name the query in the Report field
        // (they kept the view's first δ, 1e-5, beside the session's 1e-6).
        m_results->setResults({}, epsilonAtDelta(), delta(), epsilon());
        if (epsilonAtDelta())
            m_curveChart->setCurves({}, QString(), delta());
        else
            m_curveChart->setDeltaCurves({}, QString(), epsilon());
        m_hasResults = false;
        const QString why = m_source == Source::Session
                                ? tr("The session has released nothing yet: nothing to compare.")
                                : tr("The plan is empty: add events or load an example.");
        m_curveChart->clear(why);
        m_profileChart->clear(why);
        m_rdpChart->clear(why);
        m_pldChart->clear(why);
        updatePerStepNote({});
        for (ChartFrame *chart :
             std::initializer_list<ChartFrame *>{m_curveChart, m_profileChart, m_rdpChart, m_pldChart})
            chart->setComputing(false);
        setStatus(why);
        updateExplanation();
        return;
    }

    updatePerStepWidgets(); // the auto per-step δ follows δ and the ledger
    ComparisonInput input;
    input.ledger = m_ledger;
    input.epsilonAtDelta = epsilonAtDelta();
    input.delta = delta();
    input.epsilon = epsilon();
    input.pldInterval = pldInterval();
    input.perStepDelta = perStepDelta();
    input.prefixes = prefixPoints();
    // Every prefix is a whole new PLD: a long heterogeneous ledger's curves use a coarser grid.
    input.prefixPldInterval = accounting::prefixPldInterval(input.ledger, input.pldInterval);
    m_lastInput = input;

    m_running = true;
    m_results->setStale(true);
    m_progress->setValue(0);
    m_progress->setVisible(true);
    m_cancelButton->setEnabled(true);
    setStatus(tr("Computing…"));
    m_future = startComparison(input);
    m_watcher.setFuture(m_future);
}

void ComparisonView::onResultReady(int index)
{
    if (!m_running || m_watcher.isCanceled())
        return; // a cancelled job's results are ignored
    applyResult(m_watcher.resultAt(index));
}

void ComparisonView::onJobFinished()
{
    if (!m_running)
        return;
    m_running = false;
    m_progress->setVisible(false);
    m_cancelButton->setEnabled(false);
    if (m_watcher.isCanceled()) {
        setStatus(m_previewShown ? tr("Cancelled: the table and charts show the preview on the coarse "
                                      "grid d = %1 (upper bounds, looser).")
                                       .arg(formatNumber(kPreviewPldInterval))
                                 : tr("Cancelled."));
        return;
    }
}

void ComparisonView::applyResult(const ComparisonResult &result)
{
    if (!result.error.isEmpty()) {
        m_results->clear();
        m_hasResults = false;
        updatePerStepNote({});
        setStatus(tr("This ledger cannot be evaluated: %1").arg(result.error));
        return;
    }
    // A preview is a whole result (table and curves) on the coarse grid kPreviewPldInterval.
    const bool preview = result.stage == ComparisonResult::Preview;
    const bool complete = result.stage == ComparisonResult::Complete || preview;
    const double tableInterval = preview ? kPreviewPldInterval : m_lastInput.pldInterval;
    const double delta = m_lastInput.delta;
    std::vector<StrategyOutcome> outcomes = result.strategies;
    for (auto &o : outcomes)
        if (!o.applicable)
            o.reason = readableReason(o.reason);
    m_results->setResults(outcomes, m_lastInput.epsilonAtDelta, delta, m_lastInput.epsilon);
    m_results->setPreview(preview);
    updatePerStepNote(outcomes);
    updateGuaranteeNote(outcomes);

    const accounting::Comparison &c = result.comparison;
    std::vector<StrategyCurve> profiles;
    for (std::size_t i = 0; i < result.strategies.size() && i < c.profileDeltas.size(); ++i)
        if (result.strategies[i].applicable)
            profiles.push_back({result.strategies[i].name, c.profileEpsilons, c.profileDeltas[i]});
    m_profileChart->setProfiles(profiles, delta, m_lastInput.epsilonAtDelta ? 0.0 : m_lastInput.epsilon);
    m_profileChart->setComputing(false);
    m_rdpChart->setComputing(false);
    m_pldChart->setComputing(false);

    const auto find = [&](const QString &name) -> const StrategyOutcome * {
        for (const auto &s : result.strategies)
            if (s.name == name)
                return &s;
        return nullptr;
    };
    // Every chart follows the table's query; a caption repeating a row prints that row's number.
    const bool epsilonMode = m_lastInput.epsilonAtDelta;
    const StrategyOutcome *rdp = find(QStringLiteral("rdp"));
    if (rdp && rdp->applicable && !c.rdp.orders.empty() && epsilonMode)
        m_rdpChart->setCurve(c.rdp.orders, c.rdp.values, c.rdp.epsilonByOrder, c.rdp.optimalOrder, delta,
                             rdp->answer.epsilon);
    else if (rdp && rdp->applicable && !c.rdp.deltaByOrder.empty())
        m_rdpChart->setDeltaCurve(c.rdp.orders, c.rdp.values, c.rdp.deltaByOrder, c.rdp.deltaOptimalOrder,
                                  m_lastInput.epsilon, rdp->answer.delta);
    else
        m_rdpChart->clear(tr("RDP does not apply: %1").arg(rdp ? readableReason(rdp->reason) : QString()));
    const StrategyOutcome *pld = find(QStringLiteral("pld"));
    if (pld && pld->applicable && !c.pld.loss.empty()) {
        m_pldChart->setQuery(epsilonMode, delta, m_lastInput.epsilon,
                             epsilonMode ? pld->answer.epsilon : pld->answer.delta);
        m_pldChart->setHistogram(c.pld.loss, c.pld.mass, c.pld.binWidth, c.pld.threshold, c.pld.infinityMass,
                                 c.pld.interval, c.pld.addDirection);
    } else
        m_pldChart->clear(
            tr("The PLD does not apply: %1").arg(pld ? readableReason(pld->reason) : QString()));

    const QString xTitle = m_source == Source::Session ? tr("request #") : tr("steps composed k");
    m_curveChart->setBudget(m_source == Source::Session ? m_sessionBudget : 0.0);
    if (complete) {
        const auto &rows = epsilonMode || c.prefixDeltas.empty() ? c.prefixEpsilons : c.prefixDeltas;
        std::vector<StrategyCurve> curves;
        for (std::size_t i = 0; i < rows.size() && i < result.strategies.size(); ++i)
            curves.push_back({result.strategies[i].name, c.prefixX, rows[i]});
        m_curveChart->setNote(c.prefixPldInterval != tableInterval
                                  ? tr("(PLD and optimal curves on a coarser grid d = %1; the table "
                                       "uses d = %2)")
                                        .arg(formatNumber(c.prefixPldInterval), formatNumber(tableInterval))
                                  : QString());
        if (epsilonMode || c.prefixDeltas.empty())
            m_curveChart->setCurves(curves, xTitle, delta);
        else
            m_curveChart->setDeltaCurves(curves, xTitle, m_lastInput.epsilon);
    } else if (m_lastInput.prefixes.empty()) {
        m_curveChart->clear(tr("No prefixes to draw."));
    }
    if (complete || m_lastInput.prefixes.empty())
        m_curveChart->setComputing(false);
    updateExplanation();

    const bool finalResult = (complete || m_lastInput.prefixes.empty()) && !preview;
    m_previewShown = preview;
    if (preview) {
        setStatus(previewStatus(QStringLiteral("…")));
        Q_EMIT previewShown();
    } else if (finalResult) {
        m_hasResults = true;
        const auto steps = [&] {
            std::int64_t s = 0;
            for (const auto &e : m_lastInput.ledger.events)
                s += e.count;
            return s;
        }();
        const std::size_t events = m_lastInput.ledger.events.size();
        setStatus(tr("%1 · %2, %3 · computed in %4 s")
                      .arg(m_source == Source::Session ? tr("This session's ledger") : tr("Planned workload"),
                           events == 1 ? tr("1 event") : tr("%1 events").arg(events),
                           steps == 1 ? tr("1 step")
                                      : tr("%1 steps").arg(formatNumber(static_cast<double>(steps), 12)),
                           formatNumber(result.seconds, 2)));
        Q_EMIT resultsShown();
    } else {
        setStatus(tr("Table ready; computing ε(k) over %1 prefixes…").arg(m_lastInput.prefixes.size()));
    }
}

QString ComparisonView::previewStatus(const QString &progress) const
{
    return tr("Preview on a coarse grid d = %1 (every ε and δ an upper bound, looser) · refining on d = %2%3")
        .arg(formatNumber(kPreviewPldInterval), formatNumber(m_lastInput.pldInterval), progress);
}

void ComparisonView::selectStrategy(const QString &name)
{
    const int row = strategyIndex(name);
    if (row < 0)
        return;
    m_resultsView->selectRow(row);
    m_resultsView->selectionModel()->setCurrentIndex(m_results->index(row, 0), QItemSelectionModel::NoUpdate);
    updateExplanation();
}

QString ComparisonView::selectedStrategy() const
{
    const QModelIndex current = m_resultsView->selectionModel()->currentIndex();
    const int row = current.isValid() ? current.row() : 0;
    return strategyInfos().value(row).name;
}

QString ComparisonView::explanationText() const
{
    return m_explanation->toPlainText();
}

QString ComparisonView::statusText() const
{
    return m_status->text();
}

void ComparisonView::setStatus(const QString &text)
{
    m_status->setText(text);
}

QString ComparisonView::readableReason(const QString &reason) const
{
    static const QRegularExpression prefix(QStringLiteral("^events\\[(\\d+)\\] \\(([^)]*)\\): "));
    static const QString notApplicable = QStringLiteral("not applicable: ");
    QString text = reason;
    if (const auto match = prefix.match(text); match.hasMatch()) {
        const auto index = static_cast<std::size_t>(match.captured(1).toULongLong());
        QString who = tr("event %1").arg(index + 1);
        if (m_source == Source::Session && m_document && m_document->hasSession()
            && index < m_origins.size()) {
            const auto &events = m_document->session().events();
            if (m_origins[index] < events.size())
                who = tr("request %1").arg(toQString(events[m_origins[index]].request.id));
        }
        text = QStringLiteral("%1 (%2): %3").arg(who, match.captured(2), text.mid(match.capturedLength()));
    }
    if (text.startsWith(notApplicable, Qt::CaseInsensitive))
        text = text.mid(notApplicable.size());
    return text;
}

void ComparisonView::flushCharts()
{
    m_curveChart->flush();
    m_profileChart->flush();
    m_rdpChart->flush();
    m_pldChart->flush();
}

void ComparisonView::updateExplanation()
{
    const QString name = selectedStrategy();
    const StrategyInfo &info = strategyInfo(name);
    const int row = strategyIndex(name);
    const StrategyOutcome *outcome = m_results->outcome(row);

    QString here;
    if (!outcome) {
        here = tr("Not computed yet.");
    } else if (!outcome->applicable) {
        here = tr("<b>Here:</b> not applicable — %1").arg(outcome->reason.toHtmlEscaped());
    } else if (m_results->epsilonAtDelta()) {
        // Compare with the smallest certified ε: all are valid upper bounds.
        double best = std::numeric_limits<double>::infinity();
        QString bestName;
        for (int i = 0; i < m_results->rowCount(); ++i) {
            const StrategyOutcome *o = m_results->outcome(i);
            if (o && o->applicable && o->answer.epsilon < best) {
                best = o->answer.epsilon;
                bestName = strategyInfos().at(i).title;
            }
        }
        const double eps = outcome->answer.epsilon;
        here = tr("<b>Here:</b> ε = %1 at δ = %2").arg(formatBound(eps), formatNumber(m_lastInput.delta, 3));
        if (std::isfinite(eps) && std::isfinite(best) && best > 0.0 && eps > best * (1 + 1e-9))
            here += tr(", %1× the smallest valid bound (%2, ε = %3).")
                        .arg(formatNumber(eps / best, 3), bestName, formatBound(best));
        else if (std::isfinite(eps))
            here += tr(" — the smallest ε of all strategies here.");
        else
            here += tr(" — no finite ε at this δ.");
    } else {
        here = tr("<b>Here:</b> δ = %1 at ε = %2.")
                   .arg(formatBound(outcome->answer.delta, 3), formatNumber(m_lastInput.epsilon));
    }
    if (name == QLatin1String("advanced"))
        here += advancedFilterNote();
    m_explanation->setHtml(linkGlossaryTerms(
        tr("<p style='margin-top:0'><span style='color:%1; font-size:large'>■</span> <b>%2</b></p>"
           "<p><b>Formula.</b> %3</p><p><b>Why it differs.</b> %4</p><p>%5</p>"
           "<p style='color:#555'><b>Source.</b> %6</p>")
            .arg(info.colour.name(), info.title, info.formula, info.why, here, info.source)));
}

QString ComparisonView::advancedFilterNote() const
{
    // The session's ε budget, else ε = 1 as an example; δ is the view's.
    const bool fromSession = m_sessionBudget > 0.0;
    const double epsilon = fromSession ? m_sessionBudget : 1.0;
    const double delta = m_lastInput.delta > 0.0 && m_lastInput.delta < 1.0 ? m_lastInput.delta : 1e-5;
    auto filter = filters::AdvancedFilter::create(epsilon, delta);
    if (!filter)
        return {};
    const double epsilon0 = (*filter)->crossoverEpsilon() / 2.0; // well inside the winning range
    const auto basicCount = static_cast<std::int64_t>(std::floor(epsilon / epsilon0 * (1.0 + 1e-12)));
    return tr("<p><b>As a session filter.</b> With a budget of ε = %1 (%2) at δ = %3, the "
              "advanced-composition filter (Whitehouse, Ramdas, Rogers &amp; Wu 2023; "
              "<i>--filter advanced</i>) admits more equal pure-ε requests than basic composition "
              "once each asks less than ε₀ = %4, that is beyond about %5 requests: at ε₀ = %6 it "
              "admits %7 where basic admits %8.</p>")
        .arg(formatNumber(epsilon), fromSession ? tr("the session's") : tr("an example; no session is open"),
             formatNumber(delta, 3), formatNumber((*filter)->crossoverEpsilon(), 4),
             formatNumber(std::ceil((*filter)->crossoverCount()), 4), formatNumber(epsilon0, 4))
        .arg(static_cast<qulonglong>((*filter)->admitsEqual(epsilon0)))
        .arg(static_cast<qlonglong>(basicCount));
}

} // namespace pbx::ui
