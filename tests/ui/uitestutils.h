// SPDX-License-Identifier: MIT
// Small helpers shared by the GUI tests: a tiny hand-built table and the screenshot folder.
#pragma once

#include "core/data/table.h"

#include <QColor>
#include <QDir>
#include <QString>
#include <QTest>
#include <QWidget>

#include <cstdlib>
#include <memory>

namespace pbx::test {

/// 400 rows: x = row mod 40 (numeric, declared bounds [0, 50]) and g alternating "a"/"b".
inline std::shared_ptr<const data::Table> tinyTable()
{
    data::Column x;
    x.info.name = "x";
    x.info.type = data::ColumnType::Numeric;
    x.info.declaredBounds = data::Bounds{0.0, 50.0};
    x.info.description = "a number";
    data::Column g;
    g.info.name = "g";
    g.info.type = data::ColumnType::Categorical;
    g.info.categories = {"a", "b"};
    g.info.description = "a group";
    for (int i = 0; i < 400; ++i) {
        x.numeric.push_back(i % 40);
        g.codes.push_back(i % 2);
    }
    auto table = data::Table::create("tiny", {x, g}, "hand-built for tests");
    if (!table.ok())
        std::abort();
    return std::make_shared<const data::Table>(std::move(table).value());
}

/// PBX_SCREENSHOT_DIR (set by CTest), else the temp folder; created if missing.
inline QString screenshotDir()
{
    QString dir = qEnvironmentVariable("PBX_SCREENSHOT_DIR");
    if (dir.isEmpty())
        dir = QDir::tempPath() + QStringLiteral("/pbx-screenshots");
    QDir().mkpath(dir);
    return dir;
}

/// Saves a grab of `widget` as `<screenshotDir>/<name>.png`; returns the path ("" on failure).
/// Lets posted layout requests and the charts' coalesced updates run first.
inline QString saveScreenshot(QWidget &widget, const QString &name)
{
    QTest::qWait(120);
    const QString path = screenshotDir() + u'/' + name + QStringLiteral(".png");
    return widget.grab().save(path, "PNG") ? path : QString();
}

/// Colours equal within `tolerance` per channel.
inline bool closeColour(const QColor &a, const QColor &b, int tolerance = 12)
{
    return std::abs(a.red() - b.red()) <= tolerance && std::abs(a.green() - b.green()) <= tolerance
           && std::abs(a.blue() - b.blue()) <= tolerance;
}

} // namespace pbx::test
