// SPDX-License-Identifier: MIT
#include "ui/mainwindow.h"

#include "core/filters/odometer_filter.h"
#include "core/session/ledger/odometer_path.h"
#include "core/session/planned_cap.h"
#include "core/util/try.h"
#include "resources/dataset_catalog.h"
#include "ui/appinfo.h"
#include "ui/appsettings.h"
#include "ui/charts/presentation.h"
#include "ui/charts/privacylosspathchart.h"
#include "ui/comparison/comparisonview.h"
#include "ui/dataset/csvimportdialog.h"
#include "ui/growing/growinglabdialog.h"
#include "ui/growing/growingmenus.h"
#include "ui/help/glossarydialog.h"
#include "ui/lab/labdialog.h"
#include "ui/lessons/lessonspanel.h"
#include "ui/models/ledgermodel.h"
#include "ui/noisereduction/noisereductionview.h"
#include "ui/odp/odplabdialog.h"
#include "ui/odp/odpmenus.h"
#include "ui/panels/datasetpanel.h"
#include "ui/panels/querybuilder.h"
#include "ui/panels/sessionpanel.h"
#include "ui/report/reportexport.h"
#include "ui/risk/privacyriskview.h"
#include "ui/sessiondocument.h"
#include "ui/sources/opendatasetdialog.h"
#include "ui/strategies/strategymenus.h"
#include "ui/util/numberformat.h"
#include "ui/util/privacytext.h"
#include "ui/widgets/attemptsview.h"
#include "ui/widgets/budgetgauge.h"
#include "ui/widgets/columnfitter.h"
#include "ui/widgets/fitscrollarea.h"
#include "ui/widgets/resultcard.h"
#include "ui/widgets/screenfit.h"
#include "ui/widgets/segmentlabel.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QGroupBox>
#include <QHeaderView>
#include <QHelpEvent>
#include <QInputDialog>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QScrollBar>
#include <QSet>
#include <QShowEvent>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStyle>
#include <QStyleOptionDockWidget>
#include <QStylePainter>
#include <QTabBar>
#include <QTableView>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>
#include <vector>

namespace pbx::ui {

namespace {

/// A dock whose title is painted in its own font, which follows presentation mode. QDockWidget
/// paints its title in the font the platform theme gave dock titles when the dock was made
/// (QApplication::font("QDockWidgetTitle")) whenever the dock's font is the application's: the
/// title bar grew with presentation mode's font (19 → 23 px) but its text stayed 13 px high.
class ScaledTitleDock final : public QDockWidget
{
public:
    using QDockWidget::QDockWidget;

protected:
    void paintEvent(QPaintEvent *event) override
    {
        // A title bar widget, a floating dock with the window system's frame, or one in a floating
        // tab group: Qt's own painting.
        static const bool qtFramesFloating
            = QGuiApplication::platformName() == QLatin1String("xcb")
              || QGuiApplication::platformName().startsWith(QLatin1String("wayland"));
        const bool docked = qobject_cast<QMainWindow *>(parentWidget()) && !isFloating();
        if (titleBarWidget() || !(docked || (isFloating() && qtFramesFloating))) {
            QDockWidget::paintEvent(event);
            return;
        }
        QStylePainter painter(this); // in the dock's font
        if (isFloating()) {
            QStyleOptionFrame frame;
            frame.initFrom(this);
            painter.drawPrimitive(QStyle::PE_FrameDockWidget, frame);
        }
        QStyleOptionDockWidget title;
        initStyleOption(&title);
        painter.drawControl(QStyle::CE_DockWidgetTitle, title);
    }
};

QGroupBox *groupBox(const QString &title, QWidget *content, QWidget *parent)
{
    auto *box = new QGroupBox(title, parent);
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(10, 8, 10, 10);
    layout->addWidget(content);
    return box;
}

/// The ledger and attempts: asks only for its minimum height, so on a short screen the query above
/// keeps its height and the ledger takes what is left (it grows with the window).
class LedgerSplitter final : public QSplitter
{
public:
    explicit LedgerSplitter(QWidget *parent) : QSplitter(Qt::Vertical, parent) {}
    QSize sizeHint() const override { return minimumSizeHint(); }
};

QString errorText(const Error &error)
{
    return toQString(error.message);
}

} // namespace

MainWindow::MainWindow(QWidget *parent) : QMainWindow(parent)
{
    setObjectName(QStringLiteral("mainWindow"));
    for (auto [timer, fit] : {std::pair{&m_dockTitleFitTimer, &MainWindow::fitDockTabTitles},
                              std::pair{&m_dockHeightFitTimer, &MainWindow::fitDockHeights}}) {
        *timer = new QTimer(this);
        (*timer)->setSingleShot(true);
        (*timer)->setInterval(0);
        connect(*timer, &QTimer::timeout, this, fit);
    }
    m_document = new SessionDocument(this);
    m_ledgerModel = new LedgerModel(this);

    createCentralWidget();
    createDocks();
    createActions();
    createMenus();

    m_modeStatus = new SegmentLabel(this);
    m_modeStatus->setObjectName(QStringLiteral("modeStatus"));
    m_modeStatus->setContentsMargins(6, 0, 6, 0);
    // The mode never widens the window: it shows the parts its width holds (segmentlabel.h); a
    // status message takes the whole bar while it shows, so the mode cannot cut it. The full mode
    // is the label's tooltip.
    m_modeStatus->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    statusBar()->addPermanentWidget(m_modeStatus, 1);
    connect(statusBar(), &QStatusBar::messageChanged, m_modeStatus,
            [this](const QString &message) { m_modeStatus->setVisible(message.isEmpty()); });

    connect(m_document, &SessionDocument::sessionReset, this, &MainWindow::onSessionReset);
    connect(m_document, &SessionDocument::eventAppended, this, &MainWindow::onEventAppended);
    connect(m_document, &SessionDocument::modifiedChanged, this, &MainWindow::updateTitle);
    connect(m_document, &SessionDocument::filePathChanged, this, &MainWindow::updateTitle);
    connect(m_sessionPanel, &SessionPanel::settingsEdited, this, &MainWindow::onSettingsEdited);
    connect(m_sessionPanel, &SessionPanel::newSessionRequested, this, &MainWindow::newSessionInteractive);
    connect(m_queryBuilder, &QueryBuilder::askRequested, this, &MainWindow::askInteractive);
    connect(m_document, &SessionDocument::askingChanged, this, &MainWindow::onAskingChanged);
    connect(m_resultCard, &ResultCard::cancelRequested, this, &MainWindow::cancelAsk);
    connect(m_document, &SessionDocument::publicRowCountSettled, this, [this] {
        m_datasetPanel->setSource(m_document->dataSource(), m_document->datasetSource());
        updateCostPreview();
        if (std::exchange(m_askWhenCounted, false)) {
            if (m_document->publicRowCountState() == SessionDocument::RowCount::Failed) {
                m_resultCard->showError(m_document->rowCountFailure());
                statusBar()->showMessage(
                    tr("Not asked: the table's rows could not be counted; nothing spent"), 5000);
                Q_EMIT askFinished();
            } else {
                askInteractive();
            }
        }
    });
    connect(m_queryBuilder, &QueryBuilder::planChanged, this, &MainWindow::updatePlannedCapPreview);
    connect(m_ledgerView->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &MainWindow::onLedgerSelectionChanged);

    onSessionReset();
}

MainWindow::~MainWindow() = default;

QSize MainWindow::sizeHint() const
{
    return {1400, 900};
}

void MainWindow::createCentralWidget()
{
    m_queryBuilder = new QueryBuilder(this);
    m_resultCard = new ResultCard(this);

    m_ledgerView = new QTableView(this);
    m_ledgerView->setObjectName(QStringLiteral("ledgerView"));
    m_ledgerView->setModel(m_ledgerModel);
    m_ledgerView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_ledgerView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_ledgerView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_ledgerView->setAlternatingRowColors(true);
    m_ledgerView->setWordWrap(false);
    m_ledgerView->setTextElideMode(Qt::ElideRight);
    m_ledgerView->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_ledgerView->verticalHeader()->setVisible(false);
    auto *header = m_ledgerView->horizontalHeader();
    header->setStretchLastSection(true);
    header->setHighlightSections(false);
    header->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    sizeLedgerColumns();
    // Presentation mode's larger font gets wider columns and taller rows: the columns sized for
    // the normal font elided every header ("Answer ±…") and cut the rows.
    connect(&Presentation::instance(), &Presentation::changed, this, [this] { sizeLedgerColumns(); });
    // The request number is never elided: the column widens with its digits (10000 requests).
    const auto fitNumbers = [this] {
        const int digits = static_cast<int>(QString::number(m_ledgerModel->rowCount()).size());
        const int needed
            = m_ledgerView->fontMetrics().horizontalAdvance(QString(std::max(digits, 3), u'9')) + 18;
        if (m_ledgerView->columnWidth(LedgerModel::Number) < needed)
            m_ledgerView->setColumnWidth(LedgerModel::Number, needed);
    };
    connect(m_ledgerModel, &QAbstractItemModel::rowsInserted, this, fitNumbers);
    connect(m_ledgerModel, &QAbstractItemModel::modelReset, this, fitNumbers);
    // At 1024 px the ledger does not scroll sideways: the secondary columns give way (least
    // important first; the header's context menu brings any back).
    // The query narrows last, elided (its full text is the row's tooltip).
    auto *fitter = ColumnFitter::install(
        m_ledgerView, {LedgerModel::Accounting, LedgerModel::Attempts, LedgerModel::Mechanism,
                       LedgerModel::Id, LedgerModel::Spent, LedgerModel::ExPostSpent, LedgerModel::Reason,
                       LedgerModel::Target, LedgerModel::EpsilonSpent, LedgerModel::ErrorBound});
    fitter->setElastic(LedgerModel::Query,
                       m_ledgerView->fontMetrics().horizontalAdvance(QStringLiteral("mean(wage…")));
    // Values as wide as they are: an ex-post cost ("0.01845 ex-post ε") was elided in a column
    // sized for "0.0007531", and 40 counts' answers ("8,756") kept the room of "12,345,678".
    fitter->setFitToContents({LedgerModel::Status, LedgerModel::Answer, LedgerModel::ErrorBound,
                              LedgerModel::Cost, LedgerModel::Spent, LedgerModel::EpsilonSpent});

    m_attempts = new AttemptsView(this);

    auto *top = new QWidget(this);
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->setSpacing(8);
    topLayout->addWidget(groupBox(tr("Ask a query"), m_queryBuilder, top));
    topLayout->addWidget(m_resultCard);

    auto *splitter = new LedgerSplitter(this);
    splitter->setChildrenCollapsible(false);
    splitter->addWidget(groupBox(tr("Ledger — every request, released or refused"), m_ledgerView, splitter));
    splitter->addWidget(groupBox(tr("Attempts of the selected request"), m_attempts, splitter));
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({360, 150});

    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(8, 8, 8, 4);
    layout->setSpacing(8);
    // On a small screen (1024×700, or with the comparison docked below) the query scrolls rather
    // than squashing its fields. The ledger takes what the query leaves, down to its own minimum.
    auto *topArea = new FitScrollArea(top, Qt::Horizontal | Qt::Vertical, central);
    m_topArea = topArea;
    topArea->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum); // its size hint, not more
    layout->addWidget(topArea);
    layout->addWidget(splitter, 1);
    setCentralWidget(central);
}

void MainWindow::revealResultCard()
{
    // At 1024×708 in presentation mode (a window manager's frame) the query and the card do not
    // both fit: the answer's headline ("8,728 ± 50") was cut under the query's fields. Once the
    // card has its new size, the area scrolls to show it (its top, when it is taller).
    QTimer::singleShot(0, this, [this] {
        if (m_topArea && m_resultCard->isVisible())
            m_topArea->ensureWidgetVisible(m_resultCard, 0, 0);
    });
}

void MainWindow::sizeLedgerColumns()
{
    // Each column as wide as a typical value in the view's current font, and never narrower than
    // its header's title.
    m_ledgerView->verticalHeader()->setDefaultSectionSize(m_ledgerView->fontMetrics().height() + 8);
    const QFontMetrics metrics(m_ledgerView->font());
    QHeaderView *header = m_ledgerView->horizontalHeader();
    const auto set = [&](int column, const QString &sample) {
        m_ledgerView->setColumnWidth(
            column, std::max(metrics.horizontalAdvance(sample) + 18, header->sectionSizeHint(column)));
    };
    const int digits = static_cast<int>(QString::number(m_ledgerModel->rowCount()).size());
    set(LedgerModel::Number, QString(std::max(digits, 3), u'9'));
    set(LedgerModel::Id, QStringLiteral("q100"));
    set(LedgerModel::Query, QStringLiteral("mean(wage) where region == \"so"));
    set(LedgerModel::Target, QStringLiteral("±150 @ 95 %"));
    set(LedgerModel::Status, QStringLiteral("released ✓"));
    set(LedgerModel::Answer, QStringLiteral("12,345,678"));
    set(LedgerModel::ErrorBound, QStringLiteral("±12,345"));
    set(LedgerModel::Mechanism, QStringLiteral("doubling-gaussian"));
    set(LedgerModel::Attempts, QStringLiteral("Attempts"));
    // Losses print four significant digits rounded up (formatBound): a small ρ is 9 characters.
    set(LedgerModel::Cost, QStringLiteral("0.0007531"));
    set(LedgerModel::Spent, QStringLiteral("0.0007531"));
    set(LedgerModel::EpsilonSpent, QStringLiteral("0.0007531"));
    set(LedgerModel::ExPostSpent, QStringLiteral("Ex-post ε spent"));
    set(LedgerModel::Accounting, QStringLiteral("zCDP: ρ = Δ²/(2·T_s"));
}

void MainWindow::createDocks()
{
    setDockNestingEnabled(true);
    const auto makeDock
        = [this](const QString &title, const QString &name, QWidget *content, Qt::DockWidgetArea area) {
              auto *dock = new ScaledTitleDock(title, this);
              dock->setObjectName(name);
              dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable
                                | QDockWidget::DockWidgetClosable);
              auto *frame = new QWidget(dock);
              auto *layout = new QVBoxLayout(frame);
              layout->setContentsMargins(8, 4, 8, 8);
              layout->addWidget(content);
              // Scrolls when the window is small (1024×700) instead of widening it.
              dock->setWidget(new FitScrollArea(frame, Qt::Horizontal | Qt::Vertical, dock));
              frame->installEventFilter(this); // its layout requests: fitDockHeights
              addDockWidget(area, dock);
              m_docks << dock;
              return dock;
          };

    m_datasetPanel = new DatasetPanel(this);
    m_sessionPanel = new SessionPanel(this);
    auto *datasetDock
        = makeDock(tr("Dataset"), QStringLiteral("datasetDock"), m_datasetPanel, Qt::LeftDockWidgetArea);
    auto *sessionDock = makeDock(tr("Privacy settings"), QStringLiteral("sessionDock"), m_sessionPanel,
                                 Qt::LeftDockWidgetArea);
    splitDockWidget(datasetDock, sessionDock, Qt::Vertical);

    m_gauge = new BudgetGauge(this);
    m_chart = new PrivacyLossPathChart(this);
    // Hovering a point of the path names its request: "Request 3: Q3 · count of rows".
    m_chart->setRequestDescriber([this](int number) {
        if (!m_document->hasSession())
            return QString();
        const auto &events = m_document->session().events();
        if (number < 1 || static_cast<std::size_t>(number) > events.size())
            return QString();
        const auto &request = events[static_cast<std::size_t>(number - 1)].request;
        return tr("%1 · %2").arg(toQString(request.id), LedgerModel::describeRequest(request));
    });
    auto *gaugeDock
        = makeDock(tr("Privacy budget"), QStringLiteral("gaugeDock"), m_gauge, Qt::RightDockWidgetArea);
    auto *chartDock
        = makeDock(tr("Privacy-loss path"), QStringLiteral("chartDock"), m_chart, Qt::RightDockWidgetArea);
    splitDockWidget(gaugeDock, chartDock, Qt::Vertical);

    // The noise-reduction view of the selected request shares the path chart's place.
    m_noiseReduction = new NoiseReductionView(this);
    m_noiseReductionDock = new ScaledTitleDock(tr("Noise reduction"), this);
    m_noiseReductionDock->setObjectName(QStringLiteral("noiseReductionDock"));
    m_noiseReductionDock->setFeatures(chartDock->features());
    auto *nrFrame = new QWidget(m_noiseReductionDock);
    auto *nrLayout = new QVBoxLayout(nrFrame);
    nrLayout->setContentsMargins(8, 4, 8, 8);
    nrLayout->addWidget(m_noiseReduction);
    nrFrame->installEventFilter(this);
    m_noiseReductionDock->setWidget(
        new FitScrollArea(nrFrame, Qt::Horizontal | Qt::Vertical, m_noiseReductionDock));
    tabifyDockWidget(chartDock, m_noiseReductionDock);
    chartDock->raise();
    // A dock moved or tabbed by hand gets the titles its new tab bar has room for.
    // A dock brought to the front of its tab group gets the height it needs (fitDockHeights).
    for (QDockWidget *dock : std::as_const(m_docks) + QList<QDockWidget *>{m_noiseReductionDock}) {
        for (auto fit : {&MainWindow::scheduleDockTitleFit, &MainWindow::scheduleDockHeightFit})
            connect(dock, &QDockWidget::dockLocationChanged, this, fit);
        connect(dock, &QDockWidget::visibilityChanged, this, &MainWindow::scheduleDockHeightFit);
    }

    // The strategy comparison needs room: it opens floating at about the window's size the first
    // time (View ▸ Compare strategies) and can be docked anywhere. It computes only while shown.
    m_comparison = new ComparisonView(this);
    m_comparison->setDocument(m_document);
    m_comparisonDock = new ScaledTitleDock(tr("Compare strategies"), this);
    m_comparisonDock->setObjectName(QStringLiteral("comparisonDock"));
    m_comparisonDock->setFeatures(chartDock->features());
    // Docked into a 1024×700 window it scrolls rather than pushing the window past the screen.
    m_comparisonDock->setWidget(
        new FitScrollArea(m_comparison, Qt::Horizontal | Qt::Vertical, m_comparisonDock));
    addDockWidget(Qt::BottomDockWidgetArea, m_comparisonDock);
    m_comparisonDock->setFloating(true);
    m_comparisonDock->hide();
    m_comparisonDock->toggleViewAction()->setText(tr("&Compare strategies"));
    m_comparisonDock->toggleViewAction()->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    m_comparisonDock->toggleViewAction()->setStatusTip(
        tr("What this session's ledger, or a planned workload, costs under every composition strategy"));
    connect(m_comparisonDock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (!visible || m_comparisonPlaced || !m_comparisonDock->isFloating())
            return;
        m_comparisonPlaced = true;
        // Most of the screen (its four charts were ~300 px wide at the window's 1400 px on a
        // 1920-px screen), centred on it.
        const QRect screen
            = m_comparisonDock->screen() ? m_comparisonDock->screen()->availableGeometry() : geometry();
        const QSize size(std::min(screen.width() - 40, 1840), std::min(screen.height() - 40, 1160));
        m_comparisonDock->setGeometry(
            QRect(screen.center() - QPoint(size.width() / 2, size.height() / 2), size));
        // Its frame too: at the window's size it stood 4 px past a 1024×768 screen.
        fitFrameOnceShown(m_comparisonDock);
    });

    // The first size is the screen's, up to the 1400×900 the layout is designed for: on a
    // 1024×768 projector the gauge and the path stay on screen and the docks take their share of
    // 1024 px, not of 1400.
    // In presentation mode (remembered from the last run) the screen's area up to kPresentationSize.
    resizeWithinScreen(this, AppSettings::presentationMode() ? kPresentationSize : QSize(1400, 900));
    m_firstSize = size();
    applyDefaultDockSizes();
}

void MainWindow::applyDefaultDockSizes()
{
    // Sized for 1400×900: about 340 px left, 400 px right, the rest for the query and ledger; on a
    // 1024-px projector about 285 px left and 280 px right, so the query keeps its full width.
    QDockWidget *datasetDock = m_docks.value(0);
    QDockWidget *sessionDock = m_docks.value(1);
    QDockWidget *gaugeDock = m_docks.value(2);
    QDockWidget *chartDock = m_docks.value(3);
    // In presentation mode's two columns on a wide window (1920 px) up to 460 and 520 px: its larger
    // text wraps less, and the lessons and the privacy settings fit their column's height.
    const int w = width();
    const bool large = Presentation::instance().isEnabled();
    resizeDocks({datasetDock, gaugeDock},
                {std::clamp(w * 243 / 1000, 284, large ? 460 : 340),
                 std::clamp(w * 286 / 1000, 280, large ? 520 : 400)},
                Qt::Horizontal);
    resizeDocks({datasetDock, sessionDock}, {430, 400}, Qt::Vertical);
    resizeDocks({gaugeDock, chartDock}, {320, 520}, Qt::Vertical);
}

void MainWindow::updateProjectorLayout()
{
    // Presentation mode's larger text needs about 1280 px for two dock columns and the query; on a
    // narrower window the dataset and privacy settings become tabs beside the gauge and the path,
    // so the query keeps its width and Ask stays on screen.
    const bool oneColumn = Presentation::instance().isEnabled() && width() < kTwoColumnWidth;
    if (oneColumn == m_oneDockColumn)
        return;
    m_oneDockColumn = oneColumn;
    QDockWidget *datasetDock = m_docks.value(0);
    QDockWidget *sessionDock = m_docks.value(1);
    QDockWidget *gaugeDock = m_docks.value(2);
    QDockWidget *chartDock = m_docks.value(3);
    if (oneColumn) {
        tabifyDockWidget(gaugeDock, sessionDock);
        tabifyDockWidget(chartDock, datasetDock);
        gaugeDock->raise();
        chartDock->raise();
        // The lessons too: a column of their own left the query too narrow for Ask. Beside the
        // gauge, above the chart a step raises, so the step's text and its chart show together.
        if (m_lessonsDock && m_lessonsDock->isVisible() && !m_lessonsDock->isFloating()) {
            tabifyDockWidget(gaugeDock, m_lessonsDock);
            m_lessonsDock->raise();
            giveLessonsTheirHeight();
        }
        resizeDocks({gaugeDock}, {std::clamp(width() * 36 / 100, 300, 420)}, Qt::Horizontal);
    } else {
        addDockWidget(Qt::LeftDockWidgetArea, datasetDock);
        splitDockWidget(datasetDock, sessionDock, Qt::Vertical);
        if (m_lessonsDock && m_lessonsDock->isVisible())
            tabifyDockWidget(datasetDock, m_lessonsDock);
        applyDefaultDockSizes();
    }
}

void MainWindow::resizeEvent(QResizeEvent *event)
{
    QMainWindow::resizeEvent(event);
    if (isVisible())
        updateProjectorLayout();
    scheduleDockTitleFit();
    scheduleDockHeightFit();
}

namespace {

/// A dock's name in full, and the short one its tab takes in a narrow column (empty: it keeps its
/// full name everywhere).
struct DockTitles
{
    QString full;
    QString brief;
};

DockTitles dockTitles(const QDockWidget *dock)
{
    static const char *const fullProperty = "pbxFullTitle";
    if (!dock->property(fullProperty).isValid())
        const_cast<QDockWidget *>(dock)->setProperty(fullProperty, dock->windowTitle());
    const QString name = dock->objectName();
    // (at 1024 px in presentation mode: "Budget | Settings | Lessons" and "Path | Noise reduction |
    // Dataset" fit the column's 367 px, the full titles needed 436 and more)
    const QString brief = name == QLatin1String("sessionDock") ? MainWindow::tr("Settings")
                          : name == QLatin1String("gaugeDock") ? MainWindow::tr("Budget")
                          : name == QLatin1String("chartDock") ? MainWindow::tr("Path")
                                                               : QString();
    return {dock->property(fullProperty).toString(), brief};
}

} // namespace

void MainWindow::scheduleDockTitleFit()
{
    m_dockTitleFitTimer->start(); // a 0-ms single shot: many calls in one event-loop turn, one fit
}

void MainWindow::fitDockTabTitles()
{
    const int padding = style()->pixelMetric(QStyle::PM_TabBarTabHSpace, nullptr, this) + 4;
    QSet<QDockWidget *> done;
    for (QDockWidget *dock : findChildren<QDockWidget *>(Qt::FindDirectChildrenOnly)) {
        if (done.contains(dock))
            continue;
        // Its tabs: the docks tabbed with it that are open (a closed dock has no tab).
        QList<QDockWidget *> group{dock};
        for (QDockWidget *other : tabifiedDockWidgets(dock))
            if (other->toggleViewAction()->isChecked())
                group << other;
        // The group's width is its shown member's (the tab bar spans the column).
        int room = 0;
        int needed = 0;
        for (QDockWidget *member : group) {
            done.insert(member);
            if (member->isVisible())
                room = std::max(room, member->width());
            needed += member->fontMetrics().horizontalAdvance(dockTitles(member).full) + padding;
        }
        const bool brief = group.size() > 1 && !dock->isFloating() && dock->toggleViewAction()->isChecked()
                           && needed > room;
        for (QDockWidget *member : group) {
            const DockTitles titles = dockTitles(member);
            const QString title = brief && !titles.brief.isEmpty() ? titles.brief : titles.full;
            if (member->windowTitle() != title) {
                member->setWindowTitle(title);
                member->toggleViewAction()->setText(titles.full); // the View menu names it in full
            }
        }
    }
    // Tab bars the layout created since: their tooltips name the dock in full (eventFilter).
    for (QTabBar *bar : findChildren<QTabBar *>(Qt::FindDirectChildrenOnly))
        bar->installEventFilter(this);
}

namespace {

/// How a dock stands in height, in pixels: `missing` more would show it without scrolling (the
/// lessons: their list with its rows whole); it could give up `spare` and still do.
struct DockRoom
{
    int missing = 0;
    int spare = 0;
};

/// A dock whose content lies in a scroll area: what QScrollArea scrolls over (the content's minimum
/// height, or its height for the viewport's width where it has one) against the viewport's height.
DockRoom scrollAreaRoom(const QScrollArea *area)
{
    const QWidget *content = area->widget();
    if (!content)
        return {};
    // At the viewport's width, as QScrollArea measures it: narrower by the scroll bar while that
    // shows, which it keeps showing while the content is taller at that width.
    const int width = area->viewport()->width();
    const QScrollBar *sideways = area->horizontalScrollBar();
    const int height
        = area->height() - 2 * area->frameWidth() - (sideways->isVisible() ? sideways->height() : 0);
    int needed = std::max(content->minimumSizeHint().height(), content->minimumHeight());
    const bool heightForWidth = content->layout() ? content->layout()->hasHeightForWidth()
                                                  : content->sizePolicy().hasHeightForWidth();
    if (heightForWidth)
        needed = std::max(needed, content->heightForWidth(width));
    return {std::max(0, needed - height), std::max(0, height - needed)};
}

/// The lessons dock on its list page: the list against the height of its first `rows` rows, and
/// the dock against its minimum (below it the labels are drawn over one another). On a lesson's
/// step page (its text scrolls) only the minimum.
DockRoom lessonsRoom(const QDockWidget *dock, const LessonsPanel *panel, int rows)
{
    const int aboveMinimum = dock->height() - dock->minimumSizeHint().height();
    const QListWidget *list = panel->lessonList();
    if (!list->isVisible())
        return {std::max(0, -aboveMinimum), std::max(0, aboveMinimum)};
    int wanted = 2 * list->frameWidth();
    for (int row = 0; row < std::min(rows, static_cast<int>(list->count())); ++row)
        wanted += list->visualItemRect(list->item(row)).height();
    const int has = list->height();
    return {std::max(0, wanted - has) + std::max(0, -aboveMinimum),
            std::max(0, std::min(has - wanted, aboveMinimum))};
}

/// The height a dock's tab bar adds below it (with the gap between them), 0 for a dock alone:
/// QMainWindow::resizeDocks sizes a tab group, tab bar included, by any of its docks.
int tabBarBelow(const QMainWindow *window, const QDockWidget *dock)
{
    const QRect rect = dock->geometry();
    for (const QTabBar *bar : window->findChildren<QTabBar *>(Qt::FindDirectChildrenOnly)) {
        const int gap = bar->y() - rect.bottom() - 1;
        if (bar->isVisible() && std::abs(bar->x() - rect.x()) <= 8 && gap >= 0 && gap <= 8)
            return gap + bar->height();
    }
    return 0;
}

} // namespace

void MainWindow::scheduleDockHeightFit()
{
    m_dockHeightFitTimer->start(); // a 0-ms single shot: many calls in one event-loop turn, one fit
}

void MainWindow::fitDockHeights()
{
    if (!isVisible())
        return;
    // The docks shown in the window by column: the same area and left edge (a column's tab group
    // counts once, by the dock in front).
    std::map<std::pair<int, int>, QList<QDockWidget *>> columns;
    for (QDockWidget *dock : findChildren<QDockWidget *>(Qt::FindDirectChildrenOnly))
        if (dock->isVisible() && !dock->isFloating() && dock->widget() && !dock->visibleRegion().isEmpty())
            columns[{static_cast<int>(dockWidgetArea(dock)), dock->x()}] << dock;
    bool moved = false;
    bool lessonsShort = false;
    for (auto &[where, column] : columns) {
        if (column.size() < 2)
            continue;
        std::sort(column.begin(), column.end(),
                  [](const QDockWidget *a, const QDockWidget *b) { return a->y() < b->y(); });
        QList<int> heights;
        QList<DockRoom> rooms;
        int lessons = -1;
        for (QDockWidget *dock : std::as_const(column)) {
            heights << dock->height() + tabBarBelow(this, dock);
            if (dock == m_lessonsDock && m_lessons) {
                lessons = static_cast<int>(rooms.size());
                rooms << lessonsRoom(dock, m_lessons, kLessonRows);
            } else if (const auto *area = qobject_cast<const QScrollArea *>(dock->widget())) {
                rooms << scrollAreaRoom(area);
                // The path can drop its legend to the compact one.
                if (m_chart->isVisible() && dock->isAncestorOf(m_chart))
                    rooms.back().spare += m_chart->compactLegendSaving();
            } else {
                rooms << DockRoom{};
            }
        }
        // The lessons first: the path below them drops its legend to a compact form when short
        // (PrivacyLossPathChart), and so needs less than it asks for now.
        QList<int> order;
        if (lessons >= 0)
            order << lessons;
        for (int i = 0; i < rooms.size(); ++i)
            if (i != lessons)
                order << i;
        bool changed = false;
        for (int i : std::as_const(order)) {
            for (int j = 0; j < rooms.size() && rooms[i].missing > 0; ++j) {
                const int give = j == i ? 0 : std::min(rooms[i].missing, rooms[j].spare);
                if (give <= 0)
                    continue;
                heights[i] += give;
                heights[j] -= give;
                rooms[i].missing -= give;
                rooms[j].spare -= give;
                changed = true;
            }
        }
        // Still short: the privacy settings, the form the user acts on, take what they need from
        // the dataset's reference text or a chart beside them, and the dataset from a chart, which
        // then scroll (in presentation mode's one column at 1024×708 the path yields while the
        // settings are in front, and is whole again when the budget or the lessons are; at
        // 1024×700 the dataset yields to the seed's row).
        const auto yields = [this](const QDockWidget *to, const QDockWidget *from) {
            const bool chart = from->isAncestorOf(m_chart) || from == m_noiseReductionDock;
            return to->objectName() == QLatin1String("sessionDock")
                       ? chart || from->objectName() == QLatin1String("datasetDock")
                       : to->objectName() == QLatin1String("datasetDock") && chart;
        };
        for (int i = 0; i < rooms.size(); ++i) {
            for (int j = 0; j < rooms.size() && rooms[i].missing > 0; ++j) {
                const int give = j != i && yields(column[i], column[j])
                                     ? std::min(rooms[i].missing, heights[j] - kYieldingHeight)
                                     : 0;
                if (give <= 0)
                    continue;
                heights[i] += give;
                heights[j] -= give;
                rooms[i].missing -= give;
                changed = true;
            }
        }
        // The lessons' rows before the privacy settings beside them, which then scroll, where
        // the column holds both no more (the unified filter's settings in presentation mode at
        // 1920×1020 need 572 px; the list had one row).
        for (int j = 0; lessons >= 0 && j < rooms.size() && rooms[lessons].missing > 0; ++j) {
            const int give = column[j]->objectName() == QLatin1String("sessionDock")
                                 ? std::min(rooms[lessons].missing, heights[j] - kYieldingHeight)
                                 : 0;
            if (give <= 0)
                continue;
            heights[lessons] += give;
            heights[j] -= give;
            rooms[lessons].missing -= give;
            rooms[j].missing += give;
            changed = true;
        }
        if (lessons >= 0 && std::any_of(rooms.cbegin(), rooms.cend(), [](const DockRoom &room) {
                return room.missing > 0;
            }))
            lessonsShort = true;
        if (changed) {
            resizeDocks(column, heights, Qt::Vertical);
            moved = true;
        }
    }
    // A column too short even so, for the lessons' rows or a dock beside them (the privacy
    // settings at 1024×708): the lessons' introduction gives way (it says what the lessons are;
    // the list names them). It comes back once the dock has its room.
    if (QLabel *intro = m_lessons ? m_lessons->introduction() : nullptr;
        intro && m_lessons->lessonList()->isVisible()) {
        const int introHeight
            = intro->heightForWidth(intro->width() > 0 ? intro->width() : m_lessons->width())
              + m_lessons->lessonList()->parentWidget()->layout()->spacing();
        if (lessonsShort && intro->isVisible()) {
            intro->hide();
            moved = true;
        } else if (!lessonsShort && intro->isHidden() && m_lessonsDock->isVisible()
                   && lessonsRoom(m_lessonsDock, m_lessons, kLessonRows).spare >= introHeight) {
            intro->show();
            moved = true;
        }
    }
    // Once the layout has drawn the new sizes, again: the path's legend, the lessons' labels.
    if (moved && m_dockHeightFitRounds < 4) {
        ++m_dockHeightFitRounds;
        scheduleDockHeightFit();
    } else {
        m_dockHeightFitRounds = 0;
    }
}

bool MainWindow::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::LayoutRequest && !qobject_cast<QTabBar *>(watched))
        scheduleDockHeightFit(); // a dock's content asks for another size
    auto *bar = qobject_cast<QTabBar *>(watched);
    if (bar && event->type() == QEvent::ToolTip) {
        const auto *help = static_cast<QHelpEvent *>(event);
        const int index = bar->tabAt(help->pos());
        for (QDockWidget *dock : findChildren<QDockWidget *>(Qt::FindDirectChildrenOnly))
            if (index >= 0 && !dock->isFloating() && dock->windowTitle() == bar->tabText(index)) {
                QToolTip::showText(help->globalPos(), dockTitles(dock).full, bar, bar->tabRect(index));
                return true;
            }
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    if (!m_frameFitted) {
        // The frame (title bar, borders) is known once the window is shown: keep the first size's
        // frame on screen. A size set since (a restored layout, a caller's resize) is left alone.
        m_frameFitted = true;
        if (size() == m_firstSize)
            fitFrameOnceShown(this);
    }
    if (!m_docksSized) {
        m_docksSized = true;
        applyDefaultDockSizes();
    }
    updateProjectorLayout();
    scheduleDockTitleFit();
    scheduleDockHeightFit();
}

void MainWindow::createActions()
{
    m_newSessionAction = new QAction(tr("&New session"), this);
    m_newSessionAction->setShortcut(QKeySequence::New);
    m_newSessionAction->setStatusTip(tr("Start again with a fresh budget and an empty ledger"));
    connect(m_newSessionAction, &QAction::triggered, this, &MainWindow::newSessionInteractive);

    m_openDatasetAction = new QAction(tr("Open &dataset (CSV, SQLite, PostgreSQL)…"), this);
    m_openDatasetAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    m_openDatasetAction->setStatusTip(
        tr("Open a CSV file, an SQLite table or a PostgreSQL table and start a new session on it"));
    connect(m_openDatasetAction, &QAction::triggered, this, &MainWindow::openDatasetInteractive);

    m_openSessionAction = new QAction(tr("&Open session…"), this);
    m_openSessionAction->setShortcut(QKeySequence::Open);
    m_openSessionAction->setStatusTip(tr("Open a saved session transcript (JSON)"));
    connect(m_openSessionAction, &QAction::triggered, this, &MainWindow::openSessionInteractive);

    m_saveAction = new QAction(tr("&Save session"), this);
    m_saveAction->setShortcut(QKeySequence::Save);
    m_saveAction->setStatusTip(tr("Save the session transcript (JSON)"));
    connect(m_saveAction, &QAction::triggered, this, &MainWindow::save);

    m_saveAsAction = new QAction(tr("Save session &as / export transcript JSON…"), this);
    m_saveAsAction->setShortcut(QKeySequence::SaveAs);
    connect(m_saveAsAction, &QAction::triggered, this, &MainWindow::saveAs);

    m_exportCsvAction = new QAction(tr("Export ledger as &CSV…"), this);
    m_exportCsvAction->setStatusTip(tr("One row per request, for spreadsheets"));
    connect(m_exportCsvAction, &QAction::triggered, this, &MainWindow::exportCsvInteractive);

    m_exportReportAction = new QAction(tr("Export &report…"), this);
    m_exportReportAction->setObjectName(QStringLiteral("exportReportAction"));
    m_exportReportAction->setStatusTip(tr("The session report: dataset, budget, every request, charts and "
                                          "how the numbers were made, as HTML or PDF"));
    connect(m_exportReportAction, &QAction::triggered, this, &MainWindow::exportReportInteractive);

    m_quitAction = new QAction(tr("&Quit"), this);
    m_quitAction->setShortcut(QKeySequence::Quit);
    m_quitAction->setMenuRole(QAction::QuitRole);
    connect(m_quitAction, &QAction::triggered, this, &QWidget::close);

    m_askAction = new QAction(tr("&Ask"), this);
    m_askAction->setObjectName(QStringLiteral("askAction"));
    m_askAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
    m_askAction->setStatusTip(tr("Release a noisy answer to the query in the builder"));
    connect(m_askAction, &QAction::triggered, this, &MainWindow::askInteractive);
    addAction(m_askAction);

    m_privacyRiskAction = new QAction(tr("Privacy &risk…"), this);
    m_privacyRiskAction->setStatusTip(
        tr("What the session's (ε, δ) means for one person: the best membership "
           "test and the largest posterior belief"));
    connect(m_privacyRiskAction, &QAction::triggered, this, &MainWindow::showPrivacyRisk);
    m_glossaryAction = new QAction(tr("&Glossary"), this);
    m_glossaryAction->setShortcut(QKeySequence::HelpContents);
    m_glossaryAction->setStatusTip(
        tr("ε, δ, ρ, PLD, filter, ex-post, noise reduction… explained, with sources"));
    connect(m_glossaryAction, &QAction::triggered, this,
            [this] { openGlossaryLink(QStringLiteral("glossary:dp"), this); });
    m_aboutAction = new QAction(tr("&About Privacy Budget Explorer"), this);
    m_aboutAction->setMenuRole(QAction::AboutRole);
    connect(m_aboutAction, &QAction::triggered, this, &MainWindow::about);

    m_labAction = new QAction(tr("&Relative-error lab…"), this);
    m_labAction->setStatusTip(tr("Simulate how many counts each method answers within a relative "
                                 "error under one budget, on this dataset"));
    connect(m_labAction, &QAction::triggered, this, [this] {
        LabDialog *lab = relativeErrorLab();
        lab->show();
        lab->raise();
        lab->activateWindow();
    });
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    m_fileMenu = file;
    file->addAction(m_newSessionAction);
    file->addSeparator();
    file->addAction(m_openDatasetAction);
    QMenu *embedded = file->addMenu(tr("Open &embedded dataset"));
    for (const auto &name : resources::embeddedDatasetNames()) {
        const QString qname = toQString(name);
        QAction *action = embedded->addAction(qname);
        connect(action, &QAction::triggered, this, [this, qname] { openEmbeddedDatasetInteractive(qname); });
    }
    file->addAction(m_openSessionAction);
    m_recentMenu = file->addMenu(tr("Open &recent"));
    m_recentMenu->setObjectName(QStringLiteral("recentSessionsMenu"));
    // Filled when it opens, so start-up reads no settings and checks no files for it.
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::rebuildRecentSessionsMenu);
    // File ▸ Import CSV: declare a CSV file's public facts in its metadata sidecar, then maybe open it.
    QAction *importCsv = file->addAction(tr("&Import CSV…"), this, [this] {
        const QString csv = importCsvInteractive(this, AppSettings::startFolder());
        if (csv.isEmpty() || !maybeSave(tr("open another dataset")))
            return;
        AppSettings::setLastFolderFrom(csv);
        if (auto opened = openDataset(csv); !opened.ok())
            showError(tr("Open dataset"), errorText(opened.error()));
    });
    importCsv->setObjectName(QStringLiteral("importCsvAction"));
    importCsv->setStatusTip(
        tr("Declare a CSV file's column types, bounds and categories, and write its metadata"));
    file->addSeparator();
    file->addAction(m_saveAction);
    file->addAction(m_saveAsAction);
    file->addAction(m_exportCsvAction);
    file->addAction(m_exportReportAction);
    file->addSeparator();
    file->addAction(m_quitAction);

    QMenu *query = menuBar()->addMenu(tr("&Query"));
    m_queryMenu = query;
    query->addAction(m_askAction);
    query->addAction(tr("&Confirm expensive requests…"), this, &MainWindow::setConfirmCostShareInteractive);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    for (QDockWidget *dock : std::as_const(m_docks))
        view->addAction(dock->toggleViewAction());
    view->addAction(m_noiseReductionDock->toggleViewAction());
    view->addSeparator();
    view->addAction(m_comparisonDock->toggleViewAction());
    view->addAction(m_privacyRiskAction);
    view->addSeparator();
    // Larger fonts and lines everywhere, for a projector; remembered between runs.
    QAction *presentation = view->addAction(tr("&Presentation mode"));
    presentation->setObjectName(QStringLiteral("presentationModeAction"));
    presentation->setCheckable(true);
    presentation->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    presentation->setStatusTip(tr("Larger text and thicker chart lines, for a projector"));
    presentation->setChecked(AppSettings::presentationMode());
    Presentation::instance().setEnabled(presentation->isChecked());
    connect(presentation, &QAction::toggled, this, [this](bool on) {
        AppSettings::setPresentationMode(on);
        // The larger text needs the room: a window smaller than its screen (1400×900 on 1920×1080,
        // where the lessons and the privacy settings did not fit their column) grows to the
        // screen's available area, and gets its size back when the mode is switched off (unless
        // it was resized meanwhile).
        if (on && isVisible() && !isMaximized() && !isFullScreen()) {
            // Grown only: a window larger than its screen in either direction (a test's) keeps its size.
            const QSize before = size();
            QSize grown = kPresentationSize;
            if (const QScreen *shown = screen())
                grown
                    = grown.boundedTo(shown->availableGeometry().size() - (frameGeometry().size() - before));
            if (grown.expandedTo(before) == grown && grown != before) {
                resize(grown);
                m_sizeBeforePresentation = before;
                m_presentationSize = size();
                fitFrameInsideScreen(this);
            }
        } else if (!on && m_sizeBeforePresentation.isValid()) {
            if (size() == m_presentationSize && !isMaximized() && !isFullScreen())
                resize(m_sizeBeforePresentation);
            m_sizeBeforePresentation = QSize();
        }
        Presentation::instance().setEnabled(on);
        if (!m_oneDockColumn && isVisible()) // the columns' widths for the mode (applyDefaultDockSizes)
            applyDefaultDockSizes();
        updateProjectorLayout();
        scheduleDockTitleFit();
        scheduleDockHeightFit();
    });

    QMenu *labs = menuBar()->addMenu(tr("&Labs"));
    labs->addAction(m_labAction);
    labs->addAction(tr("&Output DP…"), this, [this] {
        OdpLabDialog *lab = odpLab();
        lab->show();
        lab->raise();
    });
    labs->addAction(tr("&Growing database…"), this, [this] {
        GrowingLabDialog *lab = growingLab();
        lab->show();
        lab->raise();
    });
    installStrategyMenus(this, query, labs, m_document);
    installOdpMenus(this, query, m_document);
    installGrowingMenus(this, query, m_document);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *lessons = help->addAction(tr("&Lessons…"), this, &MainWindow::showLessons);
    lessons->setObjectName(QStringLiteral("lessonsAction"));
    lessons->setStatusTip(
        tr("Guided lessons: each step sets the app up, asks a question and reveals the answer"));
    help->addAction(m_glossaryAction);
    help->addSeparator();
    help->addAction(m_aboutAction);
}

LessonsPanel *MainWindow::showLessons()
{
    if (!m_lessons) {
        // Beside the dataset and privacy settings, as a tab: the lesson text needs the height.
        m_lessonsDock = new ScaledTitleDock(tr("Lessons"), this);
        m_lessonsDock->setObjectName(QStringLiteral("lessonsDock"));
        m_lessonsDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable
                                   | QDockWidget::DockWidgetClosable);
        auto *frame = new QWidget(m_lessonsDock);
        auto *layout = new QVBoxLayout(frame);
        // (4 px below, not 8: the tab bar's edge is there; at 1024×708 in presentation mode the
        // list's fourth row needed those pixels)
        layout->setContentsMargins(8, 2, 8, 4);
        m_lessons = new LessonsPanel(this, frame);
        layout->addWidget(m_lessons);
        m_lessonsDock->setWidget(frame);
        frame->installEventFilter(this);
        addDockWidget(Qt::LeftDockWidgetArea, m_lessonsDock);
        for (auto fit : {&MainWindow::scheduleDockTitleFit, &MainWindow::scheduleDockHeightFit})
            connect(m_lessonsDock, &QDockWidget::dockLocationChanged, this, fit);
        connect(m_lessonsDock, &QDockWidget::visibilityChanged, this, &MainWindow::scheduleDockHeightFit);
        // In the one-column projector layout beside the gauge (updateProjectorLayout).
        if (QDockWidget *beside = m_docks.value(m_oneDockColumn ? 2 : 0))
            tabifyDockWidget(beside, m_lessonsDock);
        // Closing the dock ends a running lesson (and puts the user's session back).
        connect(m_lessonsDock->toggleViewAction(), &QAction::toggled, m_lessons, [this](bool open) {
            if (!open)
                m_lessons->endLesson();
        });
    }
    m_lessonsDock->show();
    m_lessonsDock->raise();
    // Most of the left column's height for the lesson text; the privacy settings stay visible.
    if (QDockWidget *sessionDock = m_docks.value(1);
        sessionDock && !m_lessonsDock->isFloating() && !m_oneDockColumn)
        resizeDocks({m_lessonsDock, sessionDock}, {height() * 2 / 3, height() / 3}, Qt::Vertical);
    if (m_oneDockColumn)
        giveLessonsTheirHeight();
    scheduleDockTitleFit();
    scheduleDockHeightFit();
    return m_lessons;
}

void MainWindow::giveLessonsTheirHeight()
{
    // In the one-column projector layout the lessons share the upper tab group with the gauge:
    // more than half the column's height, so their list, text and buttons are not squeezed over
    // one another (at 1024×768 the group had ~250 px); the chart a step raises keeps the rest.
    if (QDockWidget *chartDock = m_docks.value(3); chartDock && m_lessonsDock && !m_lessonsDock->isFloating())
        resizeDocks({m_lessonsDock, chartDock}, {height() * 3 / 5, height() * 2 / 5}, Qt::Vertical);
}

PrivacyRiskView *MainWindow::showPrivacyRisk()
{
    auto *view = findChild<PrivacyRiskView *>();
    if (!view)
        view = new PrivacyRiskView(this);
    // The session's guarantee is its filter's budget (ε, δ): that is what it promises a person.
    const auto settings = m_document->hasSession() ? m_document->settings() : m_sessionPanel->settings();
    view->setGuarantee(settings.epsilon, settings.delta);
    view->show();
    view->raise();
    return view;
}

Result<void> MainWindow::openDataset(const QString &nameOrPath, const QString &metadataPath)
{
    if (const QString busy = m_document->busyReason(); !busy.isEmpty()) // nothing is loaded meanwhile
        return makeError(ErrorCode::InvalidArgument, busy.toStdString());
    PBX_TRY(source, SessionDocument::loadSource(nameOrPath, metadataPath));
    std::shared_ptr<const data::Source> shared = std::move(source);
    auto settings = m_sessionPanel->settings();
    if (!settings.validate().ok()) // the panel holds invalid input: use the session's settings
        settings = m_document->settings();
    auto started = m_document->start(std::move(shared), nameOrPath, settings);
    if (started.ok() && metadataPath.isEmpty()) // a database's metadata is not remembered with it
        AppSettings::setLastDataset(nameOrPath);
    return started;
}

Result<void> MainWindow::openSessionFile(const QString &path)
{
    auto opened = m_document->openTranscript(path);
    if (opened.ok()) {
        AppSettings::addRecentSession(path);
        AppSettings::setLastFolderFrom(path);
    }
    // A recovered journal says what it dropped (a torn last line that was never shown).
    if (opened.ok() && !m_document->openNote().isEmpty())
        statusBar()->showMessage(m_document->openNote(), 15000);
    return opened;
}

Result<void> MainWindow::saveSessionTo(const QString &path)
{
    auto saved = m_document->saveTranscript(path);
    if (saved.ok()) {
        AppSettings::addRecentSession(path);
        AppSettings::setLastFolderFrom(path);
    }
    return saved;
}

Result<void> MainWindow::exportCsvTo(const QString &path)
{
    return m_document->exportCsv(path);
}

Result<void> MainWindow::exportReportTo(const QString &path)
{
    if (!m_document->hasSession())
        return makeError(ErrorCode::InvalidArgument, "no session is open: there is nothing to report");
    return exportSessionReport(m_document->session(), m_document->filePath(), path, this);
}

Result<void> MainWindow::startNewSession(const session::SessionSettings &settings)
{
    return m_document->restart(settings);
}

bool MainWindow::rememberLayout()
{
    m_remembersLayout = true;
    const bool restored = AppSettings::restoreWindowLayout(*this);
    if (restored)
        m_docksSized = true; // the restored dock sizes win over the defaults applied at first show
    return restored;
}

void MainWindow::flushViews()
{
    m_chart->flush();
    m_noiseReduction->flush();
}

LabDialog *MainWindow::relativeErrorLab()
{
    if (!m_lab) {
        m_lab = new LabDialog(this);
        m_lab->setSource(m_document->hasSession() ? m_document->session().sharedSource() : nullptr,
                         m_document->settings().split);
    }
    return m_lab;
}

OdpLabDialog *MainWindow::odpLab()
{
    auto *lab = findChild<OdpLabDialog *>(QString(), Qt::FindDirectChildrenOnly);
    return lab ? lab : new OdpLabDialog(this);
}

GrowingLabDialog *MainWindow::growingLab()
{
    auto *lab = findChild<GrowingLabDialog *>(QString(), Qt::FindDirectChildrenOnly);
    return lab ? lab : new GrowingLabDialog(this);
}

StrategiesLabDialog *MainWindow::strategiesLab()
{
    return pbx::ui::strategiesLab(this, m_document);
}

void MainWindow::applyBudgetSystems(const session::Session *session)
{
    const bool unified = session && session->filter().kind() == filters::FilterKind::Unified;
    const auto systems = session ? session->filter().systems() : std::vector<filters::BudgetSystem>{};
    if (unified && systems.size() >= 2) {
        m_gauge->setSecondSystem(tr("zCDP side"), tr("ex-post side"), systems[1].budget,
                                 toQString(systems[1].unitSymbol));
        m_gauge->setSecondSpent(systems[1].spent);
        m_chart->setExPostBudget(systems[1].budget);
    } else {
        m_gauge->clearSecondSystem();
        m_chart->setExPostBudget(0.0);
    }
    // The unified filter's ex-post column is one more that gives way where there is no room (the
    // ledger scrolled sideways over 89 px at 1024×768, 29 in presentation mode at 1920×1080).
    if (auto *fitter = m_ledgerView->findChild<ColumnFitter *>())
        fitter->setColumnHidden(LedgerModel::ExPostSpent, !unified);
    else
        m_ledgerView->setColumnHidden(LedgerModel::ExPostSpent, !unified);
    updateGaugeNote(session);
}

namespace {
/// An odometer session's pre-planned ledger ε (OdometerFilter::preplannedEpsilon); 0 for a filter.
double preplannedEpsilon(const filters::PrivacyFilter &filter)
{
    const auto *odometer = dynamic_cast<const filters::OdometerFilter *>(&filter);
    return odometer ? odometer->preplannedEpsilon() : 0.0;
}
} // namespace

void MainWindow::showSpend(const filters::PrivacyFilter &filter)
{
    m_gauge->setSpent(filter.spent(), filter.epsilonSpent());
    m_gauge->setPreplanned(preplannedEpsilon(filter));
}

void MainWindow::updateGaugeNote(const session::Session *session)
{
    const auto kind = session ? session->filter().kind() : filters::FilterKind::Basic;
    if (session && kind == filters::FilterKind::ExPost)
        m_gauge->setNote(tr("ex-post ε (δ = %1 for Brownian runs)")
                             .arg(formatNumber(session->filter().expostDeltaBudget(), 2)));
    else if (session && kind == filters::FilterKind::Odp)
        // The odp filter debits an admitted mechanism's δ in full (Theorem 7), so δ is spent, not unused.
        m_gauge->setNote(tr("δ debited %1 of %2")
                             .arg(formatNumber(session->filter().deltaSpent(), 2),
                                  formatNumber(session->filter().deltaBudget(), 2)));
    else
        m_gauge->setNote(QString());
}

bool MainWindow::commitTypedQuery()
{
    // The session's budget first (an unlocked panel restarts the empty session with it), then the
    // query.
    QString refusal = m_sessionPanel->commitTypedInput();
    if (refusal.isEmpty())
        refusal = m_queryBuilder->commitTypedInput();
    if (refusal.isEmpty())
        return true;
    m_confirmationPending = false;
    m_queryBuilder->setAskConfirmation({});
    m_resultCard->showError(refusal);
    revealResultCard();
    statusBar()->showMessage(tr("Nothing spent: a field's text is not a value it accepts"), 5000);
    return false;
}

void MainWindow::askInteractive()
{
    if (!m_document->hasSession())
        return;
    if (const QString busy = m_document->busyReason(); !busy.isEmpty()) {
        statusBar()->showMessage(tr("Not asked: %1").arg(busy), 5000);
        return;
    }
    // Ctrl+Return reads the fields without committing them: commit what is typed first, so the
    // confirmation below and the request are about what the screen shows.
    if (!commitTypedQuery())
        return;
    if (!m_confirmationPending && m_queryBuilder->validationError().isEmpty()) {
        // The confirmation needs the cost, and the cost a public table's row count: never counted
        // on the GUI thread. Ask comes back here once it is known (publicRowCountSettled).
        if (m_document->publicRowCountState() == SessionDocument::RowCount::Failed)
            m_document->forgetRowCountFailure(); // Ask tries the count once more
        if (m_document->publicRowCountState() == SessionDocument::RowCount::Counting) {
            m_askWhenCounted = true;
            m_queryBuilder->setCostPreview(tr("Cost: counting the table's rows first…"));
            statusBar()->showMessage(
                tr("Counting the table's rows first: the request is asked once its cost is known (an edit "
                   "withdraws it)"),
                5000);
            return;
        }
        const auto request
            = session::withPlannedCap(m_queryBuilder->request(), m_document->session().filter(),
                                      static_cast<std::size_t>(m_queryBuilder->plannedQueries()));
        const auto preview = session::previewCost(m_document->session(), request);
        const double threshold = AppSettings::confirmCostShare();
        // Above 100 % Ask refuses and says what the budget can buy: nothing to confirm.
        if (preview && threshold < 1.0 && preview->shareOfRemaining > threshold
            && preview->shareOfRemaining <= 1.0) {
            m_confirmationPending = true;
            m_queryBuilder->setAskConfirmation(tr("Confirm"));
            m_queryBuilder->setCostPreview(
                tr("This request %1. That is more than the %2 of what remains you asked to confirm "
                   "(Query ▸ Confirm expensive requests): press Confirm to spend it, or change the "
                   "request.")
                    .arg(costPreviewText(*preview), formatPercent(threshold)));
            statusBar()->showMessage(tr("Nothing spent yet: confirm with Ask"), 5000);
            return;
        }
    }
    ask();
}

void MainWindow::setConfirmCostShareInteractive()
{
    bool ok = false;
    const int percent = QInputDialog::getInt(
        this, tr("Confirm expensive requests"),
        tr("Ask for confirmation when one request would spend more than this share of the remaining "
           "budget (100 %: never ask):"),
        static_cast<int>(std::lround(AppSettings::confirmCostShare() * 100.0)), 1, 100, 5, &ok);
    if (ok)
        AppSettings::setConfirmCostShare(percent / 100.0);
}

void MainWindow::ask()
{
    if (!m_document->hasSession() || !commitTypedQuery())
        return;
    if (const QString busy = m_document->busyReason(); !busy.isEmpty()) {
        statusBar()->showMessage(tr("Not asked: %1").arg(busy), 5000);
        return;
    }
    m_confirmationPending = false;
    m_queryBuilder->setAskConfirmation({});
    // Workload-aware default cap: remaining / "plan for N more queries".
    const int before = m_document->eventCount();
    auto started = m_document->startAsk(
        session::withPlannedCap(m_queryBuilder->request(), m_document->session().filter(),
                                static_cast<std::size_t>(m_queryBuilder->plannedQueries())),
        [this, before](const Result<session::LedgerEvent> &event, bool cancelled) {
            showAskOutcome(event, cancelled, before);
        });
    if (!started.ok()) {
        m_resultCard->showError(errorText(started.error()));
        statusBar()->showMessage(tr("Invalid request: nothing was recorded"), 5000);
        Q_EMIT askFinished();
    }
}

void MainWindow::cancelAsk()
{
    if (!m_document->isAsking())
        return;
    m_document->cancelAsk();
    m_cancelPressed = true;
    m_resultCard->showCancelling();
    statusBar()->showMessage(tr("Cancelling: the database statement is being stopped…"));
}

void MainWindow::onAskingChanged(bool asking)
{
    m_queryBuilder->setAsking(asking);
    m_sessionPanel->setEnabled(!asking);
    if (m_lessons)
        m_lessons->setEnabled(!asking);
    if (!asking) {
        for (const QPointer<QAction> &action : std::as_const(m_busyActions))
            if (action)
                action->setEnabled(true);
        m_busyActions.clear();
        // A request dialog's request: its dialog shows the answer, the status bar an error; the
        // card says what became of it.
        if (m_resultCard->state() == ResultCard::State::Asking && m_document->hasSession()) {
            const auto &session = m_document->session();
            if (m_document->eventCount() > m_eventsBeforeAsk) {
                m_resultCard->showError(tr("The request was charged, but its answer is withheld: the journal "
                                           "could not be written"),
                                        true);
                showSpend(session.filter());
            } else if (m_cancelPressed) {
                m_resultCard->showCancelled(
                    tr("The request was stopped before its answer was computed: "
                       "nothing was charged or recorded, and the budget is as it was."));
            } else {
                m_resultCard->showError(statusBar()->currentMessage());
            }
        }
        return;
    }
    m_eventsBeforeAsk = m_document->eventCount();
    m_cancelPressed = false;
    // Nothing else asks or changes the session meanwhile (the document refuses it too): File and
    // Query menus (Quit stays: closing cancels the request and keeps its record), the lessons.
    QList<QAction *> actions = m_fileMenu->actions() + m_queryMenu->actions();
    if (QAction *lessons = findChild<QAction *>(QStringLiteral("lessonsAction")))
        actions << lessons;
    for (QAction *action : std::as_const(actions))
        if (action != m_quitAction && !action->isSeparator() && action->isEnabled()) {
            action->setEnabled(false);
            m_busyActions << action;
        }
    m_resultCard->showAsking(m_document->dataSource() ? toQString(m_document->dataSource()->location())
                                                      : QString());
    statusBar()->showMessage(tr("Asking the database… (Cancel in the result card stops it)"));
}

void MainWindow::showAskOutcome(const Result<session::LedgerEvent> &event, bool cancelled, int before)
{
    updatePlannedCapPreview();
    const bool recorded = m_document->eventCount() > before;
    if (event.ok()) {
        // The event is shown (eventAppended); a cancel that came after the charge changes nothing.
        if (cancelled)
            statusBar()->showMessage(tr("Too late to cancel: %1 was charged before the cancel reached it; it "
                                        "is spent and recorded")
                                         .arg(toQString(event->request.id)),
                                     8000);
        Q_EMIT askFinished();
        return;
    }
    if (!recorded && event.error().code == ErrorCode::Cancelled) {
        m_resultCard->showCancelled(
            tr("%1. Stopped before the charge: nothing was charged or recorded, and the budget is as "
               "it was.")
                .arg(errorText(event.error())));
        statusBar()->showMessage(tr("Cancelled: nothing was spent"), 5000);
        Q_EMIT askFinished();
        return;
    }
    const bool withheld = recorded && !m_document->isOnDisk();
    m_resultCard->showError(errorText(event.error()), withheld);
    revealResultCard();
    if (withheld) // the spend is shown at once, never under-reported; the answer is not
        showSpend(m_document->session().filter());
    statusBar()->showMessage(withheld ? tr("Answer withheld: it is spent, and written to the journal before "
                                           "the next request")
                                      : tr("Invalid request: nothing was recorded"),
                             5000);
    Q_EMIT askFinished();
}

void MainWindow::updatePlannedCapPreview()
{
    // Any edit withdraws a pending confirmation, and an Ask waiting for the row count: what was
    // confirmed or asked is no longer what is on screen.
    m_confirmationPending = false;
    m_askWhenCounted = false;
    m_queryBuilder->setAskConfirmation({});
    updateCostPreview();
    if (!m_document->hasSession()) {
        m_queryBuilder->setPlannedCapPreview({});
        return;
    }
    const auto request = m_queryBuilder->request();
    if (request.maxCost) {
        m_queryBuilder->setPlannedCapPreview(tr("· cap set by hand"));
        return;
    }
    if (m_document->settings().filter == filters::FilterKind::Unified
        && m_queryBuilder->effectiveMechanism() == session::ReleaseMethod::Brownian) {
        m_queryBuilder->setPlannedCapPreview(
            tr("· cap: remaining ÷ %1 per side").arg(m_queryBuilder->plannedQueries()));
        return;
    }
    const auto cap = session::plannedCap(m_document->session().filter(), request,
                                         static_cast<std::size_t>(m_queryBuilder->plannedQueries()));
    m_queryBuilder->setPlannedCapPreview(
        cap ? tr("· cap %1 ≤ %2").arg(m_queryBuilder->capUnit(), formatNumber(*cap, 3))
            : tr("· no default cap"));
}

void MainWindow::updateCostPreview()
{
    if (!m_document->hasSession() || !m_queryBuilder->validationError().isEmpty()) {
        m_queryBuilder->setCostPreview({});
        return;
    }
    // A public table's row count is counted off the GUI thread first (publicRowCountSettled
    // comes back here); a failed count is the line Ask would refuse with.
    switch (m_document->publicRowCountState()) {
    case SessionDocument::RowCount::Counting:
        m_queryBuilder->setCostPreview(tr("Cost: counting the table's rows first…"));
        return;
    case SessionDocument::RowCount::Failed:
        m_queryBuilder->setCostPreview(tr("It will be refused: %1").arg(m_document->rowCountFailure()));
        return;
    case SessionDocument::RowCount::Known:
        break;
    }
    // The request exactly as ask() will send it (with its workload-aware default cap).
    const auto request = session::withPlannedCap(m_queryBuilder->request(), m_document->session().filter(),
                                                 static_cast<std::size_t>(m_queryBuilder->plannedQueries()));
    const auto preview = session::previewCost(m_document->session(), request);
    // What Ask would refuse is said here first, with the core's line (e.g. no declared row count).
    m_queryBuilder->setCostPreview(
        preview ? tr("This request %1.").arg(costPreviewText(*preview))
                : tr("It will be refused: %1").arg(toQString(preview.error().message)));
}

void MainWindow::onSessionReset()
{
    const bool has = m_document->hasSession();
    const session::Session *session = has ? &m_document->session() : nullptr;
    m_datasetPanel->setSource(m_document->dataSource(), m_document->datasetSource());
    m_sessionPanel->setSettings(m_document->settings());
    m_sessionPanel->setSession(session);
    m_sessionPanel->setError({});
    m_queryBuilder->setTable(m_document->table());

    m_attempts->setEvent(nullptr, QStringLiteral("ε"));
    m_noiseReduction->setEvent(nullptr, m_document->settings().filter);
    m_queryBuilder->setFilterKind(m_document->settings().filter);
    updatePlannedCapPreview();
    if (m_lab)
        m_lab->setSource(m_document->hasSession() ? m_document->session().sharedSource() : nullptr,
                         m_document->settings().split);
    if (!session) {
        m_ledgerModel->clear();
        m_resultCard->clear();
        m_gauge->setBudget(1.0, QStringLiteral("ε"), 1.0, 0.0);
        m_gauge->setSpent(0.0, 0.0);
        m_gauge->setPreplanned(0.0);
        m_chart->setBudget(1.0, 1.0, QStringLiteral("ε"), 0.0);
        m_chart->setPath({});
    } else {
        const auto &filter = session->filter();
        const QString unit = toQString(filter.unitSymbol());
        m_queryBuilder->setUnitSymbol(unit);
        m_ledgerModel->setUnitSymbol(unit);
        m_ledgerModel->setEvents(session->events());
        m_attempts->setEvent(nullptr, unit);
        m_gauge->setBudget(filter.budget(), unit, filter.epsilonBudget(), filter.deltaBudget());
        showSpend(filter);
        m_chart->setBudget(filter.epsilonBudget(), filter.budget(), unit, filter.deltaBudget());
        // An odometer session: what a ledger planned in advance would have cost, after each event.
        const auto preplanned = filter.kind() == filters::FilterKind::Odometer
                                    ? session::preplannedEpsilonPath(session->events(), filter.deltaBudget())
                                    : std::vector<double>();
        std::vector<PrivacyLossPathChart::PathPoint> points;
        points.reserve(session->events().size());
        for (std::size_t i = 0; i < session->events().size(); ++i) {
            const auto &event = session->events()[i];
            points.push_back({event.epsilonSpentAfter, event.spentAfter,
                              event.status == session::EventStatus::Refused, event.expostSpentAfter,
                              i < preplanned.size() ? preplanned[i] : 0.0});
        }
        m_chart->setPath(points);
        if (session->events().empty()) {
            m_resultCard->clear();
        } else {
            // An opened transcript shows where it left off: its last request.
            m_resultCard->showLedgerEvent(session->events().back(), filter);
            m_ledgerView->selectRow(m_ledgerModel->rowCount() - 1);
            m_ledgerView->scrollToBottom();
        }
    }
    applyBudgetSystems(session);
    const bool hasSession = session != nullptr;
    for (QAction *action : {m_newSessionAction, m_saveAction, m_saveAsAction, m_exportCsvAction,
                            m_exportReportAction, m_askAction})
        action->setEnabled(hasSession);
    updateTitle();
    updateModeStatus();
}

void MainWindow::onEventAppended(int index)
{
    const auto &session = m_document->session();
    const auto &event = session.events().at(static_cast<std::size_t>(index));
    const auto &filter = session.filter();
    m_ledgerModel->appendEvent(event);
    showSpend(filter);
    m_chart->appendPoint({event.epsilonSpentAfter, event.spentAfter,
                          event.status == session::EventStatus::Refused, event.expostSpentAfter,
                          preplannedEpsilon(filter)});
    if (m_gauge->hasSecondSystem())
        m_gauge->setSecondSpent(event.expostSpentAfter);
    updateGaugeNote(&session);
    m_resultCard->showLedgerEvent(event, filter);
    revealResultCard();
    m_sessionPanel->setSession(&session);

    const QModelIndex row = m_ledgerModel->index(index, 0);
    m_ledgerView->scrollTo(row);
    m_ledgerView->selectionModel()->select(row,
                                           QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_ledgerView->selectionModel()->setCurrentIndex(row, QItemSelectionModel::NoUpdate);
    statusBar()->showMessage(
        event.status == session::EventStatus::Refused
            ? tr("%1 refused: %2").arg(toQString(event.request.id), toQString(event.reason))
            : tr("%1 released").arg(toQString(event.request.id)),
        6000);
}

void MainWindow::onSettingsEdited(const session::SessionSettings &settings)
{
    if (!m_document->hasSession() || m_document->hasEvents())
        return;
    if (const QString busy = m_document->busyReason(); !busy.isEmpty()) {
        m_sessionPanel->setError(tr("Not applied: %1").arg(busy));
        return;
    }
    const auto valid = settings.validate();
    if (!valid.ok()) {
        m_sessionPanel->setError(
            tr("Not applied: %1. The session keeps its previous settings.").arg(errorText(valid.error())));
        return;
    }
    auto restarted = m_document->restart(settings);
    if (!restarted.ok())
        m_sessionPanel->setError(tr("Not applied: %1").arg(errorText(restarted.error())));
}

void MainWindow::onLedgerSelectionChanged()
{
    const QModelIndexList rows = m_ledgerView->selectionModel()->selectedRows();
    const auto filter = m_document->settings().filter;
    if (rows.isEmpty()) {
        m_attempts->setEvent(nullptr, m_ledgerModel->unitSymbol());
        m_noiseReduction->setEvent(nullptr, filter);
        return;
    }
    // Attempts are costed in the unit the event was charged in (ρ, ε or ex-post ε).
    const auto &event = m_ledgerModel->event(rows.first().row());
    m_attempts->setEvent(&event, chargeUnit(event.costKind));
    m_noiseReduction->setEvent(&event, filter);
}

void MainWindow::updateTitle()
{
    const QString file = m_document->filePath().isEmpty() ? tr("untitled session")
                                                          : QFileInfo(m_document->filePath()).fileName();
    const QString dataset = m_document->table() ? toQString(m_document->table()->name()) : tr("no dataset");
    setWindowTitle(tr("%1[*] — %2 — Privacy Budget Explorer").arg(file, dataset));
    setWindowModified(m_document->isModified());
}

void MainWindow::updateModeStatus()
{
    if (!m_document->hasSession()) {
        m_modeStatus->setFullText(tr("No session"));
        return;
    }
    const auto &s = m_document->session();
    const auto &filter = s.filter();
    QString text;
    switch (filter.kind()) {
    case filters::FilterKind::Zcdp:
        text = tr("zCDP filter · Gaussian noise · budget ρ = %1 ⇔ ε = %2, δ = %3")
                   .arg(formatNumber(filter.budget()), formatNumber(filter.epsilonBudget()),
                        formatNumber(filter.deltaBudget(), 3));
        break;
    case filters::FilterKind::BrownianZcdp:
        text = tr("zCDP filter · Brownian noise reduction · budget ρ = %1 ⇔ ε = %2, δ = %3")
                   .arg(formatNumber(filter.budget()), formatNumber(filter.epsilonBudget()),
                        formatNumber(filter.deltaBudget(), 3));
        break;
    case filters::FilterKind::ExPost:
        text = tr("Ex-post filter · noise reduction · budget ε = %1").arg(formatNumber(filter.budget()));
        break;
    case filters::FilterKind::Unified: {
        const auto systems = filter.systems();
        text = tr("Unified filter · zCDP ρ = %1 + ex-post ε = %2 · (ε = %3, δ = %4)")
                   .arg(formatNumber(filter.budget()),
                        formatNumber(systems.size() > 1 ? systems[1].budget : 0.0),
                        formatNumber(filter.epsilonBudget()), formatNumber(filter.deltaBudget(), 3));
        break;
    }
    case filters::FilterKind::Basic:
        text = tr("Pure ε filter · Laplace noise · budget ε = %1").arg(formatNumber(filter.budget()));
        break;
    case filters::FilterKind::Odp:
        text = tr("Output-DP filter · budget ε = %1, δ = %2 (spent a posteriori)")
                   .arg(formatNumber(filter.budget()), formatNumber(filter.deltaBudget(), 3));
        break;
    case filters::FilterKind::Rdp:
        text = tr("Rényi filter · 24 orders, δ/24 each · (ε = %1, δ = %2)")
                   .arg(formatNumber(filter.epsilonBudget()), formatNumber(filter.deltaBudget(), 3));
        break;
    case filters::FilterKind::Advanced:
        text = tr("Advanced-composition filter · Laplace noise · budget ρ = %1 for Σε²/2 ⇔ ε = %2, δ = %3")
                   .arg(formatNumber(filter.budget()), formatNumber(filter.epsilonBudget()),
                        formatNumber(filter.deltaBudget(), 3));
        break;
    case filters::FilterKind::Odometer:
        text = tr("Privacy odometer · no ε budget · δ = %1 · ε so far holds whenever you stop")
                   .arg(formatNumber(filter.deltaBudget(), 3));
        break;
    }
    text += s.settings().neighbours == data::Neighbouring::AddRemove ? tr(" · add/remove one row")
                                                                     : tr(" · replace one row");
    if (s.settings().seed)
        text += tr(" · ⚠ seeded noise (seed %1): not for real releases").arg(*s.settings().seed);
    m_modeStatus->setFullText(text);
}

void MainWindow::newSessionInteractive()
{
    if (!m_document->hasSession())
        return;
    if (m_document->hasEvents()) {
        if (m_document->isModified()) {
            if (!maybeSave(tr("start a new session")))
                return;
        } else if (QMessageBox::question(
                       this, tr("New session"),
                       tr("Start a new session with a fresh budget? The current ledger stays "
                          "in %1.")
                           .arg(QFileInfo(m_document->filePath()).fileName()),
                       QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Yes)
                   != QMessageBox::Yes) {
            return;
        }
    }
    auto restarted = m_document->restart(m_document->settings());
    if (!restarted.ok())
        showError(tr("New session"), errorText(restarted.error()));
}

void MainWindow::openDatasetInteractive()
{
    if (!maybeSave(tr("open another dataset")))
        return;
    OpenDatasetDialog dialog(this);
    if (dialog.exec() != QDialog::Accepted || dialog.dataset().isEmpty())
        return;
    if (dialog.kind() == OpenDatasetDialog::Kind::Csv)
        AppSettings::setLastFolderFrom(dialog.dataset());
    auto opened = openDataset(dialog.dataset(), dialog.metadataPath());
    if (!opened.ok())
        showError(tr("Open dataset"), errorText(opened.error()));
}

void MainWindow::openEmbeddedDatasetInteractive(const QString &name)
{
    if (!maybeSave(tr("open another dataset")))
        return;
    auto opened = openDataset(name);
    if (!opened.ok())
        showError(tr("Open dataset"), errorText(opened.error()));
}

void MainWindow::openSessionInteractive()
{
    if (!maybeSave(tr("open another session")))
        return;
    const QString start = m_document->filePath().isEmpty() ? AppSettings::startFolder()
                                                           : QFileInfo(m_document->filePath()).absolutePath();
    const QString path = QFileDialog::getOpenFileName(this, tr("Open session"), start,
                                                      tr("Sessions (*.json *.journal);;All files (*)"));
    if (path.isEmpty())
        return;
    auto opened = openSessionFile(path);
    if (!opened.ok())
        showError(tr("Open session"),
                  tr("The session could not be opened; the current session is unchanged.\n\n%1")
                      .arg(errorText(opened.error())));
}

void MainWindow::openRecentSessionInteractive(const QString &path)
{
    if (!maybeSave(tr("open another session")))
        return;
    auto opened = openSessionFile(path);
    if (!opened.ok()) {
        showError(tr("Open recent session"),
                  tr("%1 could not be opened; the current session is unchanged.\n\n%2")
                      .arg(path, errorText(opened.error())));
    }
}

void MainWindow::rebuildRecentSessionsMenu()
{
    m_recentMenu->clear();
    const QStringList recent = AppSettings::recentSessions();
    for (int i = 0; i < recent.size(); ++i) {
        const QString &path = recent[i];
        // &1 … &9, &0: the usual keyboard accelerators of a recent-files menu.
        const QString label
            = i < 10 ? QStringLiteral("&%1  %2").arg((i + 1) % 10).arg(QFileInfo(path).fileName())
                     : QFileInfo(path).fileName();
        QAction *action = m_recentMenu->addAction(label);
        action->setToolTip(path);
        action->setStatusTip(path);
        action->setData(path);
        connect(action, &QAction::triggered, this, [this, path] { openRecentSessionInteractive(path); });
    }
    if (recent.isEmpty()) {
        m_recentMenu->addAction(tr("No recent sessions"))->setEnabled(false);
        return;
    }
    m_recentMenu->addSeparator();
    connect(m_recentMenu->addAction(tr("&Clear list")), &QAction::triggered, this,
            [] { AppSettings::clearRecentSessions(); });
}

bool MainWindow::save()
{
    if (m_document->filePath().isEmpty())
        return saveAs();
    auto saved = saveSessionTo(m_document->filePath());
    if (!saved.ok()) {
        showError(tr("Save session"), errorText(saved.error()));
        return false;
    }
    statusBar()->showMessage(tr("Saved %1").arg(m_document->filePath()), 4000);
    return true;
}

bool MainWindow::saveAs()
{
    if (!m_document->hasSession())
        return false;
    QString suggestion = m_document->filePath();
    if (suggestion.isEmpty())
        suggestion = AppSettings::startFolder()
                     + QStringLiteral("/%1-session.json").arg(toQString(m_document->table()->name()));
    const QString path = QFileDialog::getSaveFileName(this, tr("Save session transcript"), suggestion,
                                                      tr("Session transcripts (*.json)"));
    if (path.isEmpty())
        return false;
    auto saved = saveSessionTo(path);
    if (!saved.ok()) {
        showError(tr("Save session"), errorText(saved.error()));
        return false;
    }
    statusBar()->showMessage(tr("Saved %1").arg(path), 4000);
    return true;
}

void MainWindow::exportCsvInteractive()
{
    if (!m_document->hasSession())
        return;
    QString suggestion
        = m_document->filePath().isEmpty()
              ? AppSettings::startFolder()
                    + QStringLiteral("/%1-ledger.csv").arg(toQString(m_document->table()->name()))
              : QFileInfo(m_document->filePath()).absolutePath() + u'/'
                    + QFileInfo(m_document->filePath()).completeBaseName() + QStringLiteral(".csv");
    const QString path
        = QFileDialog::getSaveFileName(this, tr("Export ledger as CSV"), suggestion, tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    auto exported = exportCsvTo(path);
    if (!exported.ok())
        showError(tr("Export CSV"), errorText(exported.error()));
    else
        statusBar()->showMessage(tr("Exported %1").arg(path), 4000);
}

void MainWindow::exportReportInteractive()
{
    if (!m_document->hasSession())
        return;
    const QString suggestion
        = reportSaveSuggestion(m_document->filePath(), toQString(m_document->table()->name()));
    const QString target
        = QFileDialog::getSaveFileName(this, tr("Export session report"), suggestion, reportFileFilter());
    if (target.isEmpty())
        return;
    auto exported = exportReportTo(target);
    if (!exported.ok())
        showError(tr("Export report"), errorText(exported.error()));
    else
        statusBar()->showMessage(tr("Exported %1").arg(target), 4000);
}

void MainWindow::about()
{
    QMessageBox::about(
        this, tr("About Privacy Budget Explorer"),
        tr("<h3>Privacy Budget Explorer %1</h3>"
           "<p>Ask statistical questions of a dataset under differential privacy with an "
           "accuracy target; the app chooses the noise, charges a privacy filter and keeps an "
           "append-only ledger of every release.</p>"
           "<p><b>ε</b> bounds what one person's data can change; <b>δ</b> is the small chance "
           "that bound fails; <b>ρ</b> is the zCDP unit in which Gaussian costs add up.</p>")
            .arg(applicationVersion()));
}

bool MainWindow::maybeSave(const QString &action)
{
    if (!m_document->isModified() || !m_document->hasEvents())
        return true;
    const auto answer = QMessageBox::warning(
        this, tr("Unsaved ledger"),
        tr("The ledger has requests that are not saved. Save the session before you %1?").arg(action),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

void MainWindow::showError(const QString &title, const QString &message)
{
    // Messages quote files (names, fields, labels): plain text, never HTML.
    QMessageBox box(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
    box.setTextFormat(Qt::PlainText);
    box.exec();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    // A running request is cancelled and waited for: what it spent is journaled and shown before
    // the ledger is offered for saving.
    if (m_document->isAsking()) {
        cancelAsk();
        m_document->waitForAsk();
    }
    if (m_lessons) // a running lesson puts the user's session back first
        m_lessons->endLesson();
    if (!maybeSave(tr("quit"))) {
        event->ignore();
        return;
    }
    if (m_remembersLayout)
        AppSettings::saveWindowLayout(*this);
    event->accept();
}

} // namespace pbx::ui
