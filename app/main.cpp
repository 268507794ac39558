// SPDX-License-Identifier: MIT
// pbx: the Privacy Budget Explorer GUI.
//   pbx [--dataset NAME-or-CSV] [--session FILE] [--screenshot OUT.png]
#include "core/io/standard_descriptors.h"
#include "resources/dataset_catalog.h"
#include "ui/appinfo.h"
#include "ui/mainwindow.h"
#include "ui/util/numberformat.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QMessageBox>
#include <QPixmap>
#include <QTimer>
#include <QWindow>

#include <cstdio>
#include <optional>
#include <string_view>
#include <vector>

namespace {

void reportError(const QString &message, bool interactive)
{
    std::fprintf(stderr, "pbx: %s\n", message.toLocal8Bit().constData());
    if (interactive)
        QMessageBox::critical(nullptr, QStringLiteral("Privacy Budget Explorer"), message);
}

/// Lets pending events (layouts, the chart's coalesced update, paints) run for `ms`.
void settle(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

/// Shows `window`, waits until it is exposed, grabs it and writes a PNG. Returns the exit code.
int takeScreenshot(pbx::ui::MainWindow &window, const QString &path)
{
    window.show();
    QElapsedTimer timer;
    timer.start();
    while ((!window.windowHandle() || !window.windowHandle()->isExposed()) && timer.elapsed() < 5000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    settle(200);
    window.flushViews();
    settle(100);
    const QPixmap shot = window.grab();
    if (shot.isNull() || !shot.save(path, "PNG")) {
        reportError(QStringLiteral("cannot write the screenshot to %1").arg(path), false);
        return 1;
    }
    return 0;
}

/// QGuiApplication takes "-session ID" / "--session ID" out of argv for X11 session management,
/// so our --session FILE would never reach QCommandLineParser. Take it out first and hand Qt
/// the rest.
struct SessionArgument
{
    std::optional<QString> path;
    bool missingValue = false;
};

SessionArgument extractSessionArgument(int argc, char *argv[], std::vector<char *> &rest)
{
    SessionArgument result;
    rest.clear();
    for (int i = 0; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (i > 0 && (arg == "--session" || arg == "-session")) {
            if (i + 1 < argc)
                result.path = QString::fromLocal8Bit(argv[++i]);
            else
                result.missingValue = true;
            continue;
        }
        if (i > 0 && arg.starts_with("--session=")) {
            result.path = QString::fromLocal8Bit(argv[i] + std::string_view("--session=").size());
            continue;
        }
        rest.push_back(argv[i]);
    }
    rest.push_back(nullptr);
    return result;
}

} // namespace

int main(int argc, char *argv[])
{
    // Before any file is opened: a closed stdout or stderr must not become a journal's descriptor.
    if (!pbx::io::ensureStandardDescriptorsOpen())
        return 1;
    std::vector<char *> qtArgv;
    const SessionArgument sessionArgument = extractSessionArgument(argc, argv, qtArgv);
    int qtArgc = static_cast<int>(qtArgv.size()) - 1;
    QApplication app(qtArgc, qtArgv.data());
    pbx::ui::setApplicationIdentity();

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Privacy Budget Explorer: ask differentially private questions of a dataset with an "
        "accuracy target, and watch the privacy budget being spent."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption sessionOption(
        QStringList{QStringLiteral("s"), QStringLiteral("session")},
        QStringLiteral("Open a saved session transcript (JSON) at start."), QStringLiteral("FILE"));
    const QCommandLineOption datasetOption(
        QStringList{QStringLiteral("d"), QStringLiteral("dataset")},
        QStringLiteral("Start on an embedded dataset (%1) or a CSV file. Default: %2.")
            .arg(QStringLiteral("one of: ")
                     + [] {
                           QStringList names;
                           for (const auto &n : pbx::resources::embeddedDatasetNames())
                               names << pbx::ui::toQString(n);
                           return names.join(QStringLiteral(", "));
                       }(),
                 pbx::ui::toQString(pbx::resources::defaultDatasetName)),
        QStringLiteral("NAME-or-CSV"), pbx::ui::toQString(pbx::resources::defaultDatasetName));
    const QCommandLineOption screenshotOption(
        QStringLiteral("screenshot"),
        QStringLiteral("Show the main window, save a PNG of it to OUT.png and exit "
                       "(works with QT_QPA_PLATFORM=offscreen)."),
        QStringLiteral("OUT.png"));
    parser.addOption(sessionOption);
    parser.addOption(datasetOption);
    parser.addOption(screenshotOption);
    parser.process(app);

    if (sessionArgument.missingValue) {
        reportError(QStringLiteral("missing value for --session (see --help)"), false);
        return 2;
    }
    // "-s FILE" reaches the parser; "--session FILE" was taken out of argv above.
    const std::optional<QString> sessionPath =
        sessionArgument.path ? sessionArgument.path
        : parser.isSet(sessionOption) ? std::optional<QString>(parser.value(sessionOption))
                                      : std::nullopt;

    const bool screenshot = parser.isSet(screenshotOption);
    const bool interactive = !screenshot;
    if (!parser.positionalArguments().isEmpty()) {
        reportError(QStringLiteral("unexpected argument '%1' (see --help)")
                        .arg(parser.positionalArguments().constFirst()),
                    false);
        return 2;
    }
    if (sessionPath && parser.isSet(datasetOption)) {
        reportError(QStringLiteral("--session and --dataset cannot be combined: a saved session "
                                   "names its own dataset"),
                    false);
        return 2;
    }

    pbx::ui::MainWindow window;
    window.resize(1400, 900);
    if (sessionPath) {
        const QString &path = *sessionPath;
        auto opened = window.openSessionFile(path);
        if (!opened.ok()) {
            reportError(QStringLiteral("cannot open session %1: %2")
                            .arg(path, pbx::ui::toQString(opened.error().message)),
                        interactive);
            return 1;
        }
    } else {
        const QString dataset = parser.value(datasetOption);
        auto opened = window.openDataset(dataset);
        if (!opened.ok()) {
            reportError(QStringLiteral("cannot open dataset %1: %2")
                            .arg(dataset, pbx::ui::toQString(opened.error().message)),
                        interactive);
            return 1;
        }
    }

    if (screenshot)
        return takeScreenshot(window, parser.value(screenshotOption));

    window.show();
    return app.exec();
}
