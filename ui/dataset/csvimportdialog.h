// SPDX-License-Identifier: MIT
// File ▸ Import CSV: declares what is public about a CSV file — each column's type, clipping bounds
// and category domain, the row count's status — and writes the metadata sidecar the loader reads
// ("<file>.json", docs/datasets.md). Every field starts empty: bounds or categories read off the
// data (its minimum and maximum, the labels that occur) are themselves a disclosure, so nothing is
// filled in from the file, and the dialog says so in words. The preview of the first rows is read
// by the project's CSV parser (io::previewCsvFile: at most io::csvPreviewRows rows from at most
// io::maxCsvPreviewBytes bytes) and shown as plain text in a table.
#pragma once

#include "core/io/csv_reader.h"
#include "core/io/dataset_metadata.h"
#include "core/util/result.h"

#include <QDialog>
#include <QString>

#include <string>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QTableWidget;
class QVBoxLayout;

namespace pbx::ui {

class CsvImportDialog final : public QDialog
{
    Q_OBJECT
public:
    /// The choices of a column's Type box, in its order.
    enum class ColumnChoice { Undeclared, Numeric, Categorical };

    /// Reads the preview of `csvPath` at once; when it cannot be read, the dialog shows why and
    /// Save is disabled (previewError()).
    explicit CsvImportDialog(const QString &csvPath, QWidget *parent = nullptr);

    /// Empty when the preview was read, else the one-line reason.
    QString previewError() const { return m_previewError; }
    /// Where Save writes: the first place the loader looks ("<csv>.json").
    QString sidecarPath() const;

    /// The metadata the form declares (rows not yet counted). Errors: InvalidArgument, one line
    /// naming the column and field, e.g. "column 'wage', upper bound: 5 is below the lower bound 10".
    Result<io::DatasetMetadata> declaredMetadata() const;

    /// Save without asking anything: checks the form, refuses when a sidecar already exists in
    /// either place the loader looks, reads the whole file with these declarations as opening it
    /// would (counting its rows when the row count is declared public) on a worker thread behind a
    /// window-modal progress dialog whose Cancel gives Cancelled, then writes the sidecar
    /// (io::writeDatasetMetadataFile, never over the CSV or an existing file). On error the
    /// message is shown in the dialog (errorText()) and nothing is written.
    Result<void> save();
    /// True once save() has written the sidecar.
    bool saved() const { return m_saved; }
    /// True when the user, after saving, asked to open the dataset.
    bool openRequested() const { return m_openRequested; }
    /// The error line under the form (empty when none).
    QString errorText() const;

    // The form's fields, for tests and screenshots.
    QTableWidget *previewTable() const { return m_preview; }
    QTableWidget *columnsTable() const { return m_columns; }
    QComboBox *typeBox(int column) const;
    QLineEdit *lowerEdit(int column) const;
    QLineEdit *upperEdit(int column) const;
    QLineEdit *categoriesEdit(int column) const;
    QLineEdit *descriptionEdit(int column) const;
    QCheckBox *rowsPublicBox() const { return m_rowsPublic; }
    QCheckBox *dataPublicBox() const { return m_dataPublic; }

private:
    void buildLayout();
    /// The dataset's fields, the two declarations about the whole file, the notes, the error line
    /// and the buttons, added to `layout`.
    void addDatasetFields(QVBoxLayout *layout);
    void fillPreview(const io::CsvPreview &preview);
    void fillColumns(const std::vector<std::string> &header);
    void updateColumnState(int column);
    void updateNotes();
    void saveInteractive();
    void showError(const QString &message);
    QLineEdit *cellEdit(int column, int field) const;

    QString m_csvPath;
    QString m_previewError;
    std::vector<std::string> m_names; ///< the header's fields, as bytes
    bool m_saved = false;
    bool m_openRequested = false;

    QLabel *m_previewCaption = nullptr;
    QTableWidget *m_preview = nullptr;
    QTableWidget *m_columns = nullptr;
    QLineEdit *m_name = nullptr;
    QLineEdit *m_title = nullptr;
    QLineEdit *m_provenance = nullptr;
    QLineEdit *m_licence = nullptr;
    QCheckBox *m_rowsPublic = nullptr;
    QCheckBox *m_dataPublic = nullptr;
    QLabel *m_notes = nullptr;
    QLabel *m_error = nullptr;
    QWidget *m_saveButton = nullptr;
};

/// File ▸ Import CSV: asks for a CSV file, then runs the dialog on it. Returns the CSV file's path
/// when the user saved its metadata and asked to open it, else an empty string.
QString importCsvInteractive(QWidget *parent, const QString &startFolder);

} // namespace pbx::ui
