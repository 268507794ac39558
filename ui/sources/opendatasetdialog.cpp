// SPDX-License-Identifier: MIT
#include "ui/sources/opendatasetdialog.h"

#include "ui/appsettings.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QUrl>
#include <QVBoxLayout>

namespace pbx::ui {

namespace {

/// A descriptor component: percent-encoded where it would end the component ('?', '&', '%', '#').
QString component(const QString &text)
{
    return QString::fromLatin1(QUrl::toPercentEncoding(text, "/:~.-_ "));
}

} // namespace

OpenDatasetDialog::OpenDatasetDialog(QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("Open dataset"));
    m_kind = new QComboBox(this);
    m_kind->addItem(tr("CSV file"));
    m_kind->addItem(tr("SQLite table"));
    m_kind->addItem(tr("PostgreSQL table"));
    m_pathLabel = new QLabel(this);
    m_path = new QLineEdit(this);
    m_browsePath = new QPushButton(tr("Browse…"), this);
    m_tableLabel = new QLabel(tr("Table:"), this);
    m_table = new QLineEdit(this);
    m_metadataLabel = new QLabel(tr("Metadata file:"), this);
    m_metadata = new QLineEdit(this);
    m_metadata->setPlaceholderText(tr("required: declares bounds, categories and the row count"));
    m_browseMetadata = new QPushButton(tr("Browse…"), this);
    m_note = new QLabel(this);
    m_note->setWordWrap(true);
    m_note->setTextFormat(Qt::PlainText);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this);

    auto *pathRow = new QHBoxLayout;
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(m_browsePath);
    auto *metadataRow = new QHBoxLayout;
    metadataRow->addWidget(m_metadata, 1);
    metadataRow->addWidget(m_browseMetadata);
    auto *form = new QFormLayout;
    form->addRow(tr("Where the data live:"), m_kind);
    form->addRow(m_pathLabel, pathRow);
    form->addRow(m_tableLabel, m_table);
    form->addRow(m_metadataLabel, metadataRow);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_note);
    layout->addStretch(1);
    layout->addWidget(m_buttons);
    setMinimumWidth(560);
    layout->setSizeConstraint(QLayout::SetMinimumSize);

    connect(m_kind, &QComboBox::currentIndexChanged, this, [this] { updateFields(); });
    connect(m_browsePath, &QPushButton::clicked, this, &OpenDatasetDialog::browsePath);
    connect(m_browseMetadata, &QPushButton::clicked, this, &OpenDatasetDialog::browseMetadata);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    updateFields();
}

OpenDatasetDialog::Kind OpenDatasetDialog::kind() const
{
    return static_cast<Kind>(m_kind->currentIndex());
}

void OpenDatasetDialog::setKind(Kind kind)
{
    m_kind->setCurrentIndex(static_cast<int>(kind));
}

QString OpenDatasetDialog::dataset() const
{
    const QString path = m_path->text().trimmed();
    switch (kind()) {
    case Kind::Csv:
    case Kind::Postgres:
        return path;
    case Kind::Sqlite:
        return QStringLiteral("sqlite:") + component(path) + QStringLiteral("?table=")
               + component(m_table->text().trimmed());
    }
    return path;
}

QString OpenDatasetDialog::metadataPath() const
{
    return kind() == Kind::Csv ? QString() : m_metadata->text().trimmed();
}

void OpenDatasetDialog::updateFields()
{
    const Kind k = kind();
    const bool database = k != Kind::Csv;
    m_pathLabel->setText(k == Kind::Postgres ? tr("Descriptor:") : tr("File:"));
    m_path->setPlaceholderText(
        k == Kind::Postgres ? QStringLiteral("postgresql://user@host:5432/db?table=name")
        : k == Kind::Sqlite ? tr("an SQLite database file")
                            : tr("a CSV file (its metadata sidecar is read beside it)"));
    m_browsePath->setVisible(k != Kind::Postgres);
    m_tableLabel->setVisible(k == Kind::Sqlite);
    m_table->setVisible(k == Kind::Sqlite);
    m_metadataLabel->setVisible(database);
    m_metadata->setVisible(database);
    m_browseMetadata->setVisible(database);
    m_note->setText(
        !database
            ? tr("The file is read into memory; every request kind can be asked.")
            : tr("The table stays in the database, opened read-only: counts, sums, means and histograms of a "
                 "categorical column are computed there. Quantiles, workloads, numeric histograms, output-DP "
                 "requests and growing streams read each row and need an in-memory table (a CSV file).%1")
                  .arg(k == Kind::Postgres
                           ? tr(" No password in the descriptor: use ~/.pgpass or PGPASSWORD.")
                           : QString()));
    // The note wraps: the dialog takes the height its new text needs at the current width.
    if (layout())
        layout()->activate();
    resize(width(), qMax(height(), heightForWidth(width())));
}

void OpenDatasetDialog::browsePath()
{
    const QString filter = kind() == Kind::Sqlite
                               ? tr("SQLite databases (*.db *.sqlite *.sqlite3);;All files (*)")
                               : tr("CSV files (*.csv *.csv.gz *.tsv);;All files (*)");
    const QString path
        = QFileDialog::getOpenFileName(this, tr("Open dataset"), AppSettings::startFolder(), filter);
    if (path.isEmpty())
        return;
    AppSettings::setLastFolderFrom(path);
    m_path->setText(path);
}

void OpenDatasetDialog::browseMetadata()
{
    const QString path
        = QFileDialog::getOpenFileName(this, tr("Dataset metadata"), AppSettings::startFolder(),
                                       tr("Dataset metadata (*.json);;All files (*)"));
    if (!path.isEmpty())
        m_metadata->setText(path);
}

} // namespace pbx::ui
