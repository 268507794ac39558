// SPDX-License-Identifier: MIT
// pbx: the Privacy Budget Explorer GUI.
//   pbx [--dataset NAME-or-CSV] [--session FILE | FILE] [--screenshot OUT.png]
#include "core/io/standard_descriptors.h"
#include "resources/dataset_catalog.h"
#include "ui/appinfo.h"
#include "ui/appsettings.h"
#include "ui/lessons/welcome.h"
#include "ui/mainwindow.h"
#include "ui/sessiondocument.h"
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
#include <cstdlib>
#include <initializer_list>
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

bool environmentSet(const char *name)
{
    const char *value = std::getenv(name);
    return value && *value;
}

bool hasArgument(int argc, char *argv[], std::initializer_list<std::string_view> names)
{
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        for (const std::string_view name : names)
            if (arg == name || (arg.starts_with(name) && arg.substr(name.size()).starts_with('=')))
                return true;
    }
    return false;
}

/// Without a display, Qt's default platform plugin (xcb) aborts with a raw plugin error. Decide
/// before QApplication exists: what needs no window (--help, --version, --screenshot) draws
/// offscreen; anything else gets one line saying how to run pbx, and false.
bool prepareDisplay(int argc, char *argv[])
{
#if defined(Q_OS_UNIX) && !defined(Q_OS_DARWIN) && !defined(Q_OS_ANDROID)
    if (environmentSet("QT_QPA_PLATFORM") || environmentSet("DISPLAY") || environmentSet("WAYLAND_DISPLAY")
        || hasArgument(argc, argv, {"-platform"}))
        return true;
    if (hasArgument(argc, argv, {"--help", "-h", "--help-all", "--version", "-v", "--screenshot"})) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
        return true;
    }
    std::fprintf(stderr, "pbx: no display to show the window on (neither DISPLAY nor WAYLAND_DISPLAY is "
                         "set): run pbx in a desktop session, or save a picture of the window with "
                         "'QT_QPA_PLATFORM=offscreen pbx --screenshot OUT.png'\n");
    return false;
#else
    (void)argc;
    (void)argv;
    return true;
#endif
}

} // namespace

int main(int argc, char *argv[])
{
    // Before any file is opened: a closed stdout or stderr must not become a journal's descriptor.
    if (!pbx::io::ensureStandardDescriptorsOpen())
        return 1;
    if (!prepareDisplay(argc, argv))
        return 1;
    std::vector<char *> qtArgv;
    const SessionArgument sessionArgument = extractSessionArgument(argc, argv, qtArgv);
    int qtArgc = static_cast<int>(qtArgv.size()) - 1;
    QApplication app(qtArgc, qtArgv.data());
    pbx::ui::setApplicationIdentity();

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Privacy Budget Explorer: ask differentially private questions of a dataset with an "
                       "accuracy target, and watch the privacy budget being spent."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption sessionOption(
        QStringList{QStringLiteral("s"), QStringLiteral("session")},
        QStringLiteral("Open a saved session transcript or journal at start (a single FILE "
                       "argument does the same)."),
        QStringLiteral("FILE"));
    const QCommandLineOption datasetOption(
        QStringList{QStringLiteral("d"), QStringLiteral("dataset")},
        QStringLiteral("Start on an embedded dataset (%1) or a CSV file. Default: the dataset "
                       "used last, else %2.")
            .arg(
                QStringLiteral("one of: ") +
                    [] {
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
    parser.addPositionalArgument(QStringLiteral("FILE"),
                                 QStringLiteral("A session to open, as with --session."),
                                 QStringLiteral("[FILE]"));
    parser.process(app);

    if (sessionArgument.missingValue) {
        reportError(QStringLiteral("missing value for --session (see --help)"), false);
        return 2;
    }
    const QStringList positional = parser.positionalArguments();
    const bool sessionOptionGiven = sessionArgument.path || parser.isSet(sessionOption);
    if (positional.size() > 1 || (positional.size() == 1 && sessionOptionGiven)) {
        reportError(QStringLiteral("unexpected argument '%1' (see --help)").arg(positional.constLast()),
                    false);
        return 2;
    }
    // "-s FILE" reaches the parser; "--session FILE" was taken out of argv above; a desktop
    // entry or file manager passes the file alone.
    const std::optional<QString> sessionPath
        = sessionArgument.path          ? sessionArgument.path
          : parser.isSet(sessionOption) ? std::optional<QString>(parser.value(sessionOption))
          : positional.size() == 1      ? std::optional<QString>(positional.constFirst())
                                        : std::nullopt;

    const bool screenshot = parser.isSet(screenshotOption);
    const bool interactive = !screenshot;
    if (sessionPath && parser.isSet(datasetOption)) {
        reportError(QStringLiteral("--session and --dataset cannot be combined: a saved session "
                                   "names its own dataset"),
                    false);
        return 2;
    }

    // The window sizes itself to its screen (up to 1400×900); a screenshot shows the default
    // layout at the designed 1400×900, whatever this user last arranged or the screen is.
    pbx::ui::MainWindow window;
    if (screenshot)
        window.resize(1400, 900);
    else
        window.rememberLayout();
    // A database session whose metadata file moved asks where it is now (a screenshot asks nothing).
    if (interactive)
        window.document()->setMetadataChooser([&window](const QString &missing) {
            return pbx::ui::SessionDocument::askForMovedMetadata(&window, missing);
        });
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
        // Without --dataset: the dataset used last, if it still opens, else the default one.
        const QString last = pbx::ui::AppSettings::lastDataset();
        const bool reopenedLast
            = !parser.isSet(datasetOption) && !screenshot && !last.isEmpty() && window.openDataset(last).ok();
        const QString dataset = parser.value(datasetOption);
        auto opened = reopenedLast ? pbx::Result<void>{} : window.openDataset(dataset);
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
    // Once per user, after the window is up: offer the guided lessons.
    QTimer::singleShot(0, &window, [&window] { pbx::ui::offerLessonsOnFirstRun(window); });
    return app.exec();
}
