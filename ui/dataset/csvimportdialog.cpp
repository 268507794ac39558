// SPDX-License-Identifier: MIT
#include "ui/dataset/csvimportdialog.h"

#include "core/io/dataset_metadata_file.h"
#include "core/util/try.h"
#include "ui/widgets/screenfit.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <cmath>
#include <filesystem>
#include <memory>
#include <optional>
#include <unordered_set>

namespace pbx::ui {

namespace {

enum Field { NameField, TypeField, LowerField, UpperField, CategoriesField, DescriptionField, FieldCount };

/// Longest cell text the preview shows, in characters; the rest is elided ("…").
constexpr int maxShownCellCharacters = 200;

QString fromBytes(const std::string &bytes)
{
    return QString::fromUtf8(bytes.data(), static_cast<qsizetype>(bytes.size())); // invalid bytes → U+FFFD
}

/// A cell as the preview shows it: plain text on one line (a line break or tab in a quoted field
/// becomes a visible mark), at most maxShownCellCharacters characters.
QString shownCell(const std::string &bytes)
{
    QString text = fromBytes(bytes);
    text.replace(QLatin1String("\r\n"), QStringLiteral("↵"));
    text.replace(u'\n', u'↵');
    text.replace(u'\r', u'↵');
    text.replace(u'\t', u'→');
    if (text.size() > maxShownCellCharacters)
        text = text.left(maxShownCellCharacters) + QStringLiteral("…");
    return text;
}

QTableWidgetItem *plainItem(const QString &text)
{
    auto *item = new QTableWidgetItem(text); // item views draw their text as plain text
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    return item;
}

Error formError(const QString &message)
{
    return makeError(ErrorCode::InvalidArgument, message.toStdString());
}

/// A typed bound: empty → nullopt; else a finite number in the C locale ("5000", "-0.5", "1e6").
Result<std::optional<double>> parseBound(const QString &text, const QString &where)
{
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty())
        return std::optional<double>();
    bool ok = false;
    const double value = QLocale::c().toDouble(trimmed, &ok);
    if (!ok || !std::isfinite(value))
        return formError(QStringLiteral("%1: '%2' is not a number (write e.g. 0, 5000, -2.5 or 1e6)")
                             .arg(where, trimmed.left(40)));
    return std::optional<double>(value);
}

/// The comma-separated labels typed in a categories field, split by the CSV parser (a label with a
/// comma is quoted: "south, deep"). Empty text → no labels.
Result<std::vector<std::string>> parseCategories(const QString &text, const QString &where)
{
    if (text.trimmed().isEmpty())
        return std::vector<std::string>();
    const std::string bytes = text.trimmed().toStdString();
    auto record = io::previewCsv(bytes, false, 0);
    if (!record)
        return formError(QStringLiteral("%1: %2").arg(where, QString::fromStdString(record.error().message)));
    std::unordered_set<std::string> seen;
    for (std::size_t i = 0; i < record->header.size(); ++i) {
        const std::string &label = record->header[i];
        if (label.empty())
            return formError(QStringLiteral("%1: label %2 is empty").arg(where).arg(i + 1));
        if (!seen.insert(label).second)
            return formError(QStringLiteral("%1: '%2' is listed twice").arg(where, fromBytes(label)));
    }
    return record->header;
}

/// Reads the whole file at `csv` with `metadata`'s declarations as opening it will (io::readCsvFile)
/// on a worker thread, while a window-modal progress dialog keeps the GUI painting and offers
/// Cancel. Returns the file's row count. Errors: the loader's, prefixed "the file does not fit
/// these declarations: "; Cancelled when the user cancels (the reading thread then finishes on its
/// own and its result is dropped).
Result<std::size_t> readWithDeclarations(const std::string &csv, const io::DatasetMetadata &metadata,
                                         QWidget *parent)
{
    auto declared = std::make_shared<const io::DatasetMetadata>(metadata);
    QFuture<Result<std::size_t>> future = QtConcurrent::run([csv, declared]() -> Result<std::size_t> {
        io::CsvReadOptions options;
        options.metadata = declared.get();
        auto table = io::readCsvFile(csv, options);
        if (!table)
            return makeError(table.error().code,
                             "the file does not fit these declarations: " + table.error().message);
        return table->rowCount();
    });
    QProgressDialog progress(CsvImportDialog::tr("Reading the whole file with these declarations…"),
                             CsvImportDialog::tr("Cancel"), 0, 0, parent);
    progress.setObjectName(QStringLiteral("csvImportProgress"));
    progress.setWindowTitle(CsvImportDialog::tr("Import CSV"));
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(0); // at once: window-modal, so Save cannot be pressed twice
    progress.setAutoClose(false);
    progress.setAutoReset(false);
    progress.setValue(0); // a busy indicator: the range is 0 … 0
    progress.show();
    QFutureWatcher<Result<std::size_t>> watcher;
    QEventLoop loop;
    QObject::connect(&watcher, &QFutureWatcher<Result<std::size_t>>::finished, &loop, &QEventLoop::quit);
    QObject::connect(&progress, &QProgressDialog::canceled, &loop, &QEventLoop::quit); // its button
    QObject::connect(&progress, &QDialog::rejected, &loop, &QEventLoop::quit);         // Escape
    watcher.setFuture(future);
    if (!future.isFinished())
        loop.exec();
    if (!future.isFinished())
        return makeError(ErrorCode::Cancelled, "cancelled while reading the file");
    return future.result();
}

QString columnWhere(const std::string &name, const char *field)
{
    return QStringLiteral("column '%1', %2").arg(fromBytes(name), QLatin1String(field));
}

} // namespace

CsvImportDialog::CsvImportDialog(const QString &csvPath, QWidget *parent)
    : QDialog(parent), m_csvPath(QFileInfo(csvPath).absoluteFilePath())
{
    setWindowTitle(tr("Import CSV — %1").arg(QFileInfo(csvPath).fileName()));
    buildLayout();
    auto preview = io::previewCsvFile(m_csvPath.toStdString());
    if (!preview) {
        m_previewError = QString::fromStdString(preview.error().message);
        showError(m_previewError);
        m_saveButton->setEnabled(false);
    } else {
        fillPreview(*preview);
        fillColumns(preview->header);
    }
    updateNotes();
    resizeWithinScreen(this, QSize(1000, 720));
}

void CsvImportDialog::buildLayout()
{
    auto *layout = new QVBoxLayout(this);
    auto *file = new QLabel(tr("File: %1\nThe metadata will be written to %2").arg(m_csvPath, sidecarPath()));
    file->setTextFormat(Qt::PlainText);
    file->setWordWrap(true);
    file->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(file);

    auto *warning = new QLabel(
        tr("What you declare here is public: it is written beside the file and printed with every "
           "result. Declare bounds and categories you could state without looking at the data — "
           "from a questionnaire, a code book or the law. Bounds or categories read off the data "
           "are themselves a disclosure: the largest value may be one person's wage, and a rare "
           "label may name one person. So nothing below is filled in from the file; the preview "
           "is only there to help you recognise the columns."));
    warning->setObjectName(QStringLiteral("importWarning"));
    warning->setTextFormat(Qt::PlainText);
    warning->setWordWrap(true);
    warning->setFrameShape(QFrame::StyledPanel);
    warning->setMargin(6);
    layout->addWidget(warning);

    auto *splitter = new QSplitter(Qt::Vertical);
    auto *previewBox = new QWidget;
    auto *previewLayout = new QVBoxLayout(previewBox);
    previewLayout->setContentsMargins(0, 0, 0, 0);
    m_previewCaption = new QLabel;
    m_previewCaption->setTextFormat(Qt::PlainText);
    previewLayout->addWidget(m_previewCaption);
    m_preview = new QTableWidget;
    m_preview->setObjectName(QStringLiteral("csvPreview"));
    m_preview->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_preview->setWordWrap(false);
    previewLayout->addWidget(m_preview);
    splitter->addWidget(previewBox);

    auto *columnsBox = new QWidget;
    auto *columnsLayout = new QVBoxLayout(columnsBox);
    columnsLayout->setContentsMargins(0, 0, 0, 0);
    auto *columnsCaption = new QLabel(
        tr("Declare each column. Bounds: values outside are clipped when a query sums; a column without "
           "them cannot be summed. Categories: the column's whole domain, separated by commas (quote a "
           "label that holds a comma)."));
    columnsCaption->setTextFormat(Qt::PlainText);
    columnsCaption->setWordWrap(true);
    columnsLayout->addWidget(columnsCaption);
    m_columns = new QTableWidget(0, FieldCount);
    m_columns->setObjectName(QStringLiteral("columnDeclarations"));
    m_columns->setHorizontalHeaderLabels({tr("Column"), tr("Type"), tr("Lower bound"), tr("Upper bound"),
                                          tr("Categories"), tr("Description")});
    m_columns->horizontalHeader()->setSectionResizeMode(CategoriesField, QHeaderView::Stretch);
    m_columns->setSelectionMode(QAbstractItemView::NoSelection);
    columnsLayout->addWidget(m_columns);
    splitter->addWidget(columnsBox);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    layout->addWidget(splitter, 1);
    addDatasetFields(layout);
}

void CsvImportDialog::addDatasetFields(QVBoxLayout *layout)
{
    auto *grid = new QGridLayout;
    m_name = new QLineEdit; // empty: the loader names the dataset after the file
    m_name->setPlaceholderText(tr("the file's name"));
    m_title = new QLineEdit;
    m_provenance = new QLineEdit;
    m_licence = new QLineEdit;
    const std::pair<QString, QLineEdit *> fields[] = {{tr("Name"), m_name},
                                                      {tr("Title"), m_title},
                                                      {tr("Provenance"), m_provenance},
                                                      {tr("Licence"), m_licence}};
    for (int i = 0; i < 4; ++i) {
        auto *label = new QLabel(fields[i].first);
        label->setBuddy(fields[i].second);
        grid->addWidget(label, i / 2, (i % 2) * 2);
        grid->addWidget(fields[i].second, i / 2, (i % 2) * 2 + 1);
    }
    layout->addLayout(grid);

    m_rowsPublic = new QCheckBox(tr("The number of rows is public (Save counts them and writes the count; "
                                    "sessions then plan with it)"));
    m_dataPublic = new QCheckBox(tr("The data themselves are public (labs and lessons may then read true "
                                    "answers without a budget)"));
    layout->addWidget(m_rowsPublic);
    layout->addWidget(m_dataPublic);

    m_notes = new QLabel;
    m_notes->setObjectName(QStringLiteral("importNotes"));
    m_notes->setTextFormat(Qt::PlainText);
    m_notes->setWordWrap(true);
    layout->addWidget(m_notes);
    m_error = new QLabel;
    m_error->setObjectName(QStringLiteral("importError"));
    m_error->setTextFormat(Qt::PlainText);
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #b00020;"));
    m_error->hide();
    layout->addWidget(m_error);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel);
    m_saveButton = buttons->button(QDialogButtonBox::Save);
    connect(buttons, &QDialogButtonBox::accepted, this, &CsvImportDialog::saveInteractive);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
}

void CsvImportDialog::fillPreview(const io::CsvPreview &preview)
{
    std::size_t width = preview.header.size();
    for (const auto &row : preview.rows)
        width = std::max(width, row.size());
    m_preview->setColumnCount(static_cast<int>(width));
    m_preview->setRowCount(static_cast<int>(preview.rows.size()));
    for (std::size_t c = 0; c < width; ++c)
        m_preview->setHorizontalHeaderItem(
            static_cast<int>(c),
            plainItem(c < preview.header.size() ? shownCell(preview.header[c]) : tr("(no header)")));
    QStringList lines;
    for (std::size_t r = 0; r < preview.rows.size(); ++r) {
        lines << QString::number(preview.lines[r]);
        for (std::size_t c = 0; c < preview.rows[r].size(); ++c)
            m_preview->setItem(static_cast<int>(r), static_cast<int>(c),
                               plainItem(shownCell(preview.rows[r][c])));
    }
    m_preview->setVerticalHeaderLabels(lines); // the file's line numbers, as the loader's errors give them
    m_preview->resizeColumnsToContents();
    for (int c = 0; c < m_preview->columnCount(); ++c)
        m_preview->setColumnWidth(c, std::min(m_preview->columnWidth(c), 240));
    const auto shown = static_cast<qulonglong>(preview.rows.size());
    m_previewCaption->setText(
        preview.whole
            ? tr("The whole file: %1 %2, shown as text.").arg(shown).arg(shown == 1 ? tr("row") : tr("rows"))
            : tr("The first %1 rows of the file, shown as text (the preview reads at most %2 rows and "
                 "%3 MiB of a file).")
                  .arg(shown)
                  .arg(io::csvPreviewRows)
                  .arg(io::maxCsvPreviewBytes >> 20));
}

void CsvImportDialog::fillColumns(const std::vector<std::string> &header)
{
    m_names = header;
    m_columns->setRowCount(static_cast<int>(header.size()));
    for (int c = 0; c < static_cast<int>(header.size()); ++c) {
        m_columns->setItem(c, NameField, plainItem(shownCell(header[static_cast<std::size_t>(c)])));
        auto *type = new QComboBox;
        type->addItems({tr("not declared"), tr("numeric"), tr("categorical")});
        m_columns->setCellWidget(c, TypeField, type);
        for (int f = LowerField; f <= DescriptionField; ++f) {
            auto *edit = new QLineEdit; // empty: nothing is filled in from the data
            edit->setFrame(false);
            m_columns->setCellWidget(c, f, edit);
            connect(edit, &QLineEdit::textChanged, this, &CsvImportDialog::updateNotes);
        }
        connect(type, &QComboBox::currentIndexChanged, this, [this, c] {
            updateColumnState(c);
            updateNotes();
        });
        updateColumnState(c);
    }
    m_columns->resizeColumnToContents(NameField);
    m_columns->setColumnWidth(NameField, std::min(m_columns->columnWidth(NameField), 180));
    m_columns->resizeColumnToContents(TypeField);
    m_columns->setColumnWidth(LowerField, 90);
    m_columns->setColumnWidth(UpperField, 90);
    m_columns->setColumnWidth(DescriptionField, 180);
}

QComboBox *CsvImportDialog::typeBox(int column) const
{
    return qobject_cast<QComboBox *>(m_columns->cellWidget(column, TypeField));
}

QLineEdit *CsvImportDialog::cellEdit(int column, int field) const
{
    return qobject_cast<QLineEdit *>(m_columns->cellWidget(column, field));
}

QLineEdit *CsvImportDialog::lowerEdit(int column) const
{
    return cellEdit(column, LowerField);
}
QLineEdit *CsvImportDialog::upperEdit(int column) const
{
    return cellEdit(column, UpperField);
}
QLineEdit *CsvImportDialog::categoriesEdit(int column) const
{
    return cellEdit(column, CategoriesField);
}
QLineEdit *CsvImportDialog::descriptionEdit(int column) const
{
    return cellEdit(column, DescriptionField);
}

void CsvImportDialog::updateColumnState(int column)
{
    const auto choice = static_cast<ColumnChoice>(typeBox(column)->currentIndex());
    // A field that does not apply is greyed out; text typed in it is refused at Save, not dropped.
    lowerEdit(column)->setEnabled(choice == ColumnChoice::Numeric);
    upperEdit(column)->setEnabled(choice == ColumnChoice::Numeric);
    categoriesEdit(column)->setEnabled(choice == ColumnChoice::Categorical);
    descriptionEdit(column)->setEnabled(choice != ColumnChoice::Undeclared);
    // Examples (never values of the file) only where a field applies.
    const bool numeric = choice == ColumnChoice::Numeric;
    lowerEdit(column)->setPlaceholderText(numeric ? tr("e.g. 0") : QString());
    upperEdit(column)->setPlaceholderText(numeric ? tr("e.g. 5000") : QString());
    categoriesEdit(column)->setPlaceholderText(
        choice == ColumnChoice::Categorical ? tr("e.g. north, south, \"east, far\"") : QString());
}

void CsvImportDialog::updateNotes()
{
    QStringList unbounded, undomained;
    int declared = 0;
    for (int c = 0; c < m_columns->rowCount(); ++c) {
        const auto choice = static_cast<ColumnChoice>(typeBox(c)->currentIndex());
        const QString name = shownCell(m_names[static_cast<std::size_t>(c)]);
        declared += choice != ColumnChoice::Undeclared;
        if (choice == ColumnChoice::Numeric && lowerEdit(c)->text().trimmed().isEmpty()
            && upperEdit(c)->text().trimmed().isEmpty())
            unbounded << name;
        if (choice == ColumnChoice::Categorical && categoriesEdit(c)->text().trimmed().isEmpty())
            undomained << name;
    }
    QStringList notes;
    if (m_columns->rowCount() > declared)
        notes << tr("A column left \"not declared\" is read as today: its type and labels come from the "
                    "data, which discloses them, and the dataset panel marks it \"(from the data)\".");
    if (!unbounded.isEmpty())
        notes << tr("No bounds for %1: counts and histograms work, sums and means are refused.")
                     .arg(unbounded.join(QStringLiteral(", ")));
    if (!undomained.isEmpty())
        notes << tr("No categories for %1: the labels will come from the data, so histograms, sparse "
                    "vectors and other requests whose shape must be public are refused for it.")
                     .arg(undomained.join(QStringLiteral(", ")));
    m_notes->setText(notes.join(u'\n'));
    m_notes->setVisible(!notes.isEmpty());
}

QString CsvImportDialog::sidecarPath() const
{
    return QString::fromStdString(io::datasetMetadataSidecars(m_csvPath.toStdString()).front());
}

QString CsvImportDialog::errorText() const
{
    return m_error->text();
}

void CsvImportDialog::showError(const QString &message)
{
    m_error->setText(message);
    m_error->setVisible(!message.isEmpty());
}

Result<io::DatasetMetadata> CsvImportDialog::declaredMetadata() const
{
    io::DatasetMetadata metadata;
    metadata.name = m_name->text().trimmed().toStdString();
    metadata.title = m_title->text().trimmed().toStdString();
    metadata.provenance = m_provenance->text().trimmed().toStdString();
    metadata.licence = m_licence->text().trimmed().toStdString();
    metadata.isPublic = m_dataPublic->isChecked();
    for (int c = 0; c < m_columns->rowCount(); ++c) {
        const std::string &name = m_names[static_cast<std::size_t>(c)];
        const auto choice = static_cast<ColumnChoice>(typeBox(c)->currentIndex());
        auto lower = parseBound(lowerEdit(c)->text(), columnWhere(name, "lower bound"));
        auto upper = parseBound(upperEdit(c)->text(), columnWhere(name, "upper bound"));
        auto categories = parseCategories(categoriesEdit(c)->text(), columnWhere(name, "categories"));
        const bool hasBounds
            = !lowerEdit(c)->text().trimmed().isEmpty() || !upperEdit(c)->text().trimmed().isEmpty();
        if (choice != ColumnChoice::Numeric && hasBounds)
            return formError(
                columnWhere(name, "bounds")
                + QStringLiteral(
                    ": bounds apply to numeric columns; clear them or declare the column numeric"));
        if (choice != ColumnChoice::Categorical && !categoriesEdit(c)->text().trimmed().isEmpty())
            return formError(
                columnWhere(name, "categories")
                + QStringLiteral(": categories apply to categorical columns; clear them or declare "
                                 "the column categorical"));
        if (choice == ColumnChoice::Undeclared) {
            if (!descriptionEdit(c)->text().trimmed().isEmpty())
                return formError(columnWhere(name, "description")
                                 + QStringLiteral(": choose the column's type to describe it"));
            continue;
        }
        if (!lower)
            return lower.error();
        if (!upper)
            return upper.error();
        if (!categories)
            return categories.error();
        io::ColumnMetadata column;
        column.name = name;
        column.description = descriptionEdit(c)->text().trimmed().toStdString();
        if (choice == ColumnChoice::Numeric) {
            column.type = data::ColumnType::Numeric;
            if (lower->has_value() != upper->has_value())
                return formError(columnWhere(name, lower->has_value() ? "upper bound" : "lower bound")
                                 + QStringLiteral(": give both bounds, or neither"));
            if (lower->has_value() && **upper < **lower)
                return formError(columnWhere(name, "upper bound")
                                 + QStringLiteral(": %1 is below the lower bound %2")
                                       .arg(upperEdit(c)->text().trimmed(), lowerEdit(c)->text().trimmed()));
            if (lower->has_value())
                column.bounds = data::Bounds{**lower, **upper};
        } else {
            column.type = data::ColumnType::Categorical;
            column.categories = std::move(categories).value();
        }
        metadata.columns.push_back(std::move(column));
    }
    PBX_RETURN_IF_ERROR(io::checkDatasetMetadata(metadata));
    return metadata;
}

Result<void> CsvImportDialog::save()
{
    auto run = [this]() -> Result<void> {
        if (!m_previewError.isEmpty())
            return formError(m_previewError);
        PBX_TRY(metadata, declaredMetadata());
        const std::string csv = m_csvPath.toStdString();
        for (const std::string &place : io::datasetMetadataSidecars(csv)) {
            std::error_code ec;
            if (std::filesystem::exists(place, ec))
                return makeError(ErrorCode::Io, place
                                                    + " already describes this file (the loader reads it); "
                                                      "a dataset's metadata file is never replaced: move it "
                                                      "away first");
        }
        // The whole file, read with these declarations as opening it will read it: a sidecar that
        // does not fit the data is refused here, not when the dataset is opened.
        PBX_TRY(rows, readWithDeclarations(csv, metadata, this));
        if (m_rowsPublic->isChecked())
            metadata.rows = rows;
        return io::writeDatasetMetadataFile(sidecarPath().toStdString(), metadata, {csv});
    };
    auto done = run();
    if (!done) {
        showError(QString::fromStdString(done.error().message) + tr("; nothing was saved"));
        return done;
    }
    showError({});
    m_saved = true;
    return {};
}

void CsvImportDialog::saveInteractive()
{
    if (!save())
        return;
    QMessageBox ask(QMessageBox::Question, tr("Import CSV"),
                    tr("The metadata was written to %1.\n\nOpen %2 now? This starts a new session on it.")
                        .arg(sidecarPath(), QFileInfo(m_csvPath).fileName()),
                    QMessageBox::Yes | QMessageBox::No, this);
    ask.setTextFormat(Qt::PlainText); // the paths are file text
    m_openRequested = ask.exec() == QMessageBox::Yes;
    accept();
}

QString importCsvInteractive(QWidget *parent, const QString &startFolder)
{
    const QString path = QFileDialog::getOpenFileName(parent, QObject::tr("Import CSV"), startFolder,
                                                      QObject::tr("CSV files (*.csv);;All files (*)"));
    if (path.isEmpty())
        return {};
    CsvImportDialog dialog(path, parent);
    dialog.exec();
    return dialog.saved() && dialog.openRequested() ? QFileInfo(path).absoluteFilePath() : QString();
}

} // namespace pbx::ui
