// SPDX-License-Identifier: MIT
#include "ui/growing/growinglabeditor.h"

#include "core/growing/bb_scheduler.h"
#include "core/growing/growing_lab.h"
#include "core/io/growing_lab_json.h"
#include "ui/widgets/scientificspinbox.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QPushButton>
#include <QSpinBox>

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

} // namespace

GrowingLabEditor::GrowingLabEditor(QWidget *parent) : QWidget(parent)
{
    createWidgets();
    createLayout();
    connectSignals();
}

QStringList GrowingLabEditor::predicates()
{
    QStringList out;
    for (const char *q : kQueries)
        out << QString::fromUtf8(q);
    return out;
}

QString GrowingLabEditor::algorithm() const
{
    return m_algorithm->currentData().toString();
}

bool GrowingLabEditor::isSmallDb() const
{
    return algorithm() == QStringLiteral("bbscheduler")
           && m_box->currentData().toString() == QStringLiteral("smalldb");
}

double GrowingLabEditor::horizonEnd() const
{
    return double(m_horizon->value()) + 1.0;
}

void GrowingLabEditor::createWidgets()
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
}

void GrowingLabEditor::createLayout()
{
    auto *gammaLayout = new QHBoxLayout(m_gammaRow);
    gammaLayout->setContentsMargins(0, 0, 0, 0);
    gammaLayout->addWidget(m_gamma, 1);
    gammaLayout->addWidget(m_optimalGamma);
    m_form = new QFormLayout(this);
    m_form->setContentsMargins(0, 0, 0, 0);
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
    // The form's rows of one algorithm only (at most one more than any other algorithm's) are left
    // out of its natural height (the dialog's editor keeps that height; the panels scroll instead).
    for (QWidget *row : {static_cast<QWidget *>(m_smallDbM), static_cast<QWidget *>(m_nsgC0),
                         static_cast<QWidget *>(m_nsgThreshold), static_cast<QWidget *>(m_every)})
        m_form->setRowVisible(row, false);
}

void GrowingLabEditor::connectSignals()
{
    connect(m_algorithm, &QComboBox::currentIndexChanged, this, [this] {
        // BBImprover is analysed in zCDP: offer a zCDP budget instead of the core's refusal.
        const QString chosen = algorithm();
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
            Q_EMIT kindChanged();
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
        Q_EMIT kindChanged();
    });
    for (QSpinBox *s : {m_startSize, m_horizon, m_queries, m_repetitions, m_seed, m_smallDbM, m_every})
        connect(s, &QSpinBox::valueChanged, this, &GrowingLabEditor::valueChanged);
    for (QDoubleSpinBox *s : {m_gamma, m_decay, m_epsilon, m_rho, static_cast<QDoubleSpinBox *>(m_delta),
                              m_beta, m_nsgC0, m_nsgThreshold})
        connect(s, &QDoubleSpinBox::valueChanged, this, &GrowingLabEditor::valueChanged);
    connect(m_sorted, &QCheckBox::toggled, this, &GrowingLabEditor::valueChanged);
    connect(m_optimalGamma, &QPushButton::clicked, this, [this] {
        if (m_optimalGammaValue > 0.0)
            m_gamma->setValue(m_optimalGammaValue);
    });
}

void GrowingLabEditor::updateVisibility()
{
    const QString algorithm = this->algorithm();
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
}

QString GrowingLabEditor::explanation() const
{
    const QString algorithm = this->algorithm();
    if (isSmallDb())
        return tr("SmallDBG: BBScheduler with SmallDB as its black box. Each epoch releases a small "
                  "database of m rows drawn by the exponential mechanism (exactly, by enumerating every "
                  "multiset) and answers the 28 one- and two-way marginal cells of region × SMSA × "
                  "part-time from it until the next epoch. No m-row database can beat the best achievable "
                  "maximum error, so the measured error is drawn against it.");
    if (algorithm == QStringLiteral("nsg"))
        return tr("NSG: the sparse vector on a growing database. Counting queries are compared with a noisy "
                  "threshold T; a hard answer (⊤) is released with fresh noise and opens a new round. The "
                  "cap H(t) = ⌊c₀(1 + H_t − H_n)⌋ on hard answers is enforced, so the worst-case privacy "
                  "holds whatever the data; the realised loss is charged at the hard answers' times.");
    if (algorithm == QStringLiteral("ermg"))
        return tr("ERMG: BBImprover with a private empirical-risk minimiser as its box: L2-regularised "
                  "logistic regression on CPS1988 (wage ≥ 500, nine public-bounded features), released by "
                  "output perturbation with Gaussian noise σ_t (Chaudhuri, Monteleoni & Sarwate 2011), one "
                  "fit every m arrivals. It needs a zCDP or (ε, δ) budget.");
    if (algorithm == QStringLiteral("bbscheduler"))
        return tr("BBScheduler (Cummings et al. 2018, §3): epoch i starts at t_i = n(1+γ)^i and runs the "
                  "black box once on the rows so far at ε_i; its answers are held until the next epoch, so "
                  "the error is the black box's α_i plus the staleness s_i = 1 − t_i/t_{i+1}. Σε_i "
                  "converges to the budget, so it holds whatever the horizon. The optimal γ minimises the "
                  "first epoch's bound.");
    if (algorithm == QStringLiteral("pmwg"))
        return tr("PMWG (Cummings et al. 2018, §4): easy queries are answered from a public histogram for "
                  "free; a hard one (a sparse-vector positive) pays and corrects the histogram by a "
                  "multiplicative-weights step. The cap H(t) = ⌊c₀(1 + H_t − H_n)⌋ on hard queries is "
                  "enforced, so the worst case holds even when accuracy fails (practical-mode constants "
                  "c₀ = 40, T = 0.05, η = 0.3, p = ½).");
    return tr("BBImprover (Cummings et al. 2018, §3.2): the black box runs at every step t with "
              "ρ_t = ρ/(Z_a(n)·t^{1+a}), which sums to at most ρ over an unbounded horizon; its bound "
              "shrinks like t^{−(1−a)/2} but starts far worse than BBScheduler's. It needs a zCDP or "
              "(ε, δ) budget.");
}

void GrowingLabEditor::updateOptimalGamma()
{
    const bool scheduler = algorithm() == QStringLiteral("bbscheduler");
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
}

Json GrowingLabEditor::configDocument(bool simulate) const
{
    const QString algorithm = this->algorithm();
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

} // namespace pbx::ui
