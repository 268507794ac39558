// SPDX-License-Identifier: MIT
#include "ui/panels/querybuilder.h"

#include "core/data/query.h"
#include "ui/charts/presentation.h"
#include "ui/util/numberformat.h"
#include "ui/util/palette.h"
#include "ui/util/privacytext.h"
#include "ui/widgets/buttonrow.h"
#include "ui/widgets/scientificspinbox.h"
#include "ui/widgets/typedinput.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>

namespace pbx::ui {

namespace {

constexpr int kAbsolute = static_cast<int>(session::TargetKind::Absolute);
constexpr int kRelative = static_cast<int>(session::TargetKind::Relative);
/// The mechanism combo's data for "the filter's default".
constexpr int kDefaultMechanism = -1;

constexpr session::ReleaseMethod kMechanismOrder[]
    = {session::ReleaseMethod::Brownian,         session::ReleaseMethod::LaplaceNr,
       session::ReleaseMethod::DoublingGaussian, session::ReleaseMethod::DoublingLaplace,
       session::ReleaseMethod::Gaussian,         session::ReleaseMethod::Laplace};

} // namespace

QueryBuilder::QueryBuilder(QWidget *parent) : QWidget(parent)
{
    createWidgets();
    createLayout();
    m_typedInput = new TypedInput(this);
    connectSignals();
    setUnitSymbol(m_unit);
    setTable(nullptr);
    updateMechanisms();
}

void QueryBuilder::createWidgets()
{
    m_aggregate = new QComboBox(this);
    m_aggregate->addItem(tr("count"), static_cast<int>(data::Aggregate::Count));
    m_aggregate->addItem(tr("sum"), static_cast<int>(data::Aggregate::Sum));
    m_aggregate->addItem(tr("mean"), static_cast<int>(data::Aggregate::Mean));
    m_aggregate->setToolTip(tr("count: matching rows; sum / mean: of a numeric column over the "
                               "matching rows, each value clipped to the bounds"));
    m_column = new QComboBox(this);
    m_column->setMinimumContentsLength(10);
    m_column->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_column->setToolTip(tr("Numeric column to aggregate"));
    m_columnLabel = new QLabel(tr("of"), this);
    m_lower = new ScientificSpinBox(this);
    m_upper = new ScientificSpinBox(this);
    for (ScientificSpinBox *box : {m_lower, m_upper}) {
        box->setRange(-1e15, 1e15);
        box->setSingleStep(1.0);
        box->setMinimumWidth(70);
        box->setMaximumWidth(120);
        box->setToolTip(tr("Clipping bounds: each value is clamped to [lower, upper] before it "
                           "is added. They fix how much one row can move the answer (the "
                           "sensitivity), so wider bounds mean more noise. They default to the "
                           "column's declared (public) bounds; never choose them by looking at "
                           "the data."));
    }
    m_lower->setAccessibleName(tr("Lower clipping bound"));
    m_upper->setAccessibleName(tr("Upper clipping bound"));
    m_boundsLabel = new QLabel(tr("clipped to"), this);
    m_boundsLabel->setObjectName(QStringLiteral("boundsLabel"));

    m_where = new QLineEdit(this);
    m_where->setPlaceholderText(tr("all rows, or e.g.  region == \"south\" and education >= 12"));
    m_where->setClearButtonEnabled(true);
    m_where->setToolTip(tr("<p>Which rows to aggregate. Compare numeric columns with numbers "
                           "(== != &lt; &lt;= &gt; &gt;=) and categorical columns with quoted "
                           "labels (== !=); combine with and, or, not and parentheses. Empty = "
                           "every row.</p>"));
    m_whereStatus = new QLabel(this);
    m_whereStatus->setWordWrap(true);
    m_whereStatus->setTextFormat(Qt::PlainText);
    // Hints a little smaller than the fields, scaled with them in presentation mode.
    constexpr double kHintFont = 0.92;
    setRelativeFont(m_whereStatus, kHintFont);

    m_targetKind = new QComboBox(this);
    m_targetKind->addItem(tr("absolute ±"), kAbsolute);
    m_targetKind->addItem(tr("relative ±%"), kRelative);
    m_targetKind->setToolTip(tr("<p><b>Absolute</b>: the answer within ±a of the true value. "
                                "<b>Relative</b>: within ±α·|answer|; the app releases less and "
                                "less noisy answers until the released values prove the target "
                                "(noise reduction pays only the last level; doubling pays every "
                                "level).</p>"));
    m_targetValue = new ScientificSpinBox(this);
    m_targetValue->setRange(1e-9, 1e15);
    m_targetValue->setValue(m_absoluteValue);
    m_targetValue->setAccessibleName(tr("Accuracy target"));
    m_targetValue->setMinimumWidth(90);
    m_targetValue->setMaximumWidth(130);
    m_confidence = new ScientificSpinBox(this);
    m_confidence->setRange(50.0, 99.999);
    m_confidence->setSingleStep(1.0);
    m_confidence->setValue(95.0);
    m_confidence->setMaximumWidth(90);
    m_confidence->setSuffix(QStringLiteral(" %"));
    m_confidence->setAccessibleName(tr("Confidence"));
    m_confidence->setToolTip(tr("Probability (1 − β) that the true value lies within the error "
                                "bound"));
    m_mechanism = new QComboBox(this);
    m_mechanism->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    // 18 characters at least (it grows to the row's width for the longer names): with 20 the query
    // needed 407 px where a 1024-px window leaves 403 beside a vertical scroll bar.
    m_mechanism->setMinimumContentsLength(18);
    m_mechanism->addItem(QString(), kDefaultMechanism);
    for (session::ReleaseMethod kind : kMechanismOrder)
        m_mechanism->addItem(mechanismLabel(kind), static_cast<int>(kind));
    m_mechanism->setToolTip(tr("<p>How the noise is added. <b>Noise reduction</b> (Laplace or "
                               "Brownian) releases ever less noisy answers from one noise path "
                               "and pays only for the last one; <b>doubling</b> draws fresh noise "
                               "at each level and pays for every level; a <b>single release</b> "
                               "is calibrated to an absolute target. Only mechanisms the "
                               "session's filter can account are enabled.</p>"));
    m_capEnabled = new QCheckBox(tr("Max per query"), this);
    m_cap = new ScientificSpinBox(this);
    m_cap->setRange(1e-9, 1e6);
    m_cap->setValue(0.1);
    m_cap->setMultiplicativeStep(2.0);
    m_cap->setAccessibleName(tr("Max per query"));
    m_cap->setEnabled(false);
    m_cap->setMinimumWidth(72);
    m_capUnit = new QLabel(this);
    m_capUnit->setWordWrap(true); // "ex-post / ε" on two lines rather than Ask cut at 1024 px

    m_ask = new QPushButton(tr("Ask"), this);
    m_ask->setDefault(true);
    m_ask->setAutoDefault(true);
    m_ask->setMinimumWidth(80);
    m_ask->setToolTip(tr("Release a noisy answer and charge its privacy cost (Enter in the "
                         "predicate field does the same). Spent privacy cannot be taken back."));
    setRelativeFont(m_ask, 1.0, QFont::Bold);

    m_mechanismHint = new QLabel(this);
    m_mechanismHint->setTextFormat(Qt::PlainText);
    setRelativeFont(m_mechanismHint, kHintFont);
    m_mechanismHint->setStyleSheet(palette::labelColourStyle(palette::mutedText));
    m_planned = new QSpinBox(this);
    m_planned->setObjectName(QStringLiteral("plannedQueries"));
    m_planned->setRange(1, 1000000);
    m_planned->setValue(10);
    m_planned->setPrefix(tr("plan "));
    // Narrower than "plan 1000000" needs when room is short: that width made the limit row, and
    // so the query, scroll sideways at 1024 px beside the lessons.
    m_planned->setMinimumWidth(84);
    m_planned->setAccessibleName(tr("Planned queries"));
    m_planned->setToolTip(tr(
        "Plan for N more queries. Without “Max per query”, a request answered by doubling or noise reduction may "
        "spend at most the remaining budget divided by this number, so that one "
        "request cannot eat the whole budget"));
    m_plannedPreview = new QLabel(this);
    m_plannedPreview->setObjectName(QStringLiteral("plannedCapPreview"));
    m_plannedPreview->setStyleSheet(palette::labelColourStyle(palette::mutedText));
    setRelativeFont(m_plannedPreview, kHintFont);
    m_costPreview = new QLabel(this);
    m_costPreview->setObjectName(QStringLiteral("costPreview"));
    m_costPreview->setStyleSheet(palette::labelColourStyle(palette::mutedText));
    setRelativeFont(m_costPreview, kHintFont);
    m_costPreview->setWordWrap(true);
    m_costPreview->setToolTip(tr("Computed from public facts only (the row count, the column's bounds, the "
                                 "target and what remains), never from the data."));
}

void QueryBuilder::createLayout()
{
    auto *queryRow = new QHBoxLayout;
    queryRow->addWidget(m_aggregate);
    queryRow->addWidget(m_columnLabel);
    queryRow->addWidget(m_column);
    queryRow->addStretch(1);
    // The bounds on their own line: one row of everything is wider than a 1024-px window leaves.
    auto *boundsRow = new QHBoxLayout;
    boundsRow->addWidget(m_boundsLabel);
    boundsRow->addWidget(new QLabel(QStringLiteral("["), this));
    boundsRow->addWidget(m_lower);
    boundsRow->addWidget(new QLabel(QStringLiteral(","), this));
    boundsRow->addWidget(m_upper);
    boundsRow->addWidget(new QLabel(QStringLiteral("]"), this));
    boundsRow->addStretch(1);

    auto *targetRow = new QHBoxLayout;
    targetRow->addWidget(m_targetKind);
    targetRow->addWidget(m_targetValue);
    targetRow->addWidget(new QLabel(tr("at"), this));
    targetRow->addWidget(m_confidence); // "±150 at 95 %", as in the ledger; the tooltip says confidence
    targetRow->addStretch(1);

    // The mechanism's whole name (the combo takes the row), then Ask; what it pays and the planned
    // cap on the line below, never cut.
    auto *mechanismRow = new QHBoxLayout;
    mechanismRow->addWidget(m_mechanism, 1);
    mechanismRow->setSpacing(10);
    // A row that wraps: with a lesson's noise-reduction request in the box, "pays only its last
    // level (ex-post ε)" and "· cap ex-post ε ≤ 0.117" side by side cut Ask at 1024 px beside the
    // lessons; the cap now goes to the next line where the two do not fit.
    auto *hintRow = new ButtonRowLayout(nullptr, 10);
    hintRow->addWidget(m_mechanismHint);
    hintRow->addWidget(m_plannedPreview);

    auto *limitRow = new QHBoxLayout;
    limitRow->addWidget(m_capEnabled);
    limitRow->addWidget(m_cap);
    limitRow->addWidget(m_capUnit);
    limitRow->addWidget(m_planned);
    limitRow->addStretch(1);
    // Ask ends the mechanism row: at the end of the limit row it made the query wider than a
    // 1024-px window leaves it.
    mechanismRow->addWidget(m_ask);

    // A grid rather than a QFormLayout: QFormLayout gives the wrapping predicate status under
    // "Where:" the height of several lines.
    auto *grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setHorizontalSpacing(8);
    grid->setVerticalSpacing(6);
    grid->addWidget(new QLabel(tr("Query:"), this), 0, 0);
    grid->addLayout(queryRow, 0, 1);
    grid->addLayout(boundsRow, 1, 1);
    grid->addWidget(new QLabel(tr("Where:"), this), 2, 0);
    grid->addWidget(m_where, 2, 1);
    grid->addWidget(m_whereStatus, 3, 1);
    grid->addWidget(new QLabel(tr("Accuracy:"), this), 4, 0);
    grid->addLayout(targetRow, 4, 1);
    grid->addWidget(new QLabel(tr("Mechanism:"), this), 5, 0);
    grid->addLayout(mechanismRow, 5, 1);
    grid->addLayout(hintRow, 6, 1);
    grid->addWidget(new QLabel(tr("Limit:"), this), 7, 0);
    grid->addLayout(limitRow, 7, 1);
    grid->addWidget(m_costPreview, 8, 1);
    grid->setColumnStretch(1, 1);
}

void QueryBuilder::connectSignals()
{
    connect(m_planned, &QSpinBox::valueChanged, this, &QueryBuilder::planChanged);
    connect(m_aggregate, &QComboBox::currentIndexChanged, this, &QueryBuilder::aggregateChanged);
    connect(m_column, &QComboBox::currentIndexChanged, this, &QueryBuilder::columnChanged);
    connect(m_lower, &QDoubleSpinBox::valueChanged, this, &QueryBuilder::revalidate);
    connect(m_upper, &QDoubleSpinBox::valueChanged, this, &QueryBuilder::revalidate);
    connect(m_where, &QLineEdit::textChanged, this, &QueryBuilder::revalidate);
    connect(m_where, &QLineEdit::returnPressed, this, &QueryBuilder::askRequested);
    connect(m_targetKind, &QComboBox::currentIndexChanged, this, &QueryBuilder::targetKindChanged);
    connect(m_capEnabled, &QCheckBox::toggled, m_cap, &QWidget::setEnabled);
    connect(m_mechanism, &QComboBox::currentIndexChanged, this, &QueryBuilder::updateCapUnit);
    connect(m_ask, &QPushButton::clicked, this, &QueryBuilder::askRequested);
    // The cost preview follows every input the cost depends on.
    connect(m_targetValue, &QDoubleSpinBox::valueChanged, this, &QueryBuilder::planChanged);
    connect(m_confidence, &QDoubleSpinBox::valueChanged, this, &QueryBuilder::planChanged);
    connect(m_capEnabled, &QCheckBox::toggled, this, &QueryBuilder::planChanged);
    connect(m_cap, &QDoubleSpinBox::valueChanged, this, &QueryBuilder::planChanged);
}

QString QueryBuilder::commitTypedInput()
{
    return m_typedInput->commit();
}

void QueryBuilder::setFilterKind(filters::FilterKind kind)
{
    m_filterKind = kind;
    m_hasFilterKind = true;
    updateMechanisms();
}

bool QueryBuilder::setMechanism(std::optional<session::ReleaseMethod> mechanism)
{
    const int index = m_mechanism->findData(mechanism ? static_cast<int>(*mechanism) : kDefaultMechanism);
    auto *model = qobject_cast<QStandardItemModel *>(m_mechanism->model());
    if (index < 0 || (model && !model->item(index)->isEnabled()))
        return false;
    m_mechanism->setCurrentIndex(index);
    return true;
}

session::ReleaseMethod QueryBuilder::effectiveMechanism() const
{
    const int chosen = m_mechanism->currentData().toInt();
    if (chosen != kDefaultMechanism)
        return static_cast<session::ReleaseMethod>(chosen);
    const auto r = request();
    return session::defaultMechanism(m_filterKind, r.query.aggregate, r.target.kind);
}

QString QueryBuilder::capUnit() const
{
    if (!m_hasFilterKind)
        return m_unit;
    // The unified filter routes Brownian runs to either side: a cap applies in the paying side's unit.
    if (m_filterKind == filters::FilterKind::Unified
        && effectiveMechanism() == session::ReleaseMethod::Brownian)
        return tr("ρ or ex-post ε");
    return chargeUnit(session::chargeKindFor(effectiveMechanism(), m_filterKind));
}

void QueryBuilder::updateMechanisms()
{
    // Which mechanisms the filter can account for this aggregate and target kind; the others stay
    // visible but disabled, with the reason as their tooltip.
    const auto aggregate = static_cast<data::Aggregate>(m_aggregate->currentData().toInt());
    const auto target = m_targetKind->currentData().toInt() == kRelative ? session::TargetKind::Relative
                                                                         : session::TargetKind::Absolute;
    auto *model = qobject_cast<QStandardItemModel *>(m_mechanism->model());
    const QSignalBlocker blocker(m_mechanism);
    const auto fallback = session::defaultMechanism(m_filterKind, aggregate, target);
    m_mechanism->setItemText(0, tr("Default (%1)").arg(mechanismShortLabel(fallback)));
    m_mechanism->setItemData(0, tr("The filter's choice for this query: %1").arg(mechanismLabel(fallback)),
                             Qt::ToolTipRole);
    for (int i = 1; i < m_mechanism->count(); ++i) {
        const auto kind = static_cast<session::ReleaseMethod>(m_mechanism->itemData(i).toInt());
        const auto ok = session::checkMechanism(kind, m_filterKind, aggregate, target);
        if (model)
            model->item(i)->setEnabled(ok.ok());
        m_mechanism->setItemData(i, ok.ok() ? QVariant() : QVariant(toQString(ok.error().message)),
                                 Qt::ToolTipRole);
    }
    if (model && !model->item(m_mechanism->currentIndex())->isEnabled())
        m_mechanism->setCurrentIndex(0);
    updateCapUnit();
}

void QueryBuilder::updateCapUnit()
{
    const QString unit = capUnit();
    m_capUnit->setText(unit);
    const auto mechanism = effectiveMechanism();
    if (session::isNoiseReduction(mechanism))
        m_mechanismHint->setText(tr("pays only its last level (%1)").arg(unit));
    else if (session::isSingleRelease(mechanism))
        m_mechanismHint->setText(tr("one calibrated release (%1)").arg(unit));
    else
        m_mechanismHint->setText(tr("pays every level (%1)").arg(unit));
    m_mechanismHint->setToolTip(m_mechanismHint->text());
    Q_EMIT planChanged();
    m_capEnabled->setText(tr("Max per query"));
    m_capEnabled->setToolTip(tr("Refuse this request rather than spend more than this on it, in "
                                "the unit the mechanism is charged in (%1)")
                                 .arg(unit));
}

void QueryBuilder::setTable(const data::Table *table)
{
    m_table = table;
    const QString previous = m_column->currentText();
    {
        const QSignalBlocker blocker(m_column);
        m_column->clear();
        if (table) {
            for (std::size_t c = 0; c < table->columnCount(); ++c) {
                const auto &info = table->columnInfo(c);
                if (info.type == data::ColumnType::Numeric)
                    m_column->addItem(toQString(info.name));
            }
        }
        const int keep = m_column->findText(previous);
        m_column->setCurrentIndex(keep >= 0 ? keep : (m_column->count() > 0 ? 0 : -1));
    }
    m_ask->setEnabled(table != nullptr && !m_asking);
    columnChanged();
    aggregateChanged();
}

int QueryBuilder::plannedQueries() const
{
    return m_planned->value();
}

void QueryBuilder::setPlannedQueries(int n)
{
    m_planned->setValue(n);
}

void QueryBuilder::setPlannedCapPreview(const QString &text)
{
    m_plannedPreview->setText(text);
    m_planned->setToolTip(m_planned->toolTip().section(u'\n', 0, 0)
                          + (text.isEmpty() ? QString() : u'\n' + text));
}

QString QueryBuilder::plannedCapPreview() const
{
    return m_plannedPreview->text();
}

void QueryBuilder::setCostPreview(const QString &text)
{
    m_costPreview->setText(text);
}

QString QueryBuilder::costPreview() const
{
    return m_costPreview->text();
}

void QueryBuilder::setAskConfirmation(const QString &buttonText)
{
    if (m_asking)
        return;
    m_ask->setText(buttonText.isEmpty() ? tr("Ask") : buttonText);
}

void QueryBuilder::setAsking(bool asking)
{
    m_asking = asking;
    m_ask->setText(asking ? tr("Asking…") : tr("Ask"));
    m_ask->setEnabled(!asking && m_table != nullptr);
}

void QueryBuilder::setUnitSymbol(const QString &symbol)
{
    m_unit = symbol;
    updateCapUnit();
}

session::QueryRequest QueryBuilder::request() const
{
    session::QueryRequest request;
    request.query.aggregate = static_cast<data::Aggregate>(m_aggregate->currentData().toInt());
    if (request.query.aggregate != data::Aggregate::Count) {
        request.query.column = m_column->currentText().toStdString();
        request.query.bounds = data::Bounds{m_lower->value(), m_upper->value()};
    }
    request.query.where = m_where->text().trimmed().toStdString();
    const bool relative = m_targetKind->currentData().toInt() == kRelative;
    request.target.kind = relative ? session::TargetKind::Relative : session::TargetKind::Absolute;
    request.target.error = relative ? m_targetValue->value() / 100.0 : m_targetValue->value();
    request.target.confidence = m_confidence->value() / 100.0;
    if (m_capEnabled->isChecked())
        request.maxCost = m_cap->value();
    const int mechanism = m_mechanism->currentData().toInt();
    if (mechanism != kDefaultMechanism)
        request.mechanism = static_cast<session::ReleaseMethod>(mechanism);
    return request;
}

void QueryBuilder::setAggregate(data::Aggregate aggregate)
{
    m_aggregate->setCurrentIndex(m_aggregate->findData(static_cast<int>(aggregate)));
}

void QueryBuilder::setColumn(const QString &column)
{
    const int index = m_column->findText(column);
    if (index >= 0)
        m_column->setCurrentIndex(index);
}

void QueryBuilder::setBounds(double lower, double upper)
{
    m_lower->setValue(lower);
    m_upper->setValue(upper);
}

void QueryBuilder::setWhere(const QString &predicate)
{
    m_where->setText(predicate);
}

void QueryBuilder::setAbsoluteTarget(double error)
{
    m_targetKind->setCurrentIndex(m_targetKind->findData(kAbsolute));
    m_targetValue->setValue(error);
}

void QueryBuilder::setRelativeTarget(double fraction)
{
    m_targetKind->setCurrentIndex(m_targetKind->findData(kRelative));
    m_targetValue->setValue(fraction * 100.0);
}

void QueryBuilder::setConfidence(double confidence)
{
    m_confidence->setValue(confidence * 100.0);
}

void QueryBuilder::setMaxCost(std::optional<double> cap)
{
    m_capEnabled->setChecked(cap.has_value());
    if (cap)
        m_cap->setValue(*cap);
}

void QueryBuilder::aggregateChanged()
{
    const bool count = m_aggregate->currentData().toInt() == static_cast<int>(data::Aggregate::Count);
    const bool hasColumns = m_column->count() > 0;
    for (QWidget *w :
         std::initializer_list<QWidget *>{m_column, m_columnLabel, m_lower, m_upper, m_boundsLabel})
        w->setEnabled(!count && hasColumns);
    updateMechanisms();
    revalidate();
}

void QueryBuilder::columnChanged()
{
    // Clipping bounds default to the column's declared (public) bounds.
    if (m_table) {
        const auto index = m_table->columnIndex(m_column->currentText().toStdString());
        if (index) {
            const auto &bounds = m_table->columnInfo(*index).declaredBounds;
            const QSignalBlocker lowerBlocker(m_lower);
            const QSignalBlocker upperBlocker(m_upper);
            m_lower->setValue(bounds ? bounds->lower : 0.0);
            m_upper->setValue(bounds ? bounds->upper : 0.0);
        }
    }
    revalidate();
}

void QueryBuilder::targetKindChanged()
{
    const bool relative = m_targetKind->currentData().toInt() == kRelative;
    const QSignalBlocker blocker(m_targetValue);
    if (relative) {
        m_absoluteValue = m_targetValue->value();
        m_targetValue->setRange(1e-3, 1000.0);
        m_targetValue->setSuffix(QStringLiteral(" %"));
        m_targetValue->setValue(m_relativePercent);
        m_targetValue->setToolTip(tr("α: the answer within ±α·|answer|, in percent"));
    } else {
        m_relativePercent = m_targetValue->value();
        m_targetValue->setSuffix(QString());
        m_targetValue->setRange(1e-9, 1e15);
        m_targetValue->setValue(m_absoluteValue);
        m_targetValue->setToolTip(tr("a: the answer within ±a of the true value (rows for a "
                                     "count; the column's units for sum and mean)"));
    }
    updateMechanisms();
}

QString QueryBuilder::schemaHint() const
{
    if (!m_table)
        return {};
    QStringList numeric;
    QStringList categorical;
    for (std::size_t c = 0; c < m_table->columnCount(); ++c) {
        const auto &info = m_table->columnInfo(c);
        (info.type == data::ColumnType::Numeric ? numeric : categorical) << toQString(info.name);
    }
    QString hint = tr("Numbers: %1").arg(numeric.join(QStringLiteral(", ")));
    if (!categorical.isEmpty())
        hint += tr("   ·   Quoted labels: %1").arg(categorical.join(QStringLiteral(", ")));
    return hint;
}

void QueryBuilder::revalidate()
{
    m_error.clear();
    bool predicateBad = false;
    if (m_table) {
        const auto spec = request().query;
        auto predicate = data::Predicate::compile(spec.where, *m_table);
        if (!predicate.ok()) {
            predicateBad = true;
            m_error = toQString(predicate.error().message);
        } else {
            auto compiled = data::CompiledQuery::compile(spec, *m_table);
            if (!compiled.ok())
                m_error = toQString(compiled.error().message);
        }
    }
    if (m_error.isEmpty()) {
        m_whereStatus->setStyleSheet(palette::labelColourStyle(palette::mutedText));
        m_whereStatus->setText(schemaHint());
    } else {
        m_whereStatus->setStyleSheet(palette::labelColourStyle(palette::errorText));
        m_whereStatus->setText(QStringLiteral("⚠ ") + m_error);
    }
    m_where->setStyleSheet(predicateBad ? QStringLiteral("QLineEdit { border: 1px solid %1;"
                                                         " border-radius: 3px; padding: 2px; }")
                                              .arg(palette::errorText.name())
                                        : QString());
    Q_EMIT planChanged(); // column, bounds and predicate decide the cost too
}

} // namespace pbx::ui
