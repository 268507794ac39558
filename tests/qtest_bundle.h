// SPDX-License-Identifier: MIT
// Test bundles: the test classes of one folder share one executable (cmake/PbxTesting.cmake), so the
// build compiles and links a few executables instead of one per class. Every test source gets this
// header through the tests' precompiled header, after <QtTest/QtTest>: QTEST_MAIN,
// QTEST_GUILESS_MAIN and QTEST_APPLESS_MAIN (which all expand QTEST_MAIN_WRAPPER) then register the
// class's main under the class's name instead of defining main(). The bundle's main (test_main.cpp)
// runs the class named by its first argument, with the remaining arguments given to QTest: ctest
// runs `tst_<folder>_<group> TestClassName`. Each class still runs in a process of its own, with the
// same application object (QApplication, QCoreApplication or none) as Qt's own macro creates.
#pragma once

#include <QtTest/QtTest>

namespace pbx::testing {

/// A test class's main: argc/argv as QTest::qExec takes them (the class name already removed).
using TestMain = int (*)(int argc, char *argv[]);

/// Records `main` under `className` (a string literal). Returns true; a second class of the same
/// name in one bundle is reported by the bundle's main when it starts.
bool registerTest(const char *className, TestMain main);

} // namespace pbx::testing

#undef QTEST_MAIN_WRAPPER
#define QTEST_MAIN_WRAPPER(TestObject, ...)                                                                  \
    [[maybe_unused]] static const bool pbx_test_registered_##TestObject                                      \
        = ::pbx::testing::registerTest(#TestObject, [](int argc, char *argv[]) -> int {                      \
              QT_PREPEND_NAMESPACE(QTest::Internal::callInitMain)<TestObject>();                             \
              __VA_ARGS__                                                                                    \
              TestObject tc;                                                                                 \
              QTEST_SET_MAIN_SOURCE_PATH                                                                     \
              return QTest::qExec(&tc, argc, argv);                                                          \
          });
