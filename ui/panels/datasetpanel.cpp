// SPDX-License-Identifier: MIT
#include "ui/panels/datasetpanel.h"

#include "core/data/source.h"
#include "core/data/table.h"
#include "ui/charts/presentation.h"
#include "ui/util/numberformat.h"
#include "ui/util/palette.h"
#include "ui/util/plaintext.h"

#include <QFileInfo>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTableWidget>
#include <QVBoxLayout>

namespace pbx::ui {

namespace {

/// The columns' table asks for its header and four rows, not QAbstractScrollArea's 192 px: the dock's
/// scroll area takes the panel's preferred height for its width as the height it must show, and
/// the dataset dock scrolled at 1024×708 (387 px asked in a 339-px viewport). It grows with the
/// dock and scrolls its rows itself.
class ColumnsTable final : public QTableWidget
{
public:
    using QTableWidget::QTableWidget;
    QSize sizeHint() const override
    {
        const int rows = 4 * verticalHeader()->defaultSectionSize();
        return {QTableWidget::sizeHint().width(),
                horizontalHeader()->sizeHint().height() + rows + 2 * frameWidth()};
    }
};

} // namespace

DatasetPanel::DatasetPanel(QWidget *parent) : QWidget(parent)
{
    m_name = new QLabel(this);
    QFont bold = m_name->font();
    bold.setBold(true);
    m_name->setFont(bold);
    m_name->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Names, file names and provenance come from files: plain text, never HTML (ui/util/plaintext.h).
    m_name->setTextFormat(Qt::PlainText);
    m_rows = new QLabel(this);
    m_rows->setToolTip(tr("The number of rows is public here: it is part of the dataset's "
                          "published description, not a query answer."));
    m_source = new QLabel(this);
    m_source->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_source->setWordWrap(true);
    m_source->setTextFormat(Qt::PlainText);
    m_provenance = new QLabel(this);
    m_provenance->setWordWrap(true);
    m_provenance->setTextFormat(Qt::PlainText);
    m_provenance->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_provenance->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    setRelativeFont(m_provenance, 0.92); // scaled in presentation mode
    QPalette muted = m_provenance->palette();
    muted.setColor(QPalette::WindowText, muted.color(QPalette::PlaceholderText).darker(130));
    m_provenance->setPalette(muted);

    m_disclosure = new QLabel(this);
    m_disclosure->setObjectName(QStringLiteral("dataDisclosureWarning"));
    m_disclosure->setWordWrap(true);
    m_disclosure->setStyleSheet(QStringLiteral("QLabel#dataDisclosureWarning { background: %1; color: %2;"
                                               " padding: 4px; border-radius: 3px; }")
                                    .arg(palette::warningBackground.name(), palette::bannerText.name()));
    m_disclosure->setVisible(false);

    m_columns = new ColumnsTable(0, ColumnCount, this);
    m_columns->setHorizontalHeaderLabels({tr("Column"), tr("Type"), tr("Domain"), tr("Description")});
    m_columns->verticalHeader()->setVisible(false);
    // "Domain", not "Bounds / categories": the short word keeps the header whole in a 1024 px
    // window; the tooltip says what it holds.
    m_columns->horizontalHeaderItem(DomainColumn)
        ->setToolTip(tr("Declared bounds of a numeric column or categories of a categorical one"));
    m_columns->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_columns->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_columns->setSelectionMode(QAbstractItemView::SingleSelection);
    m_columns->setAlternatingRowColors(true);
    m_columns->setWordWrap(false);
    m_columns->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_columns->horizontalHeader()->setStretchLastSection(true);
    m_columns->horizontalHeader()->setHighlightSections(false);
    // Left-aligned names stay in view when a wide column runs past the panel's edge.
    m_columns->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    m_columns->verticalHeader()->setDefaultSectionSize(m_columns->fontMetrics().height() + 8);
    connect(&Presentation::instance(), &Presentation::changed, m_columns, [this] {
        m_columns->verticalHeader()->setDefaultSectionSize(m_columns->fontMetrics().height() + 8);
    });
    m_columns->setToolTip(tr("Declared bounds are public choices: sums and means clip values to "
                             "them, which fixes how much one person can change an answer."));

    auto *form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("Dataset:"), m_name);
    form->addRow(tr("Rows:"), m_rows);
    form->addRow(tr("Source:"), m_source);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(form);
    layout->addWidget(m_provenance);
    layout->addWidget(m_disclosure);
    layout->addWidget(m_columns, 1);
    setTable(nullptr, {});
}

void DatasetPanel::setSource(const data::Source *source, const QString &text)
{
    setTable(source ? &source->schema() : nullptr, text);
    if (!source || source->kind() == data::SourceKind::InMemory)
        return;
    const auto rows = source->knownPublicRowCount();
    if (rows)
        m_rows->setText(QLocale(QLocale::English).toString(static_cast<qulonglong>(*rows)));
    else if (source->isPublic())
        m_rows->setText(tr("the table's own count, run when first needed (its metadata declares "
                           "the data public but gives no \"rows\")"));
    else
        m_rows->setText(tr("not declared (its metadata gives no \"rows\")"));
    m_source->setText(toQString(source->location()));
    m_source->setToolTip(
        plainToolTip(tr("The rows stay in the database; counts, sums, means and histograms of a "
                        "categorical column are computed there. Descriptor: %1")
                         .arg(toQString(source->descriptor()))));
}

void DatasetPanel::setTable(const data::Table *table, const QString &source)
{
    m_columns->setRowCount(0);
    if (!table) {
        m_name->setText(tr("(none)"));
        m_rows->clear();
        m_source->clear();
        m_provenance->clear();
        m_provenance->setVisible(false);
        m_disclosure->setVisible(false);
        return;
    }
    m_name->setText(toQString(table->name()));
    m_rows->setText(QLocale(QLocale::English).toString(static_cast<qulonglong>(table->rowCount())));
    const QFileInfo info(source);
    const bool isFile = info.exists() && info.isFile();
    m_source->setText(isFile ? info.fileName() : tr("embedded dataset “%1”").arg(source));
    m_source->setToolTip(isFile ? plainToolTip(info.absoluteFilePath()) : QString());
    const QString provenance = toQString(table->provenance());
    m_provenance->setText(provenance);
    m_provenance->setVisible(!provenance.isEmpty());

    // Types and category lists read from the rows are not public: a category present in one row
    // names that row's value. Say so, and mark the columns.
    QStringList inferred;
    for (const auto &name : table->columnsWithDomainFromData())
        inferred << toQString(name);
    m_disclosure->setText(
        tr("<b>Not public:</b> no metadata declares the types or categories of %1, so they were inferred "
           "from the rows and what this panel shows discloses values (a category present in a single row "
           "reveals that row). Do not share this screen, or declare the columns in a metadata sidecar.")
            .arg(inferred.join(QStringLiteral(", ")).toHtmlEscaped()));
    m_disclosure->setVisible(!inferred.isEmpty());

    m_columns->setRowCount(static_cast<int>(table->columnCount()));
    for (std::size_t c = 0; c < table->columnCount(); ++c) {
        const auto &columnInfo = table->columnInfo(c);
        const int row = static_cast<int>(c);
        const bool numeric = columnInfo.type == data::ColumnType::Numeric;
        QString domain;
        QString domainTip;
        if (numeric) {
            domain = columnInfo.declaredBounds ? QStringLiteral("[%1, %2]")
                                                     .arg(formatNumber(columnInfo.declaredBounds->lower, 6),
                                                          formatNumber(columnInfo.declaredBounds->upper, 6))
                                               : tr("no declared bounds");
            domainTip = columnInfo.declaredBounds
                            ? tr("Declared clipping bounds (public metadata)")
                            : tr("No declared bounds: give clipping bounds in the query builder");
        } else {
            QStringList labels;
            for (const auto &label : columnInfo.categories)
                labels << toQString(label);
            domain = labels.join(QStringLiteral(", "));
            domainTip = tr("%1 categories: %2").arg(labels.size()).arg(domain);
            if (columnInfo.domainFromData) {
                domain = tr("%1 (from the data)").arg(domain);
                domainTip += tr("\nInferred from the rows, not declared: discloses values.");
            }
        }
        const QString description = toQString(columnInfo.description);
        auto *nameItem = new QTableWidgetItem(toQString(columnInfo.name));
        nameItem->setToolTip(plainToolTip(description));
        auto *typeItem = new QTableWidgetItem(numeric ? tr("numeric") : tr("categorical"));
        auto *domainItem = new QTableWidgetItem(domain);
        domainItem->setToolTip(plainToolTip(domainTip));
        auto *descriptionItem = new QTableWidgetItem(description);
        descriptionItem->setToolTip(plainToolTip(description));
        m_columns->setItem(row, NameColumn, nameItem);
        m_columns->setItem(row, TypeColumn, typeItem);
        m_columns->setItem(row, DomainColumn, domainItem);
        m_columns->setItem(row, DescriptionColumn, descriptionItem);
    }
    m_columns->resizeColumnsToContents();
    // Keep the long domain lists from pushing the description out of view.
    m_columns->setColumnWidth(DomainColumn, std::min(m_columns->columnWidth(DomainColumn), 170));
    m_columns->setColumnWidth(DescriptionColumn, std::min(m_columns->columnWidth(DescriptionColumn), 400));
}

} // namespace pbx::ui
