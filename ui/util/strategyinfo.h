// SPDX-License-Identifier: MIT
// What the comparison view says about each composition strategy: its title and colour (the same
// in the table, the charts and the explanation), its formula, its source, and why its number
// differs from the others'.
#pragma once

#include <QColor>
#include <QList>
#include <QString>

namespace pbx::ui {

struct StrategyInfo
{
    QString name;  ///< the core's name: "basic", "advanced", "optimal", "zcdp", "rdp", "pld"
    QString title; ///< "Basic composition"
    QColor colour;
    QString formula; ///< HTML, one or two lines
    QString source;  ///< HTML: papers and the library it follows
    QString why;     ///< HTML: why its number differs from the others'
};

/// The six strategies in the core's report order (accounting::allStrategyNames()).
const QList<StrategyInfo> &strategyInfos();

/// The entry for `name`; an empty, grey entry for an unknown name.
const StrategyInfo &strategyInfo(const QString &name);

/// Index of `name` in strategyInfos(), or −1.
int strategyIndex(const QString &name);

} // namespace pbx::ui
