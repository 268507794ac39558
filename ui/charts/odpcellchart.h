// SPDX-License-Identifier: MIT
// ODP cell bars (Hartmann, Bindschaedler, Bentkamp & West 2023, Definition 2): one bar per cell of
// an output-DP mechanism's partition with its cost E(cell), the worst case E* and, when known, the
// ε the session has left. After a run the realised cell is highlighted and what it returned
// against the worst case, E* − E(cell), is annotated. Plain data in; nothing here reads a dataset.
#pragma once

#include "ui/charts/chartframe.h"

#include <QString>

#include <optional>
#include <vector>

namespace pbx::ui {

class OdpCellChart final : public ChartFrame
{
    Q_OBJECT
public:
    struct Cell
    {
        QString label;  ///< e.g. "⊥", "j = 2"
        double epsilon; ///< E(cell) ≥ 0, in ε units
    };

    explicit OdpCellChart(QWidget *parent = nullptr);

    /// Draws the bars. `remaining` is the session's ε left before the request (unset: not drawn);
    /// `realised` is the index into `cells` of the cell the output fell in (unset: not run yet).
    /// More than maxCells cells are not drawn (a message says so).
    void setCells(const QString &title, const std::vector<Cell> &cells, std::optional<double> remaining,
                  std::optional<int> realised);

    static constexpr int maxCells = 60;

    int barCount() const { return static_cast<int>(m_cells.size()); }
    /// E(cell) of bar `index` as drawn (0 when out of range).
    double barValue(int index) const;
    /// E* = the tallest bar.
    double worstCase() const { return m_worst; }
    std::optional<int> realised() const { return m_realised; }
    /// E* − E(realised cell); unset before a run.
    std::optional<double> returned() const;
    /// The annotation under the title ("realised …, returned …"), plain text.
    QString annotation() const { return m_annotation; }

private:
    std::vector<Cell> m_cells;
    double m_worst = 0.0;
    std::optional<int> m_realised;
    QString m_annotation;
};

} // namespace pbx::ui
