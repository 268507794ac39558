// SPDX-License-Identifier: MIT
#include "ui/growing/growingrequestdialog.h"

#include "core/io/growing_request_json.h"
#include "core/session/growing/growing_nsg.h"
#include "core/session/growing/growing_release.h"
#include "core/session/growing/growing_smalldb.h"
#include "core/session/session.h"
#include "core/session/source_support.h"
#include "ui/growing/pmwgfields.h"
#include "ui/util/boundformat.h"
#include "ui/util/numberformat.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace pbx::ui {

GrowingRequestDialog::GrowingRequestDialog(QWidget *parent)
    : RequestDialog(tr("Growing-database stream"), parent)
{
    createStreamFields();
    createScheduleFields();
    createNsgFields();
    createModelFields();
    QFormLayout *form = buildForm();
    QDialogButtonBox *buttons = createButtons();
    connectFields();
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_status, 1);
    layout->addWidget(m_result, 1);
    layout->addWidget(buttons);
    finishConstruction(QSize(640, 760));
}

void GrowingRequestDialog::createStreamFields()
{
    m_id = new QLineEdit(this);
    m_id->setPlaceholderText(tr("automatic (q<n>)"));
    m_algorithm = new QComboBox(this);
    m_algorithm->addItem(tr("BBScheduler (epochs at n(1+γ)^i)"), QStringLiteral("bbscheduler"));
    m_algorithm->addItem(tr("BBImprover (a run every m rows, zCDP)"), QStringLiteral("bbimprover"));
    m_algorithm->addItem(tr("NSG (sparse vector: ⊤ answers above T)"), QStringLiteral("nsg"));
    m_algorithm->addItem(tr("ERMG (private logistic regression, zCDP)"), QStringLiteral("ermg"));
    m_algorithm->addItem(tr("SmallDBG (a synthetic database per epoch)"), QStringLiteral("smalldb"));
    m_algorithm->addItem(tr("PMWG (multiplicative weights over a public histogram)"), QStringLiteral("pmwg"));
    m_algorithm->setToolTip(tr("BBScheduler: fixed accuracy, a few epochs (Cummings et al. 2018, §3.1). "
                               "BBImprover: accuracy that improves as rows accumulate, a ρ_t charge per run "
                               "(Cummings et al. 2018, §3.2; zCDP or approx budgets only). ERMG: a "
                               "logistic regression on CPS1988's columns refitted and released with "
                               "Gaussian noise (zCDP). SmallDBG: SmallDB's synthetic database at each "
                               "epoch, with its answers to the 28 marginal cells (Cummings et al. 2018)"));
    m_start = new QSpinBox(this);
    m_start->setRange(1, 1000000000);
    m_start->setValue(1000);
    m_start->setToolTip(tr("n: the stream starts with this many rows (time = size)"));
    m_end = new QSpinBox(this);
    m_end->setRange(0, 1000000000);
    m_end->setSpecialValueText(tr("every row"));
    m_end->setToolTip(tr("The last time: the stream stops when this many rows have arrived"));
    m_order = new QLineEdit(QStringLiteral("random"), this);
    m_order->setToolTip(tr("\"random\" (a seeded permutation of the rows) or \"sorted:<predicate>\" (rows "
                           "not matching first, which makes staleness visible)"));
    m_seed = new QSpinBox(this);
    m_seed->setRange(0, 2000000000);
    m_seed->setValue(1);
    m_seed->setToolTip(tr("Seed of the arrival order (a public coin; it does not affect the privacy cost)"));
    m_budgetKind = new QComboBox(this);
    m_budgetKind->addItem(tr("pure ε"), QStringLiteral("pure"));
    m_budgetKind->addItem(tr("zCDP ρ"), QStringLiteral("zcdp"));
    m_budget = new QDoubleSpinBox(this);
    m_budget->setDecimals(5);
    m_budget->setRange(0.00001, 100.0);
    m_budget->setSingleStep(0.05);
    m_budget->setValue(0.5);
    m_budget->setToolTip(tr("What the whole (unbounded) series of epochs sums to at most"));
}

void GrowingRequestDialog::createScheduleFields()
{
    m_schedule = new QComboBox(this);
    for (const char *kind : {"geometric", "polynomial", "zcdp-equalised", "zcdp-geometric"})
        m_schedule->addItem(QString::fromLatin1(kind));
    m_gamma = new QDoubleSpinBox(this);
    m_gamma->setDecimals(4);
    m_gamma->setRange(0.001, 1000.0);
    m_gamma->setValue(1.0);
    m_gamma->setToolTip(tr("γ: epoch i starts at t_i = n(1+γ)^i"));
    m_decay = new QDoubleSpinBox(this);
    m_decay->setDecimals(3);
    m_decay->setRange(0.001, 0.999);
    m_decay->setSingleStep(0.05);
    m_decay->setValue(0.1);
    m_decay->setToolTip(tr("a: the run at t is charged ρ_t ∝ t^−(1+a); smaller a spends more later"));
    m_every = new QSpinBox(this);
    m_every->setRange(1, 1000000000);
    m_every->setValue(100);
    m_every->setToolTip(tr("m: a run at t = n, n+m, n+2m, …; its answers are held for m − 1 arrivals "
                           "(a session records at most 10,000 runs)"));
}

void GrowingRequestDialog::createNsgFields()
{
    m_nsgP = new QDoubleSpinBox(this);
    m_nsgP->setDecimals(3);
    m_nsgP->setRange(0.0, 1.0);
    m_nsgP->setSingleStep(0.1);
    m_nsgP->setValue(0.5);
    m_nsgP->setToolTip(tr("p: the noise unit σ(t) = σ_n (n/t)^p (p = 1 only with a constant cap)"));
    m_nsgT = new QDoubleSpinBox(this);
    m_nsgT->setDecimals(3);
    m_nsgT->setRange(0.0, 1.0);
    m_nsgT->setSingleStep(0.05);
    m_nsgT->setValue(0.3);
    m_nsgT->setToolTip(tr("T: a query whose noisy fraction reaches T is hard (⊤) and answered numerically"));
    m_nsgCapKind = new QComboBox(this);
    m_nsgCapKind->addItem(tr("time cap c₀ (H(t) grows like ln t)"), QStringLiteral("time"));
    m_nsgCapKind->addItem(tr("constant cap c"), QStringLiteral("constant"));
    m_nsgCap = new QDoubleSpinBox(this);
    m_nsgCap->setDecimals(2);
    m_nsgCap->setRange(0.01, 100000.0);
    m_nsgCap->setValue(10.0);
    m_nsgCap->setToolTip(tr("The cap on ⊤ answers, mandatory for NSG's privacy"));
    m_nsgCheckpoints = new QSpinBox(this);
    m_nsgCheckpoints->setRange(1, 10000);
    m_nsgCheckpoints->setValue(40);
    m_nsgCheckpoints->setToolTip(tr("Evenly spaced times from n to the end at which every query is asked"));
}

void GrowingRequestDialog::createModelFields()
{
    m_ermSchedule = new QComboBox(this);
    m_ermSchedule->addItem(tr("improver (a release every m rows)"), QStringLiteral("improver"));
    m_ermSchedule->addItem(QStringLiteral("zcdp-equalised"), QStringLiteral("zcdp-equalised"));
    m_ermSchedule->addItem(QStringLiteral("zcdp-geometric"), QStringLiteral("zcdp-geometric"));
    m_ermSchedule->setToolTip(tr("When the model is refitted and released: BBImprover's grid (ρ_t ∝ "
                                 "t^−(1+a)) or BBScheduler's epochs n(1+γ)^i under a zCDP schedule"));
    m_ermLambda = new QDoubleSpinBox(this);
    m_ermLambda->setDecimals(4);
    m_ermLambda->setRange(0.0001, 100.0);
    m_ermLambda->setSingleStep(0.01);
    m_ermLambda->setValue(0.01);
    m_ermLambda->setToolTip(tr("λ: the L2 regulariser; the release's sensitivity is 2/(tλ) + 2·tol/λ "
                               "(Chaudhuri, Monteleoni & Sarwate 2011)"));
    m_ermTol = new QComboBox(this);
    for (const char *tol : {"1e-10", "1e-8", "1e-6", "1e-4"})
        m_ermTol->addItem(QString::fromLatin1(tol), QString::fromLatin1(tol).toDouble());
    m_ermTol->setToolTip(tr("Newton's gradient tolerance: the fit is paid for in the sensitivity (2·tol/λ)"));
    m_smallDbSize = new QSpinBox(this);
    m_smallDbSize->setRange(1, 255);
    m_smallDbSize->setValue(8);
    m_smallDbSize->setToolTip(tr("m: the synthetic database's rows, drawn from the 16 cells region × smsa × "
                                 "parttime; the exact sampler enumerates C(15+m, m) candidates (at most "
                                 "5·10⁶: m ≤ 10). Its 28 answers are the one- and two-way marginal cells"));
    m_beta = new QDoubleSpinBox(this);
    m_beta->setDecimals(4);
    m_beta->setRange(0.0001, 0.9999);
    m_beta->setValue(0.05);
    m_beta->setToolTip(tr("β: the bounds hold simultaneously with probability ≥ 1 − β"));
    m_queries = new QPlainTextEdit(this);
    m_queries->setPlainText(QStringLiteral("region == \"south\"\nethnicity == \"afam\""));
    m_queries->setToolTip(tr("Counting predicates, one per line: the Laplace-k box answers each as a "
                             "fraction of the rows seen so far"));
    m_queries->setMaximumHeight(90);
}

QFormLayout *GrowingRequestDialog::buildForm()
{
    auto *form = new QFormLayout;
    m_form = form;
    form->addRow(tr("Request id"), m_id);
    form->addRow(tr("Algorithm"), m_algorithm);
    form->addRow(tr("Start size n"), m_start);
    form->addRow(tr("End"), m_end);
    form->addRow(tr("Arrival order"), m_order);
    form->addRow(tr("Order seed"), m_seed);
    form->addRow(tr("Budget kind"), m_budgetKind);
    form->addRow(tr("Series budget"), m_budget);
    form->addRow(tr("Schedule"), m_schedule);
    form->addRow(tr("Release schedule"), m_ermSchedule);
    form->addRow(tr("γ"), m_gamma);
    form->addRow(tr("Decay a"), m_decay);
    form->addRow(tr("Every m rows"), m_every);
    form->addRow(tr("Noise exponent p"), m_nsgP);
    form->addRow(tr("Threshold T"), m_nsgT);
    form->addRow(tr("Cap"), m_nsgCapKind);
    form->addRow(tr("Cap value"), m_nsgCap);
    form->addRow(tr("Checkpoints"), m_nsgCheckpoints);
    form->addRow(tr("Regulariser λ"), m_ermLambda);
    form->addRow(tr("Tolerance"), m_ermTol);
    form->addRow(tr("Synthetic rows m"), m_smallDbSize);
    m_pmwg = new PmwgFields(this);
    form->addRow(tr("PMWG"), m_pmwg);
    connect(m_pmwg, &PmwgFields::changed, this, &GrowingRequestDialog::refresh);
    form->addRow(tr("β"), m_beta);
    form->addRow(tr("Queries"), m_queries);
    return form;
}

QDialogButtonBox *GrowingRequestDialog::createButtons()
{
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return RequestDialog::createButtons(m_result);
}

void GrowingRequestDialog::connectFields()
{
    for (auto *spin : {m_start, m_end, m_seed, m_every, m_nsgCheckpoints, m_smallDbSize})
        connect(spin, &QSpinBox::valueChanged, this, &GrowingRequestDialog::refresh);
    for (auto *spin : {m_budget, m_gamma, m_beta, m_decay, m_nsgP, m_nsgT, m_nsgCap, m_ermLambda})
        connect(spin, &QDoubleSpinBox::valueChanged, this, &GrowingRequestDialog::refresh);
    for (auto *combo : {m_budgetKind, m_schedule, m_nsgCapKind, m_ermSchedule, m_ermTol})
        connect(combo, &QComboBox::currentIndexChanged, this, &GrowingRequestDialog::refresh);
    connect(m_algorithm, &QComboBox::currentIndexChanged, this, [this] {
        // BBImprover refuses a pure budget (its accuracy would get worse): offer zCDP instead.
        // ERMG's noise is Gaussian: zCDP too.
        const QString algorithm = m_algorithm->currentData().toString();
        if ((algorithm == QStringLiteral("bbimprover") || algorithm == QStringLiteral("ermg"))
            && m_budgetKind->currentData().toString() == QStringLiteral("pure"))
            m_budgetKind->setCurrentIndex(m_budgetKind->findData(QStringLiteral("zcdp")));
        refresh();
    });
    connect(m_order, &QLineEdit::textChanged, this, &GrowingRequestDialog::refresh);
    connect(m_queries, &QPlainTextEdit::textChanged, this, &GrowingRequestDialog::refresh);
}

Result<session::QueryRequest> GrowingRequestDialog::request() const
{
    // The run-file line this dialog stands for, read by the same reader (same codes and ranges).
    using io::json::Json;
    Json queries = Json::array();
    for (const QString &line : m_queries->toPlainText().split(u'\n', Qt::SkipEmptyParts))
        if (!line.trimmed().isEmpty())
            queries.push_back(line.trimmed().toStdString());
    const QString kind = m_budgetKind->currentData().toString();
    Json budget{{"kind", kind.toStdString()}};
    budget[kind == QStringLiteral("zcdp") ? "rho" : "epsilon"] = m_budget->value();
    Json stream{{"start_size", std::uint64_t(m_start->value())},
                {"order", m_order->text().trimmed().toStdString()},
                {"seed", std::uint64_t(m_seed->value())}};
    if (m_end->value() > 0)
        stream["end"] = std::uint64_t(m_end->value());
    const bool improver = m_algorithm->currentData().toString() == QStringLiteral("bbimprover");
    if (m_algorithm->currentData().toString() == QStringLiteral("ermg")
        || m_algorithm->currentData().toString() == QStringLiteral("smalldb")) {
        const bool ermg = m_algorithm->currentData().toString() == QStringLiteral("ermg");
        const QString ermSchedule = m_ermSchedule->currentData().toString();
        Json modelLine{{"type", "growing"},
                       {"algorithm", ermg ? "ermg" : "smalldb"},
                       {"stream", std::move(stream)},
                       {"budget", std::move(budget)},
                       {"beta", m_beta->value()}};
        if (ermg) {
            modelLine["schedule"]
                = ermSchedule == QStringLiteral("improver")
                      ? Json{{"kind", "improver"},
                             {"a", m_decay->value()},
                             {"every", std::uint64_t(m_every->value())}}
                      : Json{{"kind", ermSchedule.toStdString()}, {"gamma", m_gamma->value()}};
            modelLine["erm"]
                = Json{{"lambda", m_ermLambda->value()}, {"tol", m_ermTol->currentData().toDouble()}};
        } else {
            modelLine["schedule"]
                = Json{{"kind", m_schedule->currentText().toStdString()}, {"gamma", m_gamma->value()}};
            modelLine["black_box"] = Json{{"kind", "smalldb"}, {"m", std::uint64_t(m_smallDbSize->value())}};
        }
        if (!m_id->text().trimmed().isEmpty())
            modelLine["id"] = m_id->text().trimmed().toStdString();
        return io::readGrowingRequest(modelLine, "request");
    }
    if (m_algorithm->currentData().toString() == QStringLiteral("pmwg")) {
        Json pmwgLine{{"type", "growing"},           {"algorithm", "pmwg"},     {"stream", std::move(stream)},
                      {"budget", std::move(budget)}, {"pmwg", m_pmwg->block()}, {"beta", m_beta->value()}};
        if (!m_id->text().trimmed().isEmpty())
            pmwgLine["id"] = m_id->text().trimmed().toStdString();
        return io::readGrowingRequest(pmwgLine, "request");
    }
    if (m_algorithm->currentData().toString() == QStringLiteral("nsg")) {
        const bool time = m_nsgCapKind->currentData().toString() == QStringLiteral("time");
        Json nsgLine{{"type", "growing"},
                     {"algorithm", "nsg"},
                     {"stream", std::move(stream)},
                     {"budget", std::move(budget)},
                     {"nsg", Json{{"p", m_nsgP->value()},
                                  {"T", m_nsgT->value()},
                                  {"cap", Json{{"kind", time ? "time" : "constant"},
                                               {time ? "c0" : "c", m_nsgCap->value()}}},
                                  {"queries", std::move(queries)},
                                  {"checkpoints", std::uint64_t(m_nsgCheckpoints->value())}}},
                     {"beta", m_beta->value()}};
        if (!m_id->text().trimmed().isEmpty())
            nsgLine["id"] = m_id->text().trimmed().toStdString();
        return io::readGrowingRequest(nsgLine, "request");
    }
    Json line{{"type", "growing"},
              {"algorithm", improver ? "bbimprover" : "bbscheduler"},
              {"stream", std::move(stream)},
              {"budget", std::move(budget)},
              {"schedule",
               improver
                   ? Json{{"a", m_decay->value()}, {"every", std::uint64_t(m_every->value())}}
                   : Json{{"kind", m_schedule->currentText().toStdString()}, {"gamma", m_gamma->value()}}},
              {"black_box", Json{{"kind", "laplace-k"}, {"queries", std::move(queries)}}},
              {"beta", m_beta->value()}};
    if (!m_id->text().trimmed().isEmpty())
        line["id"] = m_id->text().trimmed().toStdString();
    return io::readGrowingRequest(line, "request");
}

void GrowingRequestDialog::refresh()
{
    const QString algorithm = m_algorithm->currentData().toString();
    const bool ermg = algorithm == QStringLiteral("ermg");
    const bool smalldb = algorithm == QStringLiteral("smalldb");
    const bool ermImprover = ermg && m_ermSchedule->currentData().toString() == QStringLiteral("improver");
    const bool improver = algorithm == QStringLiteral("bbimprover") || ermImprover;
    const bool nsg = algorithm == QStringLiteral("nsg");
    const bool pmwg = algorithm == QStringLiteral("pmwg");
    m_form->setRowVisible(m_schedule, !improver && !nsg && !ermg && !pmwg);
    m_form->setRowVisible(m_gamma, !improver && !nsg && !pmwg);
    m_form->setRowVisible(m_pmwg, pmwg);
    m_form->setRowVisible(m_decay, improver);
    m_form->setRowVisible(m_every, improver);
    m_form->setRowVisible(m_ermSchedule, ermg);
    m_form->setRowVisible(m_ermLambda, ermg);
    m_form->setRowVisible(m_ermTol, ermg);
    m_form->setRowVisible(m_smallDbSize, smalldb);
    // ERMG and SmallDBG run on CPS1988's own columns, PMWG draws its conjunctions from the order
    // seed: no predicates.
    m_form->setRowVisible(m_queries, !ermg && !smalldb && !pmwg);
    for (QWidget *w :
         std::initializer_list<QWidget *>{m_nsgP, m_nsgT, m_nsgCapKind, m_nsgCap, m_nsgCheckpoints})
        m_form->setRowVisible(w, nsg);
    const bool replace = m_session && m_session->settings().neighbours == data::Neighbouring::Replace;
    auto r = request();
    Result<void> fits
        = r ? (m_session ? session::checkRequestOnSource(*r, m_session->table(), m_session->source().kind())
                         : Result<void>())
            : Result<void>(r.error());
    if (fits && m_session) // what the source cannot answer (a database table) is said first, as ask() does
        fits = session::checkGrowingRequest(*r, m_session->table(), m_session->settings());
    m_ask->setEnabled(replace && r.ok() && fits.ok());
    if (!m_session) {
        m_status->setText(tr("No session: open a dataset first."));
        return;
    }
    if (!fits) {
        m_status->setText(QString::fromStdString(fits.error().message));
        return;
    }
    if (pmwg) {
        m_status->setText(PmwgFields::planText(*r, *m_session));
        return;
    }
    if (nsg) {
        // No fixed runs: a round opens at the first query after each ⊤ and is charged then.
        const auto &spec = *r->growing();
        auto unit = session::growingNsgUnit(spec);
        if (!unit) {
            m_status->setText(QString::fromStdString(unit.error().message));
            return;
        }
        const auto first = session::nsgRoundCharge(spec, *unit, spec.startSize);
        const std::uint64_t end = *session::growingStreamEnd(spec, m_session->table());
        const growing::HardQueryCap cap{spec.nsgCapKind == session::NsgCapKind::Time, spec.nsgCap};
        const QString symbol = QString::fromStdString(std::string(filters::chargeUnitSymbol(first.kind)));
        m_status->setText(
            tr("%1 checkpoints from t = %2 to %3, each asking every query. A round opens at the first query "
               "after each ⊤ answer and is charged its whole worst case then: the first %4 = %5, later ones "
               "less (f(s) shrinks as rows arrive). At most %6 ⊤ answers by the end (the cap); the charges' "
               "worst case over all transcripts is %4 = %7. σ_n = %8. Session budget left: %9 = %10.")
                .arg(spec.nsgCheckpoints)
                .arg(spec.startSize)
                .arg(end)
                .arg(symbol, formatNumber(first.amount, 4))
                .arg(cap.at(spec.startSize, end))
                .arg(formatNumber(session::nsgChargeWorstCase(spec, *unit), 4), formatNumber(unit->sigmaN, 4),
                     QString::fromStdString(std::string(m_session->filter().unitSymbol())),
                     formatNumber(m_session->filter().remaining(), 4)));
        return;
    }
    auto plan = session::growingRunPlan(*r->growing(), m_session->table());
    if (!plan) {
        m_status->setText(QString::fromStdString(plan.error().message));
        return;
    }
    const QString unit = ermg ? tr("release") : improver ? tr("run") : tr("epoch");
    const QString units = ermg ? tr("releases") : improver ? tr("runs") : tr("epochs");
    QStringList lines;
    double total = 0.0;
    const std::size_t shown = std::min<std::size_t>(plan->size(), 6);
    for (const auto &run : *plan)
        total += run.charge.amount;
    for (std::size_t i = 0; i < shown; ++i) {
        const auto &run = (*plan)[i];
        lines << tr("%1 %2: t = %3 … %4, %5 = %6, bound ±%7")
                     .arg(unit)
                     .arg(i)
                     .arg(run.start)
                     .arg(run.last)
                     .arg(QString::fromStdString(std::string(filters::chargeUnitSymbol(run.charge.kind))),
                          formatNumber(run.charge.amount, 4), formatNumber(run.bound, 3));
    }
    if (plan->size() > shown)
        lines << tr("… %1 more, the last at t = %2 (bound ±%3)")
                     .arg(plan->size() - shown)
                     .arg(plan->back().start)
                     .arg(formatNumber(plan->back().bound, 3));
    m_status->setText(
        tr("%1, each charged to the filter when it starts (a refusal stops the stream and "
           "keeps what was released); together %2 = %3. Session budget left: %4 = %5.\n%6")
            .arg(formatCount(static_cast<qint64>(plan->size()), unit, units),
                 QString::fromStdString(std::string(filters::chargeUnitSymbol(plan->front().charge.kind))),
                 formatNumber(total, 4),
                 QString::fromStdString(std::string(m_session->filter().unitSymbol())),
                 formatNumber(m_session->filter().remaining(), 4), lines.join(u'\n')));
}

void GrowingRequestDialog::showOutcome(const session::LedgerEvent &event)
{
    if (!event.request.growing())
        return;
    if (event.status != session::EventStatus::Released || !event.growingRecord()) {
        m_result->setText(
            tr("%1 refused: %2")
                .arg(QString::fromStdString(event.request.id), QString::fromStdString(event.reason)));
        refresh();
        return;
    }
    QStringList lines;
    const auto &r = *event.growingRecord();
    if (r.pmwg)
        lines << PmwgFields::outcomeLines(event);
    if (r.nsg) {
        for (std::size_t i = 0; i < r.nsg->rounds.size(); ++i) {
            if (r.nsg->rounds.size() > 6 && i == 3) {
                lines << tr("… %1 more").arg(r.nsg->rounds.size() - 6);
                i = r.nsg->rounds.size() - 4;
                continue;
            }
            QString text = QString::fromStdString(session::growingEpochLabel(event, i));
            if (i < r.nsg->hard.size())
                text += tr(" — query %1: %2")
                            .arg(r.nsg->hard[i].query)
                            .arg(formatNumber(r.nsg->hard[i].answer, 4));
            lines << text;
        }
    }
    for (std::size_t i = 0; i < r.epochs.size(); ++i) {
        // A long BBImprover stream: the first and last three runs (the attempts view lists them all).
        if (r.epochs.size() > 6 && i == 3) {
            lines << tr("… %1 more").arg(r.epochs.size() - 6);
            i = r.epochs.size() - 4;
            continue;
        }
        QStringList answers;
        for (double a : r.epochs[i].answers)
            answers << formatNumber(a, 4);
        const session::GrowingAlgorithm algorithm = event.request.growing()->algorithm;
        if (algorithm == session::GrowingAlgorithm::SmallDb) // the synthetic database; its 28 answers are in
                                                             // the attempts view
            lines << tr("%1 — %2").arg(QString::fromStdString(session::growingEpochLabel(event, i)),
                                       QString::fromStdString(session::smallDbDatabaseText(r.epochs[i])));
        else if (algorithm == session::GrowingAlgorithm::Ermg)
            lines << tr("%1 — θ = %2")
                         .arg(QString::fromStdString(session::growingEpochLabel(event, i)),
                              answers.join(QStringLiteral(", ")));
        else
            lines << tr("%1 — answers %2")
                         .arg(QString::fromStdString(session::growingEpochLabel(event, i)),
                              answers.join(QStringLiteral(", ")));
    }
    if (!event.reason.empty())
        lines << QString::fromStdString(event.reason);
    m_result->setText(tr("%1: charged %2 = %3\n%4")
                          .arg(QString::fromStdString(event.request.id),
                               QString::fromStdString(std::string(filters::chargeUnitSymbol(event.costKind))),
                               formatBound(event.cost, 6), lines.join(u'\n')));
    refresh();
}

void GrowingRequestDialog::setAlgorithm(const QString &algorithm)
{
    if (const int i = m_algorithm->findData(algorithm); i >= 0)
        m_algorithm->setCurrentIndex(i);
}

void GrowingRequestDialog::setNsg(double p, double threshold, const QString &capKind, double cap,
                                  int checkpoints)
{
    m_nsgP->setValue(p);
    m_nsgT->setValue(threshold);
    if (const int i = m_nsgCapKind->findData(capKind); i >= 0)
        m_nsgCapKind->setCurrentIndex(i);
    m_nsgCap->setValue(cap);
    m_nsgCheckpoints->setValue(checkpoints);
}

void GrowingRequestDialog::setErm(const QString &schedule, double lambda, double tol)
{
    if (const int i = m_ermSchedule->findData(schedule); i >= 0)
        m_ermSchedule->setCurrentIndex(i);
    m_ermLambda->setValue(lambda);
    if (const int i = m_ermTol->findData(tol); i >= 0)
        m_ermTol->setCurrentIndex(i);
}

void GrowingRequestDialog::setSmallDbSize(int m)
{
    m_smallDbSize->setValue(m);
}

void GrowingRequestDialog::setImproverSchedule(double a, int every)
{
    m_decay->setValue(a);
    m_every->setValue(every);
}

void GrowingRequestDialog::setStartSize(int n)
{
    m_start->setValue(n);
}

void GrowingRequestDialog::setEnd(int end)
{
    m_end->setValue(end);
}

void GrowingRequestDialog::setSeed(int seed)
{
    m_seed->setValue(seed);
}

void GrowingRequestDialog::setBudget(const QString &kind, double value)
{
    if (const int i = m_budgetKind->findData(kind); i >= 0)
        m_budgetKind->setCurrentIndex(i);
    m_budget->setValue(value);
}

void GrowingRequestDialog::setSchedule(const QString &kind, double gamma)
{
    if (const int i = m_schedule->findText(kind); i >= 0)
        m_schedule->setCurrentIndex(i);
    m_gamma->setValue(gamma);
}

void GrowingRequestDialog::setQueries(const QStringList &predicates)
{
    m_queries->setPlainText(predicates.join(u'\n'));
}

QString GrowingRequestDialog::planText() const
{
    return m_status->text();
}

} // namespace pbx::ui
