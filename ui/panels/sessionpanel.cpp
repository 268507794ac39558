// SPDX-License-Identifier: MIT
#include "ui/panels/sessionpanel.h"

#include "ui/help/glossarylinks.h"
#include "ui/util/numberformat.h"
#include "ui/util/palette.h"
#include "ui/widgets/scientificspinbox.h"
#include "ui/widgets/typedinput.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>

#include <cmath>
#include <limits>

namespace pbx::ui {

namespace {

QString badgeStyle(const QString &background, const QString &foreground)
{
    return QStringLiteral("QLabel { background: %1; color: %2; border-radius: 4px;"
                          " padding: 3px 7px; font-weight: 600; }")
        .arg(background, foreground);
}

} // namespace

SessionPanel::SessionPanel(QWidget *parent) : QWidget(parent)
{
    createWidgets();
    createLayout();
    setSettings(session::SessionSettings{});
    // Each committed change restarts the (empty) session: commit on Enter, focus out or Ask only.
    m_typedInput = new TypedInput(this, TypedInput::Keys::Untracked);
    connectSignals();
}

bool SessionPanel::eventFilter(QObject *watched, QEvent *event)
{
    // Presentation mode's font: the accounting and neighbours boxes as wide as their longest
    // choice in it. Measured once the box has taken the font (the filter sees the event first).
    auto *box = qobject_cast<QComboBox *>(watched);
    if ((box == m_filter || box == m_neighbours) && event->type() == QEvent::FontChange)
        QTimer::singleShot(0, box, [box] { box->setMinimumWidth(box->sizeHint().width()); });
    return QWidget::eventFilter(watched, event);
}

QString SessionPanel::commitTypedInput()
{
    return m_typedInput->commit();
}

void SessionPanel::createWidgets()
{
    m_epsilon = new ScientificSpinBox(this);
    m_epsilon->setRange(1e-4, 100.0);
    m_epsilon->setSingleStep(0.1);
    m_epsilon->setToolTip(tr("<p><b>ε (epsilon)</b> bounds how much any one person's data can "
                             "change the probability of what you see: smaller ε, stronger "
                             "privacy, noisier answers. The whole session spends at most this "
                             "ε.</p>"));
    m_delta = new ScientificSpinBox(this);
    m_delta->setRange(0.0, 0.1);
    m_delta->setMultiplicativeStep(10.0);
    m_delta->setSingleStep(1e-6);
    m_delta->setToolTip(tr("<p><b>δ (delta)</b> is the small probability with which the ε "
                           "guarantee may fail. Keep it well below 1/rows (e.g. 1e-6). The zCDP, "
                           "unified and Brownian filters need δ &gt; 0; the ex-post filter uses it "
                           "only for Brownian boundaries; pure ε ignores it.</p>"));
    m_neighbours = new QComboBox(this);
    m_neighbours->addItem(tr("Add / remove one row"), static_cast<int>(data::Neighbouring::AddRemove));
    m_neighbours->addItem(tr("Replace one row"), static_cast<int>(data::Neighbouring::Replace));
    m_neighbours->setSizeAdjustPolicy(QComboBox::AdjustToContents); // "Add / remove one row" whole
    m_neighbours->setToolTip(tr("<p><b>Neighbouring relation</b>: which two datasets the "
                                "guarantee must not tell apart. <i>Add/remove</i> hides whether "
                                "a person is in the data at all; <i>replace</i> hides what their "
                                "row says (the row count is then public). Sums under "
                                "<i>replace</i> have a larger sensitivity.</p>"));
    m_filter = new QComboBox(this);
    m_filter->addItem(tr("Pure ε · Laplace"), static_cast<int>(filters::FilterKind::Basic));
    m_filter->addItem(tr("zCDP (ρ) · Gaussian"), static_cast<int>(filters::FilterKind::Zcdp));
    m_filter->addItem(tr("Ex-post filter"), static_cast<int>(filters::FilterKind::ExPost));
    m_filter->setItemData(m_filter->count() - 1, tr("Laplace or Brownian noise reduction, paid ex-post"),
                          Qt::ToolTipRole);
    // Short names that fit the combo at its 1024-px width; the source is the item's tooltip.
    m_filter->addItem(tr("Unified: zCDP + ex-post"), static_cast<int>(filters::FilterKind::Unified));
    m_filter->setItemData(m_filter->count() - 1, tr("zCDP and ex-post sides: Rogers et al. 2023, Theorem 3"),
                          Qt::ToolTipRole);
    m_filter->addItem(tr("zCDP · Brownian"), static_cast<int>(filters::FilterKind::BrownianZcdp));
    m_filter->setItemData(m_filter->count() - 1,
                          tr("zCDP with Brownian noise reduction (Rogers et al. 2023)"), Qt::ToolTipRole);
    m_filter->addItem(tr("Output DP"), static_cast<int>(filters::FilterKind::Odp));
    m_filter->setItemData(m_filter->count() - 1,
                          tr("Pay the realised output: Hartmann et al. 2023, Theorem 7"), Qt::ToolTipRole);
    m_filter->addItem(tr("Rényi (RDP)"), static_cast<int>(filters::FilterKind::Rdp));
    m_filter->setItemData(m_filter->count() - 1,
                          tr("Rényi filter on 24 orders, δ/24 each: Feldman & Zrnic 2021; Lécuyer 2021"),
                          Qt::ToolTipRole);
    m_filter->addItem(tr("Advanced comp."), static_cast<int>(filters::FilterKind::Advanced));
    m_filter->setItemData(m_filter->count() - 1,
                          tr("Advanced composition for adaptively chosen ε: Whitehouse et al. 2023"),
                          Qt::ToolTipRole);
    m_filter->addItem(tr("Odometer (no ε)"), static_cast<int>(filters::FilterKind::Odometer));
    m_filter->setItemData(m_filter->count() - 1,
                          tr("No ε budget: every request is answered and a running ε, valid whenever you "
                             "stop, is shown (privacy odometer: Rogers et al. 2016; Whitehouse et al. 2023)"),
                          Qt::ToolTipRole);
    // As wide as its longest choice, so none is cut in the box or in its list (the list is as wide
    // as the box): where the dock is too narrow for the label and the box side by side, the form
    // puts the box below its label (in presentation mode at 1920 px the box showed 170 px of
    // "Unified: zCDP + ex-post", 215 px long).
    m_filter->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    // (Qt keeps a box's minimum size from the font it had first: set again for a new font.)
    for (QComboBox *box : {m_filter, m_neighbours}) {
        box->installEventFilter(this);
        box->setMinimumWidth(box->sizeHint().width());
    }
    m_filter->setToolTip(tr("<p><b>Accounting</b>: how the costs of requests add up.</p>"
                            "<p><i>Pure ε</i>: Laplace noise, costs in ε simply add (basic "
                            "composition); δ = 0.</p><p><i>zCDP</i>: Gaussian noise, costs in "
                            "<b>ρ</b> (rho) add; the total converts to (ε, δ) with "
                            "ε = ρ + 2√(ρ·ln(1/δ)). Many small queries cost much less ε this "
                            "way.</p>"
                            "<p><i>Ex-post</i>: noise reduction releases ever less noisy answers "
                            "and stops as soon as the target is met; you pay only the loss of "
                            "the last level released (the realised, <i>ex-post</i> ε).</p>"
                            "<p><i>Unified</i>: the budget is split in advance between a zCDP "
                            "side (Gaussian; Laplace as ε²/2) and an ex-post side (noise "
                            "reduction); neither side borrows from the other (Rogers et al. "
                            "2023, Theorem 3).</p>"
                            "<p><i>zCDP with Brownian noise reduction</i>: Brownian noise "
                            "reduction accounted inside the zCDP filter at ρ = Δ²/(2·T<sub>stop"
                            "</sub>), like one Gaussian release at the stopping noise.</p>"
                            "<p><i>Output DP</i>: each mechanism is admitted by its worst-case "
                            "cost and pays the cost of the output it released, δ in full; Laplace "
                            "and noise reduction, no Gaussian releases.</p>"
                            "<p><i>Rényi</i>: every request is charged its Rényi curve on 24 "
                            "orders and admitted while some order has room; Gaussian, Laplace and "
                            "Brownian noise reduction.</p>"
                            "<p><i>Advanced composition</i>: Laplace requests while "
                            "√(2·ln(1/δ)·Σε²) + Σε²/2 ≤ ε: many small requests fit where pure ε "
                            "runs out.</p>"));
    const auto makeShare = [this](double value, const QString &tip) {
        auto *box = new QDoubleSpinBox(this);
        box->setRange(1.0, 99.0);
        box->setDecimals(0);
        box->setSingleStep(5.0);
        box->setSuffix(QStringLiteral(" %"));
        box->setValue(value);
        box->setToolTip(tip);
        return box;
    };
    const QString splitTip = tr("<p>The unified filter splits the session's (ε, δ) in advance: "
                                "this share goes to the <b>ex-post side</b> (noise reduction), "
                                "the rest to the <b>zCDP side</b> (Gaussian, Laplace as ε²/2). "
                                "Each request is paid from its own side only. Fixed once the "
                                "first request is made.</p>");
    m_expostEpsilonShare = makeShare(5.0, splitTip);
    m_expostEpsilonShare->setAccessibleName(tr("Ex-post share of ε"));
    m_expostDeltaShare = makeShare(5.0, splitTip);
    m_expostDeltaShare->setAccessibleName(tr("Ex-post share of δ"));

    m_splitRow = new QWidget(this);
    auto *splitLayout = new QHBoxLayout(m_splitRow);
    splitLayout->setContentsMargins(0, 0, 0, 0);
    splitLayout->addWidget(new QLabel(tr("ε"), m_splitRow));
    splitLayout->addWidget(m_expostEpsilonShare, 1);
    splitLayout->addSpacing(6);
    splitLayout->addWidget(new QLabel(tr("δ"), m_splitRow));
    splitLayout->addWidget(m_expostDeltaShare, 1);
    m_seedEnabled = new QCheckBox(tr("Reproducible noise (seed)"), this);
    m_seedEnabled->setToolTip(tr("<p>Draws noise from a seeded generator so a session can be "
                                 "repeated exactly, for teaching and testing. Anyone who knows "
                                 "the seed can remove the noise: never publish seeded "
                                 "results.</p>"));
    m_seed = new QSpinBox(this);
    m_seed->setRange(0, std::numeric_limits<int>::max());
    m_seed->setValue(1);
    m_seed->setEnabled(false);
    m_seed->setToolTip(m_seedEnabled->toolTip());

    m_mode = new QLabel(this);
    m_mode->setTextFormat(Qt::PlainText);
    // Wraps rather than widening the panel when " · SEEDED" is added (the panel keeps its width).
    m_mode->setWordWrap(true);
    m_budget = new QLabel(this);
    m_budget->setWordWrap(true);
    m_budget->setTextFormat(Qt::RichText);
    m_lockNote = new QLabel(this);
    m_lockNote->setWordWrap(true);
    QPalette muted = m_lockNote->palette();
    muted.setColor(QPalette::WindowText, palette::mutedText);
    m_lockNote->setPalette(muted);
    m_error = new QLabel(this);
    m_error->setWordWrap(true);
    m_error->setTextFormat(Qt::PlainText); // messages quote file names and fields
    m_error->setStyleSheet(palette::labelColourStyle(palette::errorText));
    m_error->setVisible(false);
    m_newSession = new QPushButton(tr("New session"), this);
    m_newSession->setToolTip(tr("Start again with a fresh budget and an empty ledger"));
}

void SessionPanel::createLayout()
{
    auto *seedWarning = new QLabel(tr("not for real releases"), this);
    seedWarning->setStyleSheet(palette::labelColourStyle(palette::warningText));
    seedWarning->setToolTip(m_seedEnabled->toolTip());
    seedWarning->setWordWrap(true); // wraps in a narrow (1024-px window) panel instead of widening it
    // The seed and its warning below it, only while the noise is seeded (the check box's tooltip
    // says it before): beside the box the warning wrapped to three lines in the 1024-px window's
    // dock ("not for / real / releases"), and the privacy settings scrolled on a 1024×768 screen.
    auto *seedRow = new QVBoxLayout;
    seedRow->setSpacing(2);
    seedRow->addWidget(m_seed);
    seedRow->addWidget(seedWarning);

    auto *form = new QFormLayout;
    m_form = form;
    form->setContentsMargins(0, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    // In a narrow dock (1024 px, or presentation mode) a field goes below its label instead of
    // making the dock scroll sideways.
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    form->addRow(tr("ε (epsilon):"), m_epsilon);
    form->addRow(tr("δ (delta):"), m_delta);
    form->addRow(tr("Neighbours:"), m_neighbours);
    form->addRow(tr("Accounting:"), m_filter);
    form->addRow(tr("Ex-post share:"), m_splitRow);
    form->addRow(m_seedEnabled);
    form->addRow(tr("Seed:"), seedRow);

    // The mode's badge on its own (its tooltip and accessible name say what it is): beside a
    // "Mode:" label it wrapped to two lines in the 1024-px window's dock.
    m_mode->setAccessibleName(tr("Mode"));
    auto *modeRow = new QHBoxLayout;
    modeRow->addWidget(m_mode);
    modeRow->addStretch(1);
    // "New session" beside the note on whether the settings can still change (one row less on a
    // short screen).
    auto *buttonRow = new QHBoxLayout;
    buttonRow->addWidget(m_lockNote, 1);
    buttonRow->addWidget(m_newSession, 0, Qt::AlignBottom);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(form);
    layout->addSpacing(4);
    layout->addLayout(modeRow);
    layout->addWidget(m_budget);
    layout->addWidget(m_error);
    layout->addLayout(buttonRow);
    layout->addStretch(1);
    m_form->setRowVisible(seedRow, m_seedEnabled->isChecked());
    connect(m_seedEnabled, &QCheckBox::toggled, this,
            [this, seedRow](bool on) { m_form->setRowVisible(seedRow, on); });
}

void SessionPanel::connectSignals()
{
    connect(m_epsilon, &QDoubleSpinBox::valueChanged, this, &SessionPanel::emitEdited);
    connect(m_delta, &QDoubleSpinBox::valueChanged, this, &SessionPanel::emitEdited);
    connect(m_neighbours, &QComboBox::currentIndexChanged, this, &SessionPanel::emitEdited);
    connect(m_filter, &QComboBox::currentIndexChanged, this, &SessionPanel::emitEdited);
    connect(m_expostEpsilonShare, &QDoubleSpinBox::valueChanged, this, &SessionPanel::emitEdited);
    connect(m_expostDeltaShare, &QDoubleSpinBox::valueChanged, this, &SessionPanel::emitEdited);
    connect(m_seedEnabled, &QCheckBox::toggled, this, [this](bool on) {
        m_seed->setEnabled(on && !m_locked);
        emitEdited();
    });
    connect(m_seed, &QSpinBox::valueChanged, this, &SessionPanel::emitEdited);
    connect(m_newSession, &QPushButton::clicked, this, &SessionPanel::newSessionRequested);
}

session::SessionSettings SessionPanel::settings() const
{
    session::SessionSettings s;
    s.epsilon = m_epsilon->value();
    s.delta = m_delta->value();
    s.neighbours = static_cast<data::Neighbouring>(m_neighbours->currentData().toInt());
    s.filter = static_cast<filters::FilterKind>(m_filter->currentData().toInt());
    s.split.expostEpsilonShare = m_expostEpsilonShare->value() / 100.0;
    s.split.expostDeltaShare = m_expostDeltaShare->value() / 100.0;
    if (m_seedEnabled->isChecked())
        s.seed = static_cast<std::uint64_t>(m_seed->value());
    return s;
}

void SessionPanel::setSettings(const session::SessionSettings &settings)
{
    const bool wasUpdating = m_updating;
    m_updating = true;
    // A session made elsewhere (pbx-cli run --epsilon 1000) may lie outside the fields' usual
    // ranges: widen them rather than show a clamped value that is not the session's.
    // An odometer session has no ε (+∞): the field keeps its value, hidden.
    const bool hasEpsilon = std::isfinite(settings.epsilon);
    if (hasEpsilon && settings.epsilon > m_epsilon->maximum())
        m_epsilon->setMaximum(settings.epsilon);
    if (hasEpsilon && settings.epsilon < m_epsilon->minimum())
        m_epsilon->setMinimum(settings.epsilon);
    if (settings.delta > m_delta->maximum())
        m_delta->setMaximum(settings.delta);
    if (hasEpsilon)
        m_epsilon->setValue(settings.epsilon);
    m_delta->setValue(settings.delta);
    m_neighbours->setCurrentIndex(m_neighbours->findData(static_cast<int>(settings.neighbours)));
    m_filter->setCurrentIndex(m_filter->findData(static_cast<int>(settings.filter)));
    m_expostEpsilonShare->setValue(settings.split.expostEpsilonShare * 100.0);
    m_expostDeltaShare->setValue(settings.split.expostDeltaShare * 100.0);
    m_seedEnabled->setChecked(settings.seed.has_value());
    if (settings.seed)
        m_seed->setValue(static_cast<int>(std::min<std::uint64_t>(
            *settings.seed, static_cast<std::uint64_t>(std::numeric_limits<int>::max()))));
    m_seed->setEnabled(settings.seed.has_value() && !m_locked);
    m_updating = wasUpdating;
    updateModeBadge();
}

QString SessionPanel::modeText() const
{
    const auto s = settings();
    QString text;
    switch (s.filter) {
    case filters::FilterKind::Basic:
        text = tr("Pure ε · Laplace");
        break;
    case filters::FilterKind::Zcdp:
        text = tr("zCDP · Gaussian");
        break;
    case filters::FilterKind::ExPost:
        text = tr("Ex-post filter");
        break;
    case filters::FilterKind::Unified:
        text = tr("Unified · zCDP + ex-post");
        break;
    case filters::FilterKind::BrownianZcdp:
        text = tr("zCDP · Brownian NR");
        break;
    case filters::FilterKind::Odp:
        text = tr("Output DP · reserve and settle");
        break;
    case filters::FilterKind::Rdp:
        text = tr("RDP · grid of orders");
        break;
    case filters::FilterKind::Advanced:
        text = tr("Advanced composition · Laplace");
        break;
    case filters::FilterKind::Odometer:
        text = tr("Odometer · no ε budget");
        break;
    }
    text += s.neighbours == data::Neighbouring::AddRemove ? tr(" · add/remove") : tr(" · replace");
    if (s.seed)
        text += tr(" · SEEDED");
    return text;
}

void SessionPanel::updateModeBadge()
{
    const auto s = settings();
    m_mode->setText(modeText());
    if (s.seed)
        m_mode->setStyleSheet(badgeStyle(palette::warningBackground.name(), palette::warningText.name()));
    else if (s.filter == filters::FilterKind::Zcdp || s.filter == filters::FilterKind::BrownianZcdp)
        m_mode->setStyleSheet(badgeStyle(QStringLiteral("#ece6f6"), QStringLiteral("#553088")));
    else if (s.filter == filters::FilterKind::ExPost || s.filter == filters::FilterKind::Unified)
        m_mode->setStyleSheet(badgeStyle(QStringLiteral("#dff1ee"), QStringLiteral("#0f5e55")));
    else
        m_mode->setStyleSheet(badgeStyle(QStringLiteral("#e3edfb"), QStringLiteral("#1d4f99")));
    m_mode->setToolTip(s.seed ? tr("Seeded noise: results are reproducible and must not be "
                                   "published.")
                              : tr("The active accounting mode of this session"));
    updateSplitVisibility();
}

void SessionPanel::updateSplitVisibility()
{
    const bool unified = m_filter->currentData().toInt() == static_cast<int>(filters::FilterKind::Unified);
    m_form->setRowVisible(m_splitRow, unified);
    // An odometer fixes only δ.
    m_form->setRowVisible(m_epsilon,
                          m_filter->currentData().toInt() != static_cast<int>(filters::FilterKind::Odometer));
}

void SessionPanel::setSession(const session::Session *session)
{
    const int events = session ? static_cast<int>(session->events().size()) : 0;
    m_locked = events > 0;
    for (QWidget *w :
         std::initializer_list<QWidget *>{m_epsilon, m_delta, m_neighbours, m_filter, m_expostEpsilonShare,
                                          m_expostDeltaShare, m_seedEnabled})
        w->setEnabled(!m_locked);
    m_seed->setEnabled(!m_locked && m_seedEnabled->isChecked());
    m_newSession->setEnabled(session != nullptr);

    if (!session) {
        m_budget->clear();
        m_lockNote->clear();
        return;
    }
    const auto &filter = session->filter();
    const auto systems = filter.systems();
    switch (filter.kind()) {
    case filters::FilterKind::Zcdp:
        setGlossaryLinkedText(m_budget,
                              tr("Budget <b>ρ = %1</b>, which guarantees (ε = %2, δ = %3)-DP for "
                                 "the whole session.")
                                  .arg(formatNumber(filter.budget()), formatNumber(filter.epsilonBudget()),
                                       formatNumber(filter.deltaBudget(), 3)));
        break;
    case filters::FilterKind::BrownianZcdp:
        setGlossaryLinkedText(m_budget,
                              tr("Budget <b>ρ = %1</b>, which guarantees (ε = %2, δ = %3)-DP. "
                                 "Brownian noise reduction pays ρ = Δ²/(2·T<sub>stop</sub>): only "
                                 "the noise level it stopped at.")
                                  .arg(formatNumber(filter.budget()), formatNumber(filter.epsilonBudget()),
                                       formatNumber(filter.deltaBudget(), 3)));
        break;
    case filters::FilterKind::ExPost:
        setGlossaryLinkedText(
            m_budget, tr("Budget <b>ex-post ε = %1</b> (δ = %2 for Brownian boundaries). "
                         "A noise reduction pays the loss of the last level it released.")
                          .arg(formatNumber(filter.budget()), formatNumber(filter.expostDeltaBudget(), 3)));
        break;
    case filters::FilterKind::Unified:
        if (systems.size() >= 2)
            setGlossaryLinkedText(
                m_budget,
                tr("zCDP side: <b>ρ = %1</b> (ε<sub>z</sub> = %2, δ<sub>z</sub> = %3) for "
                   "Gaussian releases and Laplace as ε²/2.<br>Ex-post side: <b>ε<sub>e</sub> = "
                   "%4</b> (δ<sub>e</sub> = %5) for Laplace and Brownian noise reduction.<br>"
                   "Together (ε = %6, δ = %7)-DP; neither side borrows from the other.")
                    .arg(formatNumber(systems[0].budget), formatNumber(systems[0].epsilonBudget),
                         formatNumber(systems[0].deltaBudget, 3), formatNumber(systems[1].budget),
                         formatNumber(systems[1].deltaBudget, 3), formatNumber(filter.epsilonBudget()),
                         formatNumber(filter.deltaBudget(), 3)));
        break;
    case filters::FilterKind::Basic:
        setGlossaryLinkedText(
            m_budget,
            tr("Budget <b>ε = %1</b> (pure ε-DP); costs add up in ε.").arg(formatNumber(filter.budget())));
        break;
    case filters::FilterKind::Odp:
        setGlossaryLinkedText(
            m_budget,
            tr("Budget <b>ε = %1</b>, δ = %2 (output DP, Hartmann et al. 2023, Theorem 7). A mechanism is "
               "admitted by its worst case and pays the cost of the output it released; "
               "δ is paid in full.")
                .arg(formatNumber(filter.budget()), formatNumber(filter.deltaBudget(), 3)));
        break;
    case filters::FilterKind::Rdp:
        setGlossaryLinkedText(
            m_budget,
            tr("Budget (ε = %1, δ = %2) as a Rényi budget per order (24 orders, δ/24 each). A request "
               "is admitted while some order has room; %3.")
                .arg(formatNumber(filter.epsilonBudget()), formatNumber(filter.deltaBudget(), 3),
                     systems.empty() ? QString() : QString::fromStdString(systems.front().name)));
        break;
    case filters::FilterKind::Advanced:
        setGlossaryLinkedText(m_budget,
                              tr("Budget <b>ρ = %1</b> for Σε²/2 (advanced composition), which guarantees "
                                 "(ε = %2, δ = %3)-DP for adaptively chosen ε's.")
                                  .arg(formatNumber(filter.budget()), formatNumber(filter.epsilonBudget()),
                                       formatNumber(filter.deltaBudget(), 3)));
        break;
    case filters::FilterKind::Odometer:
        setGlossaryLinkedText(m_budget,
                              tr("<b>No ε budget</b>, δ = %1: every request is answered, and the odometer "
                                 "shows after each one an ε that holds whenever you stop (it pays for not "
                                 "committing to a budget).")
                                  .arg(formatNumber(filter.deltaBudget(), 3)));
        break;
    }
    m_lockNote->setText(m_locked ? (events == 1 ? tr("Settings are fixed: 1 request made. Start a "
                                                     "new session to change them.")
                                                : tr("Settings are fixed: %1 requests made. Start a "
                                                     "new session to change them.")
                                                      .arg(events))
                                 : tr("Settings can change until the first request."));
}

QString SessionPanel::budgetText() const
{
    return m_budget->text();
}

void SessionPanel::setError(const QString &message)
{
    m_error->setText(message);
    m_error->setVisible(!message.isEmpty());
}

void SessionPanel::emitEdited()
{
    updateModeBadge();
    if (m_updating || m_locked)
        return;
    Q_EMIT settingsEdited(settings());
}

} // namespace pbx::ui
