// SPDX-License-Identifier: MIT
// File ▸ Open dataset: a CSV file, an SQLite file's table or a PostgreSQL table
// (docs/data-sources.md). For a database the user gives the table (SQLite: a file and a table
// name; PostgreSQL: a descriptor postgresql://USER@HOST:PORT/DB?table=NAME, never a password) and
// the metadata file that declares its columns' bounds, categories and row count. The dialog only
// gathers the text: MainWindow opens it through resources::openDataset, which reports errors.
#pragma once

#include <QDialog>

QT_FORWARD_DECLARE_CLASS(QComboBox)
QT_FORWARD_DECLARE_CLASS(QDialogButtonBox)
QT_FORWARD_DECLARE_CLASS(QLabel)
QT_FORWARD_DECLARE_CLASS(QLineEdit)
QT_FORWARD_DECLARE_CLASS(QPushButton)

namespace pbx::ui {

class OpenDatasetDialog final : public QDialog
{
    Q_OBJECT
public:
    enum class Kind { Csv, Sqlite, Postgres };

    explicit OpenDatasetDialog(QWidget *parent = nullptr);

    Kind kind() const;
    void setKind(Kind kind);
    /// What resources::openDataset is given: a CSV path, "sqlite:PATH?table=NAME" (the path and
    /// table percent-encoded where needed) or the PostgreSQL descriptor as typed.
    QString dataset() const;
    /// The metadata file (database sources; empty for CSV).
    QString metadataPath() const;

    QLineEdit *pathField() const { return m_path; }
    QLineEdit *tableField() const { return m_table; }
    QLineEdit *metadataField() const { return m_metadata; }
    QComboBox *kindBox() const { return m_kind; }

private:
    void updateFields();
    void browsePath();
    void browseMetadata();

    QComboBox *m_kind = nullptr;
    QLabel *m_pathLabel = nullptr;
    QLineEdit *m_path = nullptr;
    QPushButton *m_browsePath = nullptr;
    QLabel *m_tableLabel = nullptr;
    QLineEdit *m_table = nullptr;
    QLabel *m_metadataLabel = nullptr;
    QLineEdit *m_metadata = nullptr;
    QPushButton *m_browseMetadata = nullptr;
    QLabel *m_note = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
};

} // namespace pbx::ui
