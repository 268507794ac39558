// SPDX-License-Identifier: MIT
#include "ui/widgets/resultcard.h"

#include "core/session/growing/growing_release.h"
#include "core/session/growing/growing_smalldb.h"
#include "core/session/ledger/cost_audit.h"
#include "core/session/strategies/strategy_release.h"

#include "core/filters/zcdp_filter.h"
#include "core/report/event_description.h"
#include "ui/charts/presentation.h"
#include "ui/growing/pmwgfields.h"
#include "ui/help/glossarylinks.h"
#include "ui/models/ledgermodel.h"
#include "ui/odp/odptext.h"
#include "ui/util/boundformat.h"
#include "ui/util/numberformat.h"
#include "ui/util/palette.h"
#include "ui/util/privacytext.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include <functional>

namespace pbx::ui {

ResultCard::ResultCard(QWidget *parent) : QFrame(parent)
{
    setObjectName(QStringLiteral("resultCard"));
    setFrameShape(QFrame::StyledPanel);
    setStyleSheet(QStringLiteral("QFrame#resultCard { background: palette(base);"
                                 " border: 1px solid #d5d9de; border-radius: 6px; }"));
    m_badge = new QLabel(this);
    m_title = new QLabel(this);
    m_title->setTextFormat(Qt::PlainText);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // The title and the headline wrap: a long predicate or output-DP headline on one line made
    // the card, and so the query above it, scroll sideways at 1024 px with Ask cut off.
    m_title->setWordWrap(true);
    m_badge->setObjectName(QStringLiteral("resultBadge"));
    m_title->setObjectName(QStringLiteral("resultTitle"));
    // Fonts relative to the application's, so that presentation mode scales the card.
    setRelativeFont(m_title, 1.0, QFont::Bold);
    m_headline = new QLabel(this);
    m_headline->setTextFormat(Qt::PlainText); // a mode's headline is a category label from metadata
    m_headline->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_headline->setObjectName(QStringLiteral("resultHeadline"));
    m_headline->setWordWrap(true);
    setRelativeFont(m_headline, 1.7, QFont::DemiBold);
    m_details = new QLabel(this);
    m_details->setWordWrap(true);
    m_details->setTextFormat(Qt::RichText);
    m_note = new QLabel(this);
    m_note->setWordWrap(true);
    m_details->setObjectName(QStringLiteral("resultDetails"));
    m_note->setObjectName(QStringLiteral("resultNote"));
    setRelativeFont(m_badge, 1.0);
    setRelativeFont(m_details, 1.0);
    setRelativeFont(m_note, 1.0);
    // The explanation lines link their terms to Help ▸ Glossary (glossarylinks.h).
    connectGlossaryLinks(m_details);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *top = new QHBoxLayout;
    top->addWidget(m_badge);
    top->addWidget(m_title, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 10, 12, 10);
    layout->setSpacing(4);
    layout->addLayout(top);
    layout->addWidget(m_headline);
    layout->addWidget(m_details);
    layout->addWidget(m_note);
    m_busy = new QProgressBar(this);
    m_busy->setObjectName(QStringLiteral("askBusyBar"));
    m_busy->setRange(0, 0); // busy: no steps to count, one statement in the database
    m_busy->setTextVisible(false);
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setObjectName(QStringLiteral("cancelAskButton"));
    m_cancel->setToolTip(tr("Stop the database statement; nothing is spent unless it was already charged"));
    connect(m_cancel, &QPushButton::clicked, this, &ResultCard::cancelRequested);
    auto *busyRow = new QHBoxLayout;
    busyRow->addWidget(m_busy, 1);
    busyRow->addWidget(m_cancel);
    layout->addLayout(busyRow);
    clear();
}

void ResultCard::setAskingRow(bool visible)
{
    m_busy->setVisible(visible);
    m_cancel->setVisible(visible);
    m_cancel->setEnabled(visible);
    m_cancel->setText(tr("Cancel"));
}

void ResultCard::showAsking(const QString &location)
{
    m_state = State::Asking;
    setBadge(tr("Asking…"), palette::warningBackground.name(), palette::warningText.name());
    m_title->setText(tr("Asking the database"));
    m_headline->setText(tr("Computing…"));
    m_headline->setStyleSheet(QStringLiteral("QLabel { color: #9aa0a6; }"));
    m_details->setText(tr("The true answer is computed in %1 first; nothing is spent until it is. "
                          "Cancel stops the statement.")
                           .arg(location.toHtmlEscaped()));
    m_note->clear();
    m_note->setToolTip(QString());
    m_note->setVisible(false);
    setAskingRow(true);
}

void ResultCard::showCancelling()
{
    if (m_state != State::Asking)
        return;
    m_cancel->setEnabled(false);
    m_cancel->setText(tr("Cancelling…"));
}

void ResultCard::showCancelled(const QString &message)
{
    setAskingRow(false);
    m_state = State::Cancelled;
    setBadge(tr("Cancelled"), palette::warningBackground.name(), palette::warningText.name());
    m_title->setText(tr("Nothing was spent"));
    m_headline->setText(tr("Cancelled"));
    m_headline->setStyleSheet(palette::labelColourStyle(palette::warningText));
    m_details->setText(message.toHtmlEscaped());
    m_note->clear();
    m_note->setToolTip(QString());
    m_note->setVisible(false);
}

void ResultCard::setBadge(const QString &text, const QString &background, const QString &foreground)
{
    m_badge->setText(text);
    m_badge->setVisible(!text.isEmpty());
    m_badge->setStyleSheet(QStringLiteral("QLabel { background: %1; color: %2; border-radius: 4px;"
                                          " padding: 2px 8px; font-weight: 600; }")
                               .arg(background, foreground));
}

void ResultCard::clear()
{
    setAskingRow(false);
    m_state = State::Empty;
    setBadge({}, {}, {});
    m_title->setText(tr("No request yet"));
    m_headline->setText(QStringLiteral("—"));
    m_headline->setStyleSheet(QStringLiteral("QLabel { color: #9aa0a6; }"));
    setGlossaryLinkedText(m_details,
                          tr("Build a query above and press <b>Ask</b>. The answer is released with "
                             "noise; its error bar holds with the confidence you choose."));
    m_note->clear();
    m_note->setToolTip(QString());
    m_note->setVisible(false);
}

void ResultCard::showError(const QString &message, bool spent)
{
    setAskingRow(false);
    m_state = State::Invalid;
    setBadge(spent ? tr("Withheld") : tr("Invalid request"), palette::warningBackground.name(),
             palette::warningText.name());
    m_title->setText(spent ? tr("Spent, but not shown: the journal could not be written")
                           : tr("Nothing was asked or spent"));
    m_headline->setText(spent ? tr("Answer withheld") : tr("Not asked"));
    m_headline->setStyleSheet(palette::labelColourStyle(palette::warningText));
    setGlossaryLinkedText(m_details, message.toHtmlEscaped());
    m_note->clear();
    m_note->setToolTip(QString());
    m_note->setVisible(false);
}

namespace {

/// What the filter has spent after the event, in its own units (the card's last detail).
QString spentText(const session::LedgerEvent &event, const filters::PrivacyFilter &filter)
{
    switch (filter.kind()) {
    case filters::FilterKind::Basic:
        return ResultCard::tr("total spent ε = %1 of %2")
            .arg(formatBound(event.spentAfter), formatNumber(filter.budget()));
    case filters::FilterKind::ExPost:
        return ResultCard::tr("total spent ex-post ε = %1 of %2")
            .arg(formatBound(event.spentAfter), formatNumber(filter.budget()));
    case filters::FilterKind::Odp:
        return ResultCard::tr("spent (a posteriori) ε = %1 of %2; the session is (%2, δ)-DP by the filter")
            .arg(formatBound(event.spentAfter), formatNumber(filter.budget()));
    case filters::FilterKind::Rdp:
        return ResultCard::tr("spent: ε ≈ %1 at the binding Rényi order, of %2; the session is (%2, δ)-DP by "
                              "the filter")
            .arg(formatBound(event.spentAfter), formatNumber(filter.budget()));
    case filters::FilterKind::Odometer:
        return ResultCard::tr("odometer: the session so far is (ε = %1, δ)-DP, valid whenever you stop (ρ "
                              "spent %2; no budget)")
            .arg(formatBound(event.epsilonSpentAfter), formatBound(event.spentAfter));
    case filters::FilterKind::Unified: {
        const auto systems = filter.systems();
        const double expostBudget = systems.size() > 1 ? systems[1].budget : 0.0;
        return ResultCard::tr(
                   "spent: zCDP ρ = %1 of %2 · ex-post ε = %3 of %4 · gauge ε ≈ %5; the session is "
                   "(%6, δ)-DP by the filter")
            .arg(formatBound(event.spentAfter), formatNumber(filter.budget()),
                 formatBound(event.expostSpentAfter), formatNumber(expostBudget),
                 formatBound(event.epsilonSpentAfter), formatNumber(filter.epsilonBudget()));
    }
    default:
        return ResultCard::tr(
                   "total spent ρ = %1 of %2 (gauge: ε ≈ %3; the session is (%4, δ)-DP by the filter)")
            .arg(formatBound(event.spentAfter), formatNumber(filter.budget()),
                 formatBound(event.epsilonSpentAfter), formatNumber(filter.epsilonBudget()));
    }
}

/// The unit symbol an event's cost is in: "ε" or "ρ".
QString chargeSymbol(const session::LedgerEvent &event)
{
    return toQString(std::string(filters::chargeUnitSymbol(event.costKind)));
}

/// A stream's run lines as rich-text lines (escaped): `format` makes one line of a run.
QStringList streamLines(const session::LedgerEvent &event,
                        const std::function<QString(const report::RunLine &)> &format)
{
    const report::RunLines lines = report::streamRunLines(event, 6);
    QStringList out;
    for (const auto &line : lines.first)
        out << format(line).toHtmlEscaped();
    if (lines.elided > 0)
        out << ResultCard::tr("… %1 more").arg(lines.elided).toHtmlEscaped();
    for (const auto &line : lines.last)
        out << format(line).toHtmlEscaped();
    return out;
}

/// What the headline of a release of many values is (empty for one value): a histogram's is the
/// total of its noisy counts with the total's own error bar, a workload's its first range with
/// the widest error bar; the target applies to each value.
QString headlineCaption(const session::LedgerEvent &event)
{
    const session::StrategyRecord *record = event.strategyRecord();
    if (!record || record->values.size() < 2)
        return {};
    const auto n = static_cast<qsizetype>(record->values.size());
    if (event.mechanism == session::EventMechanism::Histogram)
        return ResultCard::tr("Above: the total of the %1 noisy counts, ± the total's own error bar; the "
                              "target is per count (each count ± %2).")
            .arg(n)
            .arg(formatNumber(record->halfWidths.empty() ? 0.0 : record->halfWidths.front(), 4));
    if (event.mechanism == session::EventMechanism::Workload)
        return ResultCard::tr("Above: the first of the %1 ranges, %2, ± the widest error bar of them; the "
                              "target is per range.")
            .arg(formatNumber(static_cast<double>(n), 17)) // "1,024", as the lessons write it
            .arg(toQString(record->labels.empty() ? std::string() : record->labels.front()));
    return {};
}

QString joinedValues(const std::vector<double> &values)
{
    QStringList texts;
    for (double v : values)
        texts << formatNumber(v, 4);
    return texts.join(QStringLiteral(", "));
}

} // namespace

void ResultCard::showLedgerEvent(const session::LedgerEvent &event, const filters::PrivacyFilter &filter)
{
    setAskingRow(false);
    m_title->setText(QStringLiteral("%1  ·  %2")
                         .arg(toQString(event.request.id), LedgerModel::describeRequest(event.request)));
    const QString spent = spentText(event, filter);
    const report::EventKind kind = report::eventKind(event);
    if (kind == report::EventKind::Refused) {
        showRefused(event, spent);
        return;
    }
    m_state = State::Released;
    setBadge(tr("Released"), QStringLiteral("#def2e6"), palette::successText.name());
    m_headline->setStyleSheet({});
    QStringList firstNotes; // above the event's reason and accounting
    switch (kind) {
    case report::EventKind::OutputDp:
        firstNotes = showOutputDp(event, spent);
        break;
    case report::EventKind::PmwgStream:
        showPmwgStream(event, spent);
        break;
    case report::EventKind::NsgStream:
        showNsgStream(event, spent);
        break;
    case report::EventKind::RunStream:
        showRunStream(event, spent);
        break;
    default:
        showRelease(event, filter, spent);
        break;
    }
    showNotes(event, firstNotes);
}

void ResultCard::showRefused(const session::LedgerEvent &event, const QString &spent)
{
    m_state = State::Refused;
    setBadge(tr("Refused"), QStringLiteral("#fbe3e1"), palette::refusedText.name());
    m_headline->setText(tr("No answer released"));
    m_headline->setStyleSheet(palette::labelColourStyle(palette::refusedText));
    setGlossaryLinkedText(
        m_details,
        tr("Target %1 · nothing charged for this request · %2")
            .arg(LedgerModel::describeTarget(event.request.target).toHtmlEscaped(), spent.toHtmlEscaped()));
    setGlossaryLinkedPlainText(m_note, tr("Reason: %1").arg(toQString(event.reason)));
    m_note->setToolTip(QString());
    m_note->setStyleSheet(palette::labelColourStyle(palette::refusedText));
    m_note->setVisible(true);
}

void ResultCard::showNotes(const session::LedgerEvent &event, const QStringList &before)
{
    QStringList notes = before;
    for (const std::string &note : report::eventNotes(event))
        notes << toQString(note);
    setGlossaryLinkedPlainText(m_note, notes.join(u'\n'));
    // The accounting line shows the exact noise parameter (a fraction such as σ² =
    // 1425840514581/2147483648) as a decimal; the exact value is in the tooltip.
    QStringList exact;
    for (const std::string &parameter : report::exactParameters(event))
        exact << toQString(parameter);
    m_note->setToolTip(
        exact.isEmpty() ? QString() : tr("Exact noise parameter: %1").arg(exact.join(QStringLiteral("; "))));
    m_note->setStyleSheet(palette::labelColourStyle(palette::mutedText));
    m_note->setVisible(!notes.isEmpty());
}

QStringList ResultCard::showOutputDp(const session::LedgerEvent &event, const QString &spent)
{
    // An output-DP request releases the flagged counts, not one answer with an error bar: the
    // headline is its cell, the details what was reserved, settled and returned.
    m_headline->setText(odpHeadline(event));
    setGlossaryLinkedText(m_details, tr("%1 · %2<br>%3")
                                         .arg(toQString(event.mechanismName()).toHtmlEscaped(),
                                              odpOutcomeText(event).toHtmlEscaped(), spent.toHtmlEscaped()));
    QStringList released;
    for (const auto &e : event.odpRecord()->releases)
        released << QStringLiteral("%1: %2").arg(toQString(e.label)).arg(e.value);
    QStringList counts;
    if (!released.isEmpty())
        counts << tr("Released counts: %1").arg(released.join(QStringLiteral(", ")));
    return counts;
}

void ResultCard::showPmwgStream(const session::LedgerEvent &event, const QString &spent)
{
    // PMWG: answers from the public histogram; the rounds (each charged when it opened) and their
    // hard answers are the releases that read the data.
    const auto &pmwg = *event.growingRecord()->pmwg;
    m_headline->setText(tr("%1 hard queries in %2 rounds").arg(pmwg.hard.size()).arg(pmwg.rounds.size()));
    QStringList lines;
    for (const QString &line : PmwgFields::outcomeLines(event))
        lines << line.toHtmlEscaped();
    m_details->setText(tr("pmwg · charged %1 = %2 (worst case %3, N = %4)<br>%5<br>%6")
                           .arg(chargeSymbol(event), formatBound(event.cost), formatBound(pmwg.worstCase))
                           .arg(pmwg.universe)
                           .arg(lines.join(QStringLiteral("<br>")), spent.toHtmlEscaped()));
}

void ResultCard::showNsgStream(const session::LedgerEvent &event, const QString &spent)
{
    // NSG: the sparse-vector rounds, each charged when it opened; ⊤ answers are the releases.
    const auto &nsg = *event.growingRecord()->nsg;
    m_headline->setText(tr("%1 ⊤ answers in %2 rounds").arg(nsg.hard.size()).arg(nsg.rounds.size()));
    const QStringList rounds = streamLines(event, [](const report::RunLine &line) {
        QString text = toQString(line.label);
        if (line.query)
            text += tr(" — query %1: %2").arg(*line.query).arg(formatNumber(line.values.front(), 4));
        return text;
    });
    m_details->setText(tr("nsg · charged %1 = %2 (worst case %3)<br>%4<br>%5")
                           .arg(chargeSymbol(event), formatBound(event.cost), formatBound(nsg.worstCase),
                                rounds.join(QStringLiteral("<br>")), spent.toHtmlEscaped()));
}

void ResultCard::showRunStream(const session::LedgerEvent &event, const QString &spent)
{
    // One run per epoch, each its own charge: the headline counts the epochs, the details list
    // them (t_i, ε_i or ρ_i, the answers and the bound); a long stream its first and last six.
    const auto &record = *event.growingRecord();
    const session::GrowingAlgorithm algorithm = event.request.growing()->algorithm;
    m_headline->setText((algorithm == session::GrowingAlgorithm::BBImprover ? tr("%1 of %2 runs released")
                         : algorithm == session::GrowingAlgorithm::Ermg     ? tr("%1 of %2 models released")
                                                                            : tr("%1 of %2 epochs released"))
                            .arg(record.epochs.size())
                            .arg(record.plannedEpochs));
    const QStringList epochs = streamLines(event, [algorithm](const report::RunLine &line) {
        const QString bound = formatNumber(line.bound, 3);
        if (algorithm == session::GrowingAlgorithm::SmallDb) // its 28 answers: the attempts view
            return tr("%1 — %2 (bound ±%3)").arg(toQString(line.label), toQString(line.database), bound);
        if (algorithm == session::GrowingAlgorithm::Ermg)
            return tr("%1 — θ = %2 (each ±%3)").arg(toQString(line.label), joinedValues(line.values), bound);
        return tr("%1 — answers %2 (bound ±%3)").arg(toQString(line.label), joinedValues(line.values), bound);
    });
    setGlossaryLinkedText(m_details, tr("%1 · charged %2 = %3<br>%4<br>%5")
                                         .arg(toQString(event.mechanismName()).toHtmlEscaped(),
                                              chargeSymbol(event), formatBound(event.cost),
                                              epochs.join(QStringLiteral("<br>")), spent.toHtmlEscaped()));
}

QString ResultCard::costText(const session::LedgerEvent &event, const filters::PrivacyFilter &filter)
{
    const auto kind = filter.kind();
    const bool unified = kind == filters::FilterKind::Unified;
    const bool zcdpSystem
        = kind == filters::FilterKind::Zcdp || kind == filters::FilterKind::BrownianZcdp || unified;
    QString cost;
    switch (event.costKind) {
    case filters::ChargeKind::Rho:
        cost = tr("cost ρ = %1 (ε ≈ %2 on its own)")
                   .arg(formatBound(event.cost), formatBound(filter.epsilonOf(event.cost)));
        break;
    case filters::ChargeKind::PureEpsilon:
        // Each level is its own charge of ε_j²/2: the event was charged Σ ε_j²/2, not (Σ ε_j)²/2.
        cost = zcdpSystem ? (event.attempts.size() > 1
                                 ? tr("cost ε = %1 over %2 levels (charged as ρ = Σ ε_j²/2 = %3)")
                                       .arg(formatBound(event.cost))
                                       .arg(event.attempts.size())
                                       .arg(formatBound(session::rhoChargedForPureEvent(event)))
                                 : tr("cost ε = %1 (charged as ρ = ε²/2 = %2)")
                                       .arg(formatBound(event.cost),
                                            formatBound(session::rhoChargedForPureEvent(event))))
                          : tr("cost ε = %1").arg(formatBound(event.cost));
        break;
    case filters::ChargeKind::ExPost:
        cost = tr("cost %1").arg(eventCostText(event));
        break;
    case filters::ChargeKind::BoundedRange: {
        // The exponential mechanism's picks: ε-DP each and ε-bounded-range, so a ρ-accounted
        // filter pays k·ε²/8 (Cesar & Rogers 2021), the Rényi filter the bounded-range curve.
        const filters::Charge paid
            = event.attempts.empty() ? filters::Charge{} : session::attemptCharge(event, 0);
        const QString picks = paid.count == 1 ? tr("1 pick") : tr("%1 picks").arg(paid.count);
        if (filter.primaryKind() == filters::ChargeKind::Rho && kind != filters::FilterKind::Advanced)
            cost = tr("cost ε = %1, %2 (bounded range: charged as ρ = k·ε²/8 = %3)")
                       .arg(formatBound(event.cost), picks,
                            formatBound(filters::boundedRangeRho(paid).amount));
        else if (kind == filters::FilterKind::Rdp)
            cost = tr("cost ε = %1, %2 (bounded range: charged its Rényi curve r_BR)")
                       .arg(formatBound(event.cost), picks);
        else
            cost = tr("cost ε = %1, %2").arg(formatBound(event.cost), picks);
        break;
    }
    }
    if (unified)
        cost += tr(" on the %1").arg(unifiedSideOf(event.costKind, kind));
    return cost;
}

void ResultCard::showRelease(const session::LedgerEvent &event, const filters::PrivacyFilter &filter,
                             const QString &spent)
{
    const auto &target = event.request.target;
    const std::string picks = report::selectionText(event);
    m_headline->setText(picks.empty() ? QStringLiteral("%1 ± %2").arg(formatNumber(event.answer, 6),
                                                                      formatNumber(event.errorBound, 3))
                                      : tr("%1  (count within %2 rows of the largest)")
                                            .arg(toQString(picks), formatNumber(event.errorBound, 3)));
    const QString caption = headlineCaption(event);
    const bool perValue = !caption.isEmpty();
    const QString met
        = QStringLiteral("<span style='color:%1'>%2</span>")
              .arg(event.targetMet ? palette::successText.name() : palette::warningText.name(),
                   (event.targetMet ? (perValue ? tr("✓ target %1 met by each value") : tr("✓ target %1 met"))
                                    : (perValue ? tr("✗ target %1 not proven for each value")
                                                : tr("✗ target %1 not proven")))
                       .arg(LedgerModel::describeTarget(target).toHtmlEscaped()));
    const bool unified = filter.kind() == filters::FilterKind::Unified;
    const int attempts = static_cast<int>(event.attempts.size());
    const QString attemptsText = attempts == 1 ? tr("1 attempt") : tr("%1 attempts").arg(attempts);
    // The cost in the unit it was charged in (event.costKind). The unified filter's spend names
    // both sides: it gets a line of its own.
    setGlossaryLinkedText(m_details, (perValue ? caption.toHtmlEscaped() + QStringLiteral("<br>") : QString())
                                         + tr("%1 confidence · %2<br>%3 · %4 · %5%6%7")
                                               .arg(formatConfidence(target.confidence).toHtmlEscaped(), met,
                                                    toQString(event.mechanismName()).toHtmlEscaped(),
                                                    attemptsText, costText(event, filter).toHtmlEscaped(),
                                                    unified ? QStringLiteral("<br>") : QStringLiteral(" · "),
                                                    spent.toHtmlEscaped()));
}

QString ResultCard::headline() const
{
    return m_headline->text();
}

QString ResultCard::details() const
{
    return plainTextOf(m_details->text());
}

QString ResultCard::note() const
{
    return plainTextOf(m_note->text());
}

QString ResultCard::noteToolTip() const
{
    return m_note->toolTip();
}

} // namespace pbx::ui
