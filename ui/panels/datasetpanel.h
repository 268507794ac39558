// SPDX-License-Identifier: MIT
// What the open dataset is: name, size, provenance and its columns' public metadata (type,
// declared clipping bounds or category domain, description). Declared metadata is public; what
// a CSV without metadata shows (types, category lists) was inferred from the rows, and a warning
// says that it discloses values.
#pragma once

#include <QWidget>

QT_FORWARD_DECLARE_CLASS(QLabel)
QT_FORWARD_DECLARE_CLASS(QTableWidget)

namespace pbx::data {
class Source;
class Table;
} // namespace pbx::data

namespace pbx::ui {

class DatasetPanel final : public QWidget
{
    Q_OBJECT
public:
    enum Column { NameColumn, TypeColumn, DomainColumn, DescriptionColumn, ColumnCount };

    explicit DatasetPanel(QWidget *parent = nullptr);

    /// Shows `table`'s metadata (nullptr: nothing open). `source` is the embedded name or path.
    void setTable(const data::Table *table, const QString &source);
    /// Shows `source`'s schema (setTable) and, for a database source, where the data live
    /// (data::Source::location()) and its declared row count. nullptr: nothing open.
    void setSource(const data::Source *source, const QString &text);
    QLabel *sourceLabel() const { return m_source; }
    QLabel *rowsLabel() const { return m_rows; }

    QTableWidget *columnsTable() const { return m_columns; }
    /// The warning shown when column types or categories were inferred from the data.
    QLabel *disclosureWarning() const { return m_disclosure; }

private:
    QLabel *m_name = nullptr;
    QLabel *m_rows = nullptr;
    QLabel *m_source = nullptr;
    QLabel *m_provenance = nullptr;
    QLabel *m_disclosure = nullptr;
    QTableWidget *m_columns = nullptr;
};

} // namespace pbx::ui
